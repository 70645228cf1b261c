// Regression tests for KeyString decoding of malformed bytes, from key_string_fuzzer
// findings: decoding either fails with InvalidBSON or yields valid BSON that re-encodes
// to itself.
#include "mongo/db/storage/key_string.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

std::string bytes(std::initializer_list<int> b) {
    std::string s;
    for (int c : b)
        s.push_back(static_cast<char>(c));
    return s;
}

/** {"": [[...[1]...]]} with `levels` arrays (the innermost at BSON depth `levels`). */
BSONObj nestedArrays(int levels) {
    BSONArray arr = BSON_ARRAY(1);
    for (int i = 1; i < levels; ++i)
        arr = BSON_ARRAY(arr);
    BSONObjBuilder b;
    b.appendArray("", arr);
    return b.obj();
}

TEST(KeyStringDecode, NaNFractionIsInvalidBSON) {
    // Negative number, magnitude 235 + a fraction whose bits are a NaN (fuzzer input).
    std::string key = bytes({0x1f, 0xfe, 0x14, 0xfe, 0, 0, 0, 1, 0x64, 0x1f, 0xfe, 0x14, 0xfe, 4});
    auto sw = key_string::toBsonSafe(key, Ordering(), "d");
    ASSERT_EQ(sw.getStatus().code(), ErrorCodes::InvalidBSON);
}

TEST(KeyStringDecode, FractionOutsideZeroToOneIsInvalidBSON) {
    // Positive, integer part 1, fraction 1.5 (0x3FF8000000000000).
    std::string key = bytes({33, 1, 1, 1, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 4});
    ASSERT_EQ(key_string::toBsonSafe(key, Ordering(), "d").getStatus().code(),
              ErrorCodes::InvalidBSON);
}

TEST(KeyStringDecode, BigMagnitudeBelowTwoToThe64IsInvalidBSON) {
    // Marker 9 (|x| >= 2^64) followed by the bits of 1.0.
    std::string key = bytes({33, 9, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 4});
    ASSERT_EQ(key_string::toBsonSafe(key, Ordering(), "d").getStatus().code(),
              ErrorCodes::InvalidBSON);
}

TEST(KeyStringDecode, LeadingZeroByteOrZeroMagnitudeIsInvalidBSON) {
    ASSERT_EQ(
        key_string::toBsonSafe(bytes({33, 2, 0, 5, 0, 4}), Ordering(), "i").getStatus().code(),
        ErrorCodes::InvalidBSON);
    ASSERT_EQ(key_string::toBsonSafe(bytes({33, 0, 0, 4}), Ordering(), "i").getStatus().code(),
              ErrorCodes::InvalidBSON);
}

TEST(KeyStringDecode, IntegerThatDoesNotFitItsTypeBitIsInvalidBSON) {
    key_string::Builder ks(Ordering(), BSON("" << (1LL << 40)));
    ASSERT_EQ(ks.getTypeBits(), "l");
    ASSERT_EQ(key_string::toBsonSafe(ks.getView(), Ordering(), "i").getStatus().code(),
              ErrorCodes::InvalidBSON);
    // The extremes still decode.
    for (long long v : {-(1LL << 31), (1LL << 31) - 1}) {
        key_string::Builder k(Ordering(), BSON("" << static_cast<int>(v)));
        auto back = key_string::toBsonSafe(k.getView(), Ordering(), k.getTypeBits());
        ASSERT_TRUE(back.isOK());
        ASSERT_EQ(back.getValue().firstElement().numberInt(), v);
    }
    key_string::Builder minLong(Ordering(), BSON("" << std::numeric_limits<long long>::min()));
    auto back = key_string::toBsonSafe(minLong.getView(), Ordering(), minLong.getTypeBits());
    ASSERT_TRUE(back.isOK());
    ASSERT_EQ(back.getValue().firstElement().numberLong(), std::numeric_limits<long long>::min());
}

TEST(KeyStringDecode, FieldNameThatIsNotUtf8IsInvalidBSON) {
    // {"": {"x\xff": 1}} written by hand: object, rank of a number, name, int 1, end.
    std::string key = bytes({70, 12, 'x', 0xff, 0, 33, 1, 1, 0, 0, 4});
    ASSERT_EQ(key_string::toBsonSafe(key, Ordering(), "i").getStatus().code(),
              ErrorCodes::InvalidBSON);
}

TEST(KeyStringDecode, NestingIsBoundedLikeValidateBSON) {
    BSONObj ok = nestedArrays(200);
    ASSERT_TRUE(validateBSON(ok.objdata(), ok.objsize()).isOK());
    key_string::Builder a(Ordering(), ok);
    auto back = key_string::toBsonSafe(a.getView(), Ordering(), a.getTypeBits());
    ASSERT_TRUE(back.isOK());
    ASSERT_TRUE(back.getValue().binaryEqual(ok));

    // Too deep for BSON: rejected (and thousands of levels do not exhaust the stack).
    for (int levels : {201, 5000}) {
        key_string::Builder k(Ordering(), nestedArrays(levels));
        ASSERT_EQ(
            key_string::toBsonSafe(k.getView(), Ordering(), k.getTypeBits()).getStatus().code(),
            ErrorCodes::InvalidBSON);
    }
}

}  // namespace
}  // namespace mongo
