#include "mongo/base/status.h"

#include <gtest/gtest.h>

#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

TEST(Status, OkHasCodeZeroAndNoReason) {
    Status s = Status::OK();
    EXPECT_TRUE(s.isOK());
    EXPECT_EQ(s.code(), ErrorCodes::OK);
    EXPECT_EQ(s.reason(), "");
}

TEST(Status, ErrorKeepsCodeAndReason) {
    Status s(ErrorCodes::DuplicateKey, "dup");
    EXPECT_FALSE(s.isOK());
    EXPECT_EQ(s.code(), 11000);
    EXPECT_EQ(s.codeString(), "DuplicateKey");
    EXPECT_EQ(s.reason(), "dup");
}

TEST(ErrorCodes, NamesAndNumbersMatchUpstream) {
    EXPECT_EQ(ErrorCodes::errorString(ErrorCodes::CommandNotFound), "CommandNotFound");
    EXPECT_EQ(static_cast<int>(ErrorCodes::CommandNotFound), 59);
    EXPECT_EQ(static_cast<int>(ErrorCodes::IDLUnknownField), 40415);
    EXPECT_EQ(ErrorCodes::fromString("BadValue"), ErrorCodes::BadValue);
    EXPECT_EQ(ErrorCodes::errorString(static_cast<ErrorCodes::Error>(40324)), "Location40324");
    EXPECT_TRUE(ErrorCodes::isIDLParseError(ErrorCodes::IDLUnknownField));
    EXPECT_FALSE(ErrorCodes::isIDLParseError(ErrorCodes::BadValue));
}

TEST(StatusWith, CarriesValueOrError) {
    StatusWith<int> ok(5);
    ASSERT_TRUE(ok.isOK());
    EXPECT_EQ(ok.getValue(), 5);
    StatusWith<int> bad(ErrorCodes::BadValue, "no");
    EXPECT_EQ(bad.getStatus().code(), ErrorCodes::BadValue);
}

TEST(StatusWithDeathTest, FromAnOkStatusIsAnInvariantFailure) {
    // Before, it became an InternalError the caller never asked for.
    EXPECT_DEATH(StatusWith<int>{Status::OK()}, "StatusWith built from an OK status");
}

TEST(Uassert, ThrowsWithCode) {
    try {
        uassert(ErrorCodes::InvalidOptions, "bad option", false);
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::InvalidOptions);
        EXPECT_EQ(ex.reason(), "bad option");
    }
}

}  // namespace
}  // namespace mongo
