// $_internalExprEq/Gt/Gte/Lt/Lte: the aggregation comparison written as a path predicate.
#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_leaf.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/query/collation/collator_interface_mock.h"

namespace mongo {
namespace {

bool matches(StringData filter, StringData doc, const CollatorInterface* collator = nullptr) {
    auto sw = parseMatchExpression(fromjson(filter));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus() << " for " << filter;
    if (!sw.isOK())
        return false;
    if (collator)
        sw.getValue()->setCollator(collator);
    return sw.getValue()->matchesBSON(fromjson(doc));
}

TEST(InternalExprComparison, EqualityComparesNumbersAcrossTypes) {
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprEq": 1}})", R"({"a": 1.0})"));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprEq": 1}})", R"({"a": {"$numberLong": "1"}})"));
    EXPECT_FALSE(matches(R"({"a": {"$_internalExprEq": 1}})", R"({"a": 2})"));
    EXPECT_FALSE(matches(R"({"a": {"$_internalExprEq": 1}})", R"({"a": "1"})"));
}

TEST(InternalExprComparison, NoTypeBracketing) {
    // null < numbers < strings < objects, as $expr's $gt/$lt order them.
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprLt": 2}})", R"({"a": null})"));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprGt": 2}})", R"({"a": "x"})"));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprGt": 2}})", R"({"a": {"b": 1}})"));
    EXPECT_FALSE(matches(R"({"a": {"$gt": 2}})", R"({"a": "x"})"));  // $gt brackets by type
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprGte": 2}})", R"({"a": 2})"));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprLte": 2}})", R"({"a": 2})"));
}

TEST(InternalExprComparison, MissingIsBelowNullAndNotEqualToIt) {
    EXPECT_FALSE(matches(R"({"a": {"$_internalExprEq": null}})", R"({"b": 1})"));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprEq": null}})", R"({"a": null})"));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprLt": null}})", R"({"b": 1})"));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprGt": {"$minKey": 1}}})", R"({"b": 1})"));
    // A scalar in the middle of the path leaves the value missing.
    EXPECT_TRUE(matches(R"({"a.b": {"$_internalExprLt": 0}})", R"({"a": 5})"));
}

TEST(InternalExprComparison, AnArrayOnThePathAlwaysMatches) {
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprEq": 5}})", R"({"a": [1, 2]})"));
    EXPECT_TRUE(matches(R"({"a.b": {"$_internalExprEq": 5}})", R"({"a": [{"b": 1}]})"));
    EXPECT_TRUE(matches(R"({"a.b.c": {"$_internalExprGt": 5}})", R"({"a": {"b": []}})"));
    EXPECT_FALSE(matches(R"({"a.b": {"$_internalExprEq": 5}})", R"({"a": {"b": 1}})"));
    EXPECT_TRUE(matches(R"({"a.b": {"$_internalExprEq": 5}})", R"({"a": {"b": 5}})"));
}

TEST(InternalExprComparison, NaNSortsBelowNumbers) {
    const char* nanDoc = R"({"a": {"$numberDouble": "NaN"}})";
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprLt": -1e308}})", nanDoc));
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprEq": {"$numberDouble": "NaN"}}})", nanDoc));
}

TEST(InternalExprComparison, StringsUseTheCollation) {
    CollatorInterfaceMock lower(CollatorInterfaceMock::MockType::kToLowerString);
    EXPECT_TRUE(matches(R"({"a": {"$_internalExprEq": "ABC"}})", R"({"a": "abc"})", &lower));
    EXPECT_FALSE(matches(R"({"a": {"$_internalExprEq": "ABC"}})", R"({"a": "abc"})"));
}

TEST(InternalExprComparison, ArrayAndUndefinedOperandsAreRejected) {
    for (const char* f :
         {R"({"a": {"$_internalExprEq": [1]}})", R"({"a": {"$_internalExprGt": []}})",
          R"({"a": {"$_internalExprLte": {"$undefined": true}}})"}) {
        auto sw = parseMatchExpression(fromjson(f));
        ASSERT_FALSE(sw.isOK()) << f;
        EXPECT_EQ(ErrorCodes::BadValue, sw.getStatus().code()) << f;
    }
}

TEST(InternalExprComparison, SerialisesUnderItsOwnName) {
    auto sw = parseMatchExpression(fromjson(R"({"a.b": {"$_internalExprGte": 3}})"));
    ASSERT_TRUE(sw.isOK());
    BSONObjBuilder b;
    sw.getValue()->serialize(&b);
    // The top level is an implicit $and.
    EXPECT_EQ(fromjson(R"({"$and": [{"a.b": {"$_internalExprGte": 3}}]})").toString(),
              b.obj().toString());
}

}  // namespace
}  // namespace mongo
