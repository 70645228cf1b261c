#include "mongo/db/pipeline/document_source_current_op.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

const NamespaceString kAdminAggregate("admin", "$cmd.aggregate");

std::unique_ptr<Pipeline> parse(const std::vector<BSONObj>& stages,
                                const NamespaceString& nss = kAdminAggregate) {
    return Pipeline::parse(stages, std::make_shared<ExpressionContext>(nullptr, nss));
}

int parseError(const BSONObj& spec, const NamespaceString& nss = kAdminAggregate) {
    try {
        parse({BSON("$currentOp" << spec.firstElement())}, nss);
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(DocumentSourceCurrentOp, SpecErrorsHaveUpstreamCodes) {
    EXPECT_EQ(ErrorCodes::TypeMismatch, parseError(BSON("" << 1)));
    EXPECT_EQ(ErrorCodes::TypeMismatch, parseError(BSON("" << BSON("allUsers" << 1))));
    EXPECT_EQ(ErrorCodes::TypeMismatch, parseError(BSON("" << BSON("localOps"
                                                                   << "x"))));
    EXPECT_EQ(ErrorCodes::FailedToParse, parseError(BSON("" << BSON("idleCursors" << 1))));
    EXPECT_EQ(ErrorCodes::FailedToParse, parseError(BSON("" << BSON("nope" << true))));
    EXPECT_EQ(ErrorCodes::InvalidNamespace,
              parseError(BSON("" << BSONObj()), NamespaceString("test", "$cmd.aggregate")));
    EXPECT_EQ(ErrorCodes::InvalidNamespace,
              parseError(BSON("" << BSONObj()), NamespaceString("admin", "c")));
    EXPECT_EQ(0, parseError(BSON("" << BSON("allUsers" << true << "idleConnections" << true
                                                       << "truncateOps" << false))));
}

TEST(DocumentSourceCurrentOp, MustBeTheFirstStage) {
    try {
        parse({BSON("$currentOp" << BSONObj()), BSON("$currentOp" << BSONObj())});
        FAIL() << "expected 40602";
    } catch (const DBException& e) {
        EXPECT_EQ(40602, e.code());
    }
    // {aggregate: 1} checks its first stage first: $match needs a collection.
    try {
        parse({BSON("$match" << BSONObj()), BSON("$currentOp" << BSONObj())});
        FAIL() << "expected InvalidNamespace";
    } catch (const DBException& e) {
        EXPECT_EQ(ErrorCodes::InvalidNamespace, e.code());
    }
}

TEST(DocumentSourceCurrentOp, PassesItsOptionsToTheReporterAndSerializesNonDefaults) {
    CurrentOpOptions seen;
    setCurrentOpReporter([&](OperationContext*, const CurrentOpOptions& o) {
        seen = o;
        return std::vector<BSONObj>{BSON("opid" << 1), BSON("opid" << 2)};
    });
    auto p = parse({BSON("$currentOp" << BSON("idleCursors" << true << "allUsers" << false)),
                    BSON("$match" << BSON("opid" << 2))});
    ASSERT_TRUE(p->isCollectionless());
    auto doc = p->getNext();
    ASSERT_TRUE(doc);
    EXPECT_EQ(2, (*doc)["opid"].numberLong());
    EXPECT_FALSE(p->getNext());
    EXPECT_TRUE(seen.idleCursors);
    EXPECT_FALSE(seen.allUsers);
    EXPECT_TRUE(seen.idleSessions);
    EXPECT_EQ(BSON("$currentOp" << BSON("idleCursors" << true)).toString(),
              p->serialize()[0].toString());
    setCurrentOpReporter(nullptr);
}

}  // namespace
}  // namespace mongo
