#include "mongo/db/auth/sasl_prep.h"

#include <gtest/gtest.h>

namespace mongo::auth {
namespace {

// The examples of RFC 4013 section 3.
TEST(SaslPrep, Rfc4013Examples) {
    EXPECT_EQ("IX", saslPrep("I\xC2\xAD"
                             "X")
                        .getValue());  // SOFT HYPHEN mapped to nothing
    EXPECT_EQ("user", saslPrep("user").getValue());
    EXPECT_EQ("USER", saslPrep("USER").getValue());        // case preserved
    EXPECT_EQ("a", saslPrep("\xC2\xAA").getValue());       // FEMININE ORDINAL, NFKC
    EXPECT_EQ("IX", saslPrep("\xE2\x85\xA8").getValue());  // ROMAN NUMERAL NINE, NFKC
    EXPECT_EQ(ErrorCodes::BadValue, saslPrep("\x07").getStatus().code());  // prohibited
    EXPECT_EQ(ErrorCodes::BadValue,
              saslPrep("\xD8\xA7"
                       "1")
                  .getStatus()
                  .code());  // bidi rule
}

TEST(SaslPrep, NonAsciiSpaceMapsToSpace) {
    EXPECT_EQ("a b", saslPrep("a\xC2\xA0"
                              "b")
                         .getValue());
}

TEST(SaslPrep, InvalidUtf8IsBadValue) {
    EXPECT_EQ(ErrorCodes::BadValue, saslPrep("\xFF\xFE").getStatus().code());
}

}  // namespace
}  // namespace mongo::auth
