#include <cmath>
// Keys of 2dsphere / 2dsphere_bucket index fields (S2 cell ids) and the 16755 error.
#include <gtest/gtest.h>

#include <regex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/catalog/index_descriptor.h"
#include "mongo/db/catalog/index_key_generator.h"

namespace mongo {
namespace {

BSONObj J(StringData relaxed) {
    std::string s(relaxed);
    std::replace(s.begin(), s.end(), '\'', '"');
    static const std::regex kBareKey(R"(([{,]\s*)([$A-Za-z_][$\w.]*)\s*:)");
    return fromjson(std::regex_replace(s, kBareKey, "$1\"$2\":"));
}

TEST(GeoIndexKeys, PointHasOneCellIdKey) {
    IndexKeys keys;
    ASSERT_TRUE(getIndexKeys(J("{loc: '2dsphere'}"),
                             J("{loc: {type: 'Point', coordinates: [1, 2]}}"), false, &keys)
                    .isOK());
    ASSERT_EQ(keys.keys.size(), 1u);
    EXPECT_EQ(keys.keys[0].firstElement().type(), BSONType::kNumberLong);
    IndexKeys legacy;
    ASSERT_TRUE(getIndexKeys(J("{loc: '2dsphere'}"), J("{loc: [1, 2]}"), false, &legacy).isOK());
    EXPECT_EQ(legacy.keys[0].toString(), keys.keys[0].toString());
}

TEST(GeoIndexKeys, MissingOrNullGeoFieldIsNotIndexed) {
    IndexKeys keys;
    ASSERT_TRUE(getIndexKeys(J("{loc: '2dsphere'}"), J("{a: 1}"), false, &keys).isOK());
    EXPECT_TRUE(keys.keys.empty());
    ASSERT_TRUE(
        getIndexKeys(J("{a: 1, loc: '2dsphere'}"), J("{a: 1, loc: null}"), false, &keys).isOK());
    EXPECT_TRUE(keys.keys.empty());
}

TEST(GeoIndexKeys, CompoundKeysCombineTheOtherFieldWithEachCell) {
    IndexKeys keys;
    ASSERT_TRUE(getIndexKeys(J("{a: 1, loc: '2dsphere'}"),
                             J("{a: 5, loc: {type: 'Polygon', coordinates: "
                               "[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}}"),
                             false, &keys)
                    .isOK());
    ASSERT_GE(keys.keys.size(), 1u);
    for (const auto& k : keys.keys)
        EXPECT_EQ(k.firstElement().numberInt(), 5);
}

TEST(GeoIndexKeys, InvalidGeometryFailsWith16755) {
    for (StringData doc : {"{loc: {type: 'Point', coordinates: [190, 0]}}",
                           "{loc: {type: 'Point', coordinates: ['a', 0]}}", "{loc: 'x'}",
                           "{loc: [500, 1]}", "{loc: {type: 'Polygon', coordinates: [[[0,0]]]}}"}) {
        IndexKeys keys;
        Status s = getIndexKeys(J("{loc: '2dsphere'}"), J(doc), false, &keys);
        EXPECT_EQ(s.code(), 16755) << doc;
        EXPECT_NE(s.reason().find("Can't extract geo keys"), std::string::npos);
    }
}

TEST(GeoIndexKeys, BucketIndexCoversEveryMeasurementAndSkipsEmptyOnes) {
    IndexKeys keys;
    ASSERT_TRUE(getIndexKeys(J("{'data.loc': '2dsphere_bucket'}"),
                             J("{data: {loc: {'0': [1, 1], '1': null, '2': {}, '3': [], "
                               "'4': {type: 'Point', coordinates: [50, 50]}}}}"),
                             false, &keys)
                    .isOK());
    EXPECT_EQ(keys.keys.size(), 2u);
}

TEST(GeoIndexKeys, BucketIndexRefusesWhatIsNotAPoint) {
    // Upstream's codes: 183934 for a value that is no geometry, 183493 for another geometry.
    for (const char* value :
         {"'x'", "5", "{type: 'Polygon', coordinates: [[0, 0], [1, 0]]}", "[200, 0]"}) {
        IndexKeys keys;
        Status s = getIndexKeys(J("{'data.loc': '2dsphere_bucket'}"),
                                J(std::string("{data: {loc: {'0': [1, 1], '1': ") + value + "}}}"),
                                false, &keys);
        EXPECT_EQ(s.code(), 183934) << value;
    }
    IndexKeys keys;
    Status s = getIndexKeys(J("{'data.loc': '2dsphere_bucket'}"),
                            J("{data: {loc: {'0': {type: 'LineString', coordinates: [[0, 0], "
                              "[1, 1]]}}}}"),
                            false, &keys);
    EXPECT_EQ(s.code(), 183493);
}

TEST(GeoIndexSpec, TwoDSphereIsAcceptedWithIndexVersion3) {
    auto sw = validateIndexSpec(J("{key: {loc: '2dsphere'}, name: 'loc_2dsphere'}"));
    ASSERT_TRUE(sw.isOK()) << sw.getStatus();
    EXPECT_EQ(sw.getValue()["2dsphereIndexVersion"].numberInt(), 3);
    EXPECT_TRUE(IndexDescriptor::fromSpec(sw.getValue()).isGeoIndex());
    EXPECT_EQ(validateIndexSpec(J("{key: {loc: 'foo'}, name: 'x'}")).getStatus().code(),
              ErrorCodes::CannotCreateIndex);
}

TEST(GeoIndexSpec, TwoDRules) {
    ASSERT_TRUE(validateIndexSpec(J("{key: {loc: '2d', a: 1}, name: 'x'}")).isOK());
    EXPECT_TRUE(IndexDescriptor::fromSpec(J("{key: {loc: '2d'}, name: 'x'}")).isGeoIndex());
    EXPECT_EQ(validateIndexSpec(J("{key: {a: 1, loc: '2d'}, name: 'x'}")).getStatus().code(),
              16801);
    EXPECT_EQ(
        validateIndexSpec(J("{key: {loc: '2d', b: '2dsphere'}, name: 'x'}")).getStatus().code(),
        16800);
    EXPECT_EQ(validateIndexSpec(J("{key: {loc: '2d'}, name: 'x', bits: 33}")).getStatus().code(),
              16803);
    EXPECT_EQ(
        validateIndexSpec(J("{key: {loc: '2d'}, name: 'x', min: 5, max: 5}")).getStatus().code(),
        ErrorCodes::BadValue);
    auto d =
        IndexDescriptor::fromSpec(J("{key: {loc: '2d'}, name: 'x', bits: 10, min: 0, max: 100}"));
    EXPECT_EQ(d.twoD.bits, 10);
    EXPECT_EQ(d.twoD.max, 100);
}

TEST(TwoDGrid, CellsKeepOrderAlongTheCurveAndRangeIsChecked) {
    TwoDGrid g;
    auto a = g.cellOf(-180, -180), b = g.cellOf(0, 0), c = g.cellOf(179.9, 179.9);
    ASSERT_TRUE(a.isOK() && b.isOK() && c.isOK());
    EXPECT_LT(a.getValue(), b.getValue());
    EXPECT_LT(b.getValue(), c.getValue());
    // Points in one cell share a key (26 bits: ~5e-6 degrees per cell).
    EXPECT_EQ(g.cellOf(1, 1).getValue(), g.cellOf(1 + 1e-7, 1).getValue());
    EXPECT_NE(g.cellOf(1, 1).getValue(), g.cellOf(1.001, 1).getValue());
    EXPECT_EQ(g.cellOf(180, 0).getStatus().code(), 13027);
    EXPECT_EQ(g.cellOf(0, -180.1).getStatus().code(), 13027);
    EXPECT_EQ(g.cellOf(std::nan(""), 0).getStatus().code(), 13027);
}

TEST(GeoIndexKeys, TwoDKeysOfLegacyPoints) {
    IndexKeys keys;
    ASSERT_TRUE(getIndexKeys(J("{loc: '2d'}"), J("{loc: [1, 2]}"), false, &keys).isOK());
    EXPECT_EQ(keys.keys.size(), 1u);
    keys = {};
    ASSERT_TRUE(getIndexKeys(J("{loc: '2d'}"), J("{loc: {x: 1, y: 2}}"), false, &keys).isOK());
    EXPECT_EQ(keys.keys.size(), 1u);
    keys = {};
    ASSERT_TRUE(getIndexKeys(J("{loc: '2d'}"), J("{loc: [[1, 2], [3, 4]]}"), false, &keys).isOK());
    EXPECT_EQ(keys.keys.size(), 2u);
    EXPECT_TRUE(keys.multikey);
    for (const char* none : {"{}", "{loc: null}", "{loc: 'x'}"}) {
        keys = {};
        ASSERT_TRUE(getIndexKeys(J("{loc: '2d'}"), J(none), false, &keys).isOK()) << none;
        EXPECT_TRUE(keys.keys.empty()) << none;
    }
    EXPECT_EQ(getIndexKeys(J("{loc: '2d'}"), J("{loc: [200, 0]}"), false, &keys).code(), 13027);
    EXPECT_EQ(getIndexKeys(J("{loc: '2d'}"), J("{loc: ['a', 0]}"), false, &keys).code(), 13026);
    EXPECT_EQ(getIndexKeys(J("{loc: '2d'}"), J("{loc: [1]}"), false, &keys).code(), 13068);
    EXPECT_EQ(getIndexKeys(J("{loc: '2d'}"), J("{loc: [[1, 2], 3]}"), false, &keys).code(), 16804);
    TwoDGrid wide;
    wide.min = -500;
    wide.max = 500;
    EXPECT_TRUE(
        getIndexKeys(J("{loc: '2d'}"), J("{loc: [400, 0]}"), false, &keys, nullptr, wide).isOK());
}

}  // namespace
}  // namespace mongo
