#include <gtest/gtest.h>

#include <cmath>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/matcher/explain_filter.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {
namespace {

bool matches(const BSONObj& filter, const BSONObj& doc) {
    auto sw = parseMatchExpression(filter);
    EXPECT_TRUE(sw.isOK()) << sw.getStatus();
    return sw.isOK() && sw.getValue()->matches(doc, nullptr);
}

int parseCode(const BSONObj& filter) {
    return static_cast<int>(parseMatchExpression(filter).getStatus().code());
}

TEST(BitTest, BitmaskAndPositionsAgree) {
    BSONObj doc = BSON("a" << 54);  // 0b110110
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllSet\": 54}}"), doc));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllSet\": [1, 2, 4, 5]}}"), doc));
    EXPECT_FALSE(matches(fromjson("{\"a\": {\"$bitsAllSet\": 55}}"), doc));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllClear\": [0, 3]}}"), doc));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAnySet\": 10}}"), doc));
    EXPECT_FALSE(matches(fromjson("{\"a\": {\"$bitsAnySet\": 9}}"), doc));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAnyClear\": 55}}"), doc));
    EXPECT_FALSE(matches(fromjson("{\"a\": {\"$bitsAnyClear\": 54}}"), doc));
}

TEST(BitTest, EmptyMaskIsAllButNotAny) {
    BSONObj doc = BSON("a" << 7);
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllSet\": []}}"), doc));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllClear\": 0}}"), doc));
    EXPECT_FALSE(matches(fromjson("{\"a\": {\"$bitsAnySet\": 0}}"), doc));
    EXPECT_FALSE(matches(fromjson("{\"a\": {\"$bitsAnyClear\": []}}"), doc));
}

TEST(BitTest, NegativeNumbersAreSignExtended) {
    BSONObj doc = BSON("a" << -1);
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllSet\": [0, 63, 100]}}"), doc));
    EXPECT_FALSE(matches(fromjson("{\"a\": {\"$bitsAnyClear\": [100]}}"), doc));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllClear\": [100]}}"), BSON("a" << 1)));
}

TEST(BitTest, OnlyIntegralNumbersAndBinDataMatch) {
    BSONObj all = fromjson("{\"a\": {\"$bitsAllClear\": 0}}");
    EXPECT_TRUE(matches(all, BSON("a" << 2.0)));
    EXPECT_FALSE(matches(all, BSON("a" << 1.5)));
    EXPECT_FALSE(matches(all, BSON("a" << std::nan(""))));
    EXPECT_FALSE(matches(all, BSON("a" << 1e300)));
    EXPECT_FALSE(matches(all, BSON("a"
                                   << "str")));
    EXPECT_TRUE(matches(all, BSON("a" << Decimal128(4))));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllSet\": 2}}"), fromjson("{\"a\": [1.5, 2]}")));
}

TEST(BitTest, BinDataBitsAreLittleEndianPerByte) {
    const unsigned char bytes[] = {0x01, 0x80};  // bits 0 and 15
    BSONObjBuilder b;
    b.appendBinData("a", 2, BinDataType::BinDataGeneral, bytes);
    BSONObj doc = b.obj();
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllSet\": [0, 15]}}"), doc));
    EXPECT_TRUE(matches(fromjson("{\"a\": {\"$bitsAllClear\": [1, 14, 16, 200]}}"), doc));
    BSONObjBuilder f;
    {
        BSONObjBuilder sub(f.subobjStart("a"));
        sub.appendBinData("$bitsAllSet", 2, BinDataType::BinDataGeneral, bytes);
    }
    EXPECT_TRUE(matches(f.obj(), doc));
}

TEST(BitTest, BadArgumentsAreBadValue) {
    EXPECT_EQ(parseCode(fromjson("{\"a\": {\"$bitsAllSet\": -1}}")), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(fromjson("{\"a\": {\"$bitsAllSet\": 1.5}}")), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(fromjson("{\"a\": {\"$bitsAllSet\": [-1]}}")), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(fromjson("{\"a\": {\"$bitsAllSet\": [\"x\"]}}")), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(fromjson("{\"a\": {\"$bitsAnySet\": \"x\"}}")), ErrorCodes::BadValue);
    EXPECT_EQ(parseCode(fromjson("{\"a\": {\"$bitsAnySet\": [4294967296]}}")),
              ErrorCodes::BadValue);
}

TEST(BitTest, SerializesAsPositions) {
    auto sw = parseMatchExpression(fromjson("{\"a\": {\"$bitsAnySet\": 5}}"));
    ASSERT_TRUE(sw.isOK());
    EXPECT_EQ(serializeForExplain(*sw.getValue()).jsonString(),
              fromjson("{\"a\": {\"$bitsAnySet\": [0, 2]}}").jsonString());
}

}  // namespace
}  // namespace mongo
