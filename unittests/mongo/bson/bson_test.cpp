#include <gtest/gtest.h>

#include <cmath>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

TEST(BSONObjBuilder, StreamSyntaxBuildsExpectedBytes) {
    BSONObj o = BSON("a" << 1 << "b"
                         << "x");
    // {a: int32 1, b: "x"}
    const unsigned char expected[] = {0x15, 0,   0, 0, 0x10, 'a', 0, 1,   0, 0, 0,
                                      0x02, 'b', 0, 2, 0,    0,   0, 'x', 0, 0};
    ASSERT_EQ(o.objsize(), 0x15);
    EXPECT_EQ(std::memcmp(o.objdata(), expected, 0x15), 0);
    EXPECT_TRUE(o.isOwned());
    EXPECT_EQ(o.nFields(), 2);
    EXPECT_EQ(o["a"].numberInt(), 1);
    EXPECT_EQ(o["b"].str(), "x");
    EXPECT_TRUE(o["c"].eoo());
}

TEST(BSONObjBuilder, NestedSubBuildersCloseThemselves) {
    BSONObjBuilder b;
    b.append("x", 1LL);
    {
        BSONObjBuilder sub(b.subobjStart("sub"));
        sub.append("y", 2.5);
        BSONArrayBuilder arr(sub.subarrayStart("arr"));
        arr.append(1).append("two");
    }
    BSONObj o = b.obj();
    ASSERT_TRUE(validateBSON(o.objdata(), o.objsize()).isOK());
    EXPECT_EQ(o.getFieldDotted("sub.y").numberDouble(), 2.5);
    EXPECT_EQ(o.getFieldDotted("sub.arr").Array().size(), 2u);
    EXPECT_EQ(o.toString(), "{ x: 1, sub: { y: 2.5, arr: [ 1, \"two\" ] } }");
}

TEST(BSONValidate, RejectsTruncatedAndBadLengths) {
    BSONObj o = BSON("s"
                     << "hello"
                     << "n" << 3);
    ASSERT_TRUE(validateBSON(o.objdata(), o.objsize()).isOK());
    std::string bytes(o.objdata(), o.objsize());
    for (std::size_t cut = 0; cut < bytes.size(); ++cut)
        EXPECT_FALSE(validateBSON(bytes.data(), cut).isOK()) << cut;
    std::string bad = bytes;
    bad[7] = 0x7F;  // string length far too large
    EXPECT_EQ(validateBSON(bad.data(), bad.size()).code(), ErrorCodes::InvalidBSON);
    bad = bytes;
    bad[4] = 0x33;  // unknown type byte
    EXPECT_EQ(validateBSON(bad.data(), bad.size()).code(), ErrorCodes::InvalidBSON);
}

TEST(BSONValidate, RejectsCodeWithScopeStringLengthNearIntMax) {
    // {c: CodeWScope} whose string length is INT32_MAX (found by the geometry fuzzer:
    // the bound check itself must not overflow).
    std::string doc;
    auto le32 = [&](std::int32_t v) {
        for (int i = 0; i < 4; ++i)
            doc.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    };
    le32(0);  // total, patched below
    doc.push_back(0x0F);
    doc += std::string("c", 2);  // "c\0"
    le32(14);                    // code-with-scope total
    le32(0x7FFFFFFF);            // string length
    doc += std::string(6, '\0');
    doc.push_back(0);
    std::int32_t total = static_cast<std::int32_t>(doc.size());
    for (int i = 0; i < 4; ++i)
        doc[i] = static_cast<char>((total >> (8 * i)) & 0xFF);
    EXPECT_EQ(validateBSON(doc.data(), doc.size()).code(), ErrorCodes::InvalidBSON);
}

TEST(BSONCompare, NumbersCompareAcrossTypes) {
    BSONObj o = BSON("i" << 1 << "l" << 1LL << "d" << 1.0 << "h" << 1.5 << "n" << std::nan(""));
    EXPECT_EQ(compareElementValues(o["i"], o["l"]), 0);
    EXPECT_EQ(compareElementValues(o["i"], o["d"]), 0);
    EXPECT_LT(compareElementValues(o["l"], o["h"]), 0);
    EXPECT_LT(compareElementValues(o["n"], o["i"]), 0);
    EXPECT_EQ(hashElementValue(o["i"]), hashElementValue(o["d"]));
}

TEST(BSONCompare, TypesOrderCanonically) {
    BSONObj o = BSON("mn" << MINKEY << "nl" << BSONNULL << "num" << 5 << "s"
                          << "a"
                          << "o" << BSONObj() << "oid" << OID() << "b" << true << "dt"
                          << Date_t::fromMillisSinceEpoch(0) << "mx" << MAXKEY);
    std::vector<BSONElement> els;
    for (auto e : o)
        els.push_back(e);
    for (std::size_t i = 0; i + 1 < els.size(); ++i)
        EXPECT_LT(compareElementValues(els[i], els[i + 1]), 0) << i;
}

TEST(BSONCompare, LongVersusDoubleIsExact) {
    EXPECT_LT(compareLongToDouble(9007199254740993LL, 9007199254740994.0), 0);
    EXPECT_GT(compareLongToDouble(9007199254740993LL, 9007199254740992.0), 0);
    EXPECT_LT(compareLongToDouble(3, 3.5), 0);
}

TEST(Json, RoundTripsExtendedJson) {
    BSONObj o = fromjson(R"({"a": {"$numberLong": "5"}, "d": {"$date": "2024-01-01T00:00:00Z"}})");
    EXPECT_EQ(o["a"].type(), BSONType::kNumberLong);
    EXPECT_EQ(o["d"].type(), BSONType::kDate);
    EXPECT_EQ(o["d"].date().toString(), "2024-01-01T00:00:00.000Z");
    EXPECT_FALSE(fromjsonStatus("{bad").isOK());
}

TEST(OID, ParsesAndPrintsHex) {
    auto sw = OID::parse("507f1f77bcf86cd799439011");
    ASSERT_TRUE(sw.isOK());
    EXPECT_EQ(sw.getValue().toString(), "507f1f77bcf86cd799439011");
    EXPECT_EQ(OID::parse("zz").getStatus().code(), ErrorCodes::BadValue);
    OID a = OID::gen(), b = OID::gen();
    EXPECT_LT(a, b);
}

TEST(BufBuilder, RefusesToGrowPastItsCapBeforeAllocating) {
    BufBuilder b;
    b.appendChar('x');
    try {
        b.grow(static_cast<std::size_t>(kBufBuilderMaxSize));
        FAIL() << "expected 13548";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), 13548);
    }
    try {
        b.grow(std::size_t(1) << 40);  // would overflow int
        FAIL() << "expected 13548";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), 13548);
    }
    EXPECT_EQ(b.len(), 1);
}

TEST(BSONValidate, RefusesNestingPast200LevelsWithOverflow) {
    auto nested = [](int depth) {
        BSONObj o = BSON("x" << 1);
        for (int i = 1; i < depth; ++i)
            o = BSON("x" << o);
        return o;
    };
    BSONObj ok = nested(200), deep = nested(202);
    EXPECT_TRUE(validateBSON(ok.objdata(), ok.objsize()).isOK());
    EXPECT_EQ(validateBSON(deep.objdata(), deep.objsize()).code(), ErrorCodes::Overflow);
    EXPECT_EQ(bsonNestingDepth(nested(5), 100), 5);
    EXPECT_GT(bsonNestingDepth(nested(50), 10), 10);
    EXPECT_EQ(bsonNestingDepth(BSONObj(), 10), 1);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(Json, CompactFormMatchesUpstreamLogShape) {
    BSONObj o = BSON("a" << 1 << "s"
                         << "x\"y"
                         << "d" << Date_t::fromMillisSinceEpoch(0) << "l" << 5LL << "f" << 1.5
                         << "n" << BSONNULL << "arr" << BSON_ARRAY(1 << true));
    EXPECT_EQ(tojsonCompact(o),
              "{\"a\":1,\"s\":\"x\\\"y\",\"d\":{\"$date\":\"1970-01-01T00:00:00.000+00:00\"},"
              "\"l\":5,\"f\":1.5,\"n\":null,\"arr\":[1,true]}");
}

}  // namespace
}  // namespace mongo
