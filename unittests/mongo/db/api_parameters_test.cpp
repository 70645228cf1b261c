#include "mongo/db/api_parameters.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

ErrorCodes::Error parseCode(const BSONObj& body) {
    try {
        APIParameters::parse(body);
    } catch (const DBException& ex) {
        return ex.code();
    }
    return ErrorCodes::OK;
}

TEST(APIParameters, NoneGivenIsNotStrict) {
    APIParameters p = APIParameters::parse(BSON("ping" << 1));
    EXPECT_FALSE(p.version);
    EXPECT_FALSE(p.isStrict());
    EXPECT_FALSE(p.wantsDeprecationErrors());
    EXPECT_TRUE(p.toBSON().isEmpty());
}

TEST(APIParameters, ReadsTheThreeFields) {
    APIParameters p = APIParameters::parse(BSON("ping" << 1 << "apiVersion"
                                                       << "1"
                                                       << "apiStrict" << true
                                                       << "apiDeprecationErrors" << false));
    EXPECT_EQ("1", *p.version);
    EXPECT_TRUE(p.isStrict());
    EXPECT_FALSE(p.wantsDeprecationErrors());
    EXPECT_EQ(3, p.toBSON().nFields());
}

TEST(APIParameters, RefusesMalformedParameters) {
    EXPECT_EQ(4886600, parseCode(BSON("ping" << 1 << "apiStrict" << true)));
    EXPECT_EQ(4886600, parseCode(BSON("ping" << 1 << "apiDeprecationErrors" << false)));
    EXPECT_EQ(ErrorCodes::TypeMismatch, parseCode(BSON("ping" << 1 << "apiVersion" << 1)));
    EXPECT_EQ(ErrorCodes::APIVersionError, parseCode(BSON("ping" << 1 << "apiVersion"
                                                                 << "2")));
    EXPECT_EQ(ErrorCodes::TypeMismatch, parseCode(BSON("ping" << 1 << "apiVersion"
                                                              << "1"
                                                              << "apiStrict"
                                                              << "true")));
    EXPECT_EQ(ErrorCodes::TypeMismatch, parseCode(BSON("ping" << 1 << "apiVersion"
                                                              << "1"
                                                              << "apiDeprecationErrors" << 1)));
}

TEST(APIParameters, EqualityComparesWhatWasGiven) {
    auto a = APIParameters::parse(BSON("ping" << 1 << "apiVersion"
                                              << "1"));
    auto b = APIParameters::parse(BSON("ping" << 1 << "apiVersion"
                                              << "1"
                                              << "apiStrict" << false));
    EXPECT_NE(a, b);  // apiStrict: false is not the same request as no apiStrict
    EXPECT_EQ(a, APIParameters::parse(BSON("find"
                                           << "c"
                                           << "apiVersion"
                                           << "1")));
}

TEST(APIParameters, StrictChecksNeedAStrictOperation) {
    EXPECT_FALSE(isAPIStrict(nullptr));
    EXPECT_NO_THROW(uassertAllowedWithAPIStrict(nullptr, "stage $indexStats"));
}

}  // namespace
}  // namespace mongo
