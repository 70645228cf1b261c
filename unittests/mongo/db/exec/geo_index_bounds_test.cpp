#include "mongo/db/exec/geo_index_bounds.h"

#include <random>
#include <regex>

#include <gtest/gtest.h>
#include <s2/s2cell_id.h>

#include "mongo/bson/json.h"
#include "mongo/db/geo/geo_query.h"
#include "mongo/db/geo/geometry_container.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {
namespace {

using geo_index_bounds::CellInterval;

/** fromjson() of relaxed JSON (single quotes, bare keys) as the tests write it. */
BSONObj fromjson(StringData relaxed) {
    std::string s(relaxed);
    std::replace(s.begin(), s.end(), '\'', '"');
    static const std::regex kBareKey(R"(([{,]\s*)([$A-Za-z_][$\w]*)\s*:)");
    return mongo::fromjson(std::regex_replace(s, kBareKey, "$1\"$2\":"));
}

/** Intervals are ascending, disjoint and not adjacent (merged). */
void expectNormalized(const std::vector<CellInterval>& ivs) {
    for (size_t i = 0; i < ivs.size(); ++i) {
        EXPECT_LE(ivs[i].low, ivs[i].high);
        if (i > 0) {
            EXPECT_LT(ivs[i - 1].high, ivs[i].low - 1);
        }
    }
}

bool same(const std::vector<CellInterval>& a, const std::vector<CellInterval>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        return x.low == y.low && x.high == y.high;
    });
}

bool covered(const std::vector<CellInterval>& ivs, long long key) {
    for (const auto& iv : ivs)
        if (key >= iv.low && key <= iv.high)
            return true;
    return false;
}

std::shared_ptr<const GeoQueryRegion> region(GeoQueryRegion::Op op, const char* json) {
    auto sw = GeoQueryRegion::parse(op, fromjson(json));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus().reason();
    return sw.getValue();
}

std::vector<long long> keysOf(const char* json) {
    BSONObj o = fromjson(json);
    auto sw = GeometryContainer::parseStored(o.firstElement());
    EXPECT_TRUE(sw.isOK());
    return sw.getValue().coveringCellIds();
}

bool anyKeyCovered(const std::vector<CellInterval>& ivs, const std::vector<long long>& keys) {
    for (long long k : keys)
        if (covered(ivs, k))
            return true;
    return false;
}

TEST(GeoIndexBounds, FaceCellIsOneRangeWithoutAncestors) {
    S2CellId face = S2CellId::FromFace(1);
    auto ivs = geo_index_bounds::intervalsForCovering({face});
    ASSERT_EQ(ivs.size(), 1u);
    EXPECT_EQ(ivs[0].low, static_cast<long long>(face.range_min().id()));
    EXPECT_EQ(ivs[0].high, static_cast<long long>(face.range_max().id()));
}

TEST(GeoIndexBounds, CellGetsItsAncestorsAsPoints) {
    S2CellId c = S2CellId::FromFace(2).child(3).child(1);  // level 2
    auto ivs = geo_index_bounds::intervalsForCovering({c});
    expectNormalized(ivs);
    EXPECT_TRUE(covered(ivs, static_cast<long long>(c.parent(0).id())));
    EXPECT_TRUE(covered(ivs, static_cast<long long>(c.parent(1).id())));
    EXPECT_TRUE(covered(ivs, static_cast<long long>(c.id())));
    EXPECT_TRUE(covered(ivs, static_cast<long long>(c.child(0).child(2).id())));
    EXPECT_FALSE(covered(ivs, static_cast<long long>(c.parent(1).child(0).id())));
}

TEST(GeoIndexBounds, OverlappingCellsMergeAndStaySorted) {
    S2CellId parent = S2CellId::FromFace(0).child(1);
    auto ivs = geo_index_bounds::intervalsForCovering({parent.child(2), parent, parent.child(0)});
    expectNormalized(ivs);
    EXPECT_TRUE(same(ivs, geo_index_bounds::intervalsForCovering({parent})));
}

TEST(GeoIndexBounds, FacesFourAndFiveSortFirstAsSignedKeys) {
    auto ivs =
        geo_index_bounds::intervalsForCovering({S2CellId::FromFace(0), S2CellId::FromFace(5)});
    ASSERT_EQ(ivs.size(), 2u);
    EXPECT_LT(ivs[0].high, 0);
    EXPECT_GT(ivs[1].low, 0);
}

TEST(GeoIndexBounds, PolygonBoundsHoldKeysOfPointsAndShapesInside) {
    auto r = region(
        GeoQueryRegion::Op::kWithin,
        "{$geometry: {type: 'Polygon', coordinates: [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}}");
    auto ivs = geo_index_bounds::intervalsForRegion(*r);
    ASSERT_TRUE(ivs);
    EXPECT_TRUE(anyKeyCovered(*ivs, keysOf("{p: [5, 5]}")));
    EXPECT_TRUE(anyKeyCovered(*ivs, keysOf("{p: [0, 0]}")));   // a vertex
    EXPECT_TRUE(anyKeyCovered(*ivs, keysOf("{p: [10, 5]}")));  // an edge
    EXPECT_TRUE(
        anyKeyCovered(*ivs, keysOf("{p: {type: 'LineString', coordinates: [[-20, 5], [20, 5]]}}")));
    EXPECT_FALSE(anyKeyCovered(*ivs, keysOf("{p: [100, -40]}")));
}

TEST(GeoIndexBounds, RandomPointsInsideAPolygonAreAlwaysCovered) {
    auto r =
        region(GeoQueryRegion::Op::kWithin,
               "{$geometry: {type: 'Polygon', coordinates: [[[-3,-2],[4,-1],[2,6],[-3,-2]]]}}");
    auto ivs = *geo_index_bounds::intervalsForRegion(*r);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> lng(-4, 5), lat(-3, 7);
    int inside = 0;
    for (int i = 0; i < 3000; ++i) {
        BSONObj doc = BSON("p" << BSON_ARRAY(lng(rng) << lat(rng)));
        if (!r->matchesElement(doc.firstElement()))
            continue;
        ++inside;
        auto sw = GeometryContainer::parseStored(doc.firstElement());
        ASSERT_TRUE(anyKeyCovered(ivs, sw.getValue().coveringCellIds())) << doc.toString();
    }
    EXPECT_GT(inside, 100);
}

TEST(GeoIndexBounds, CenterSphereCoversPointsAtTheRadius) {
    // 0.01 radians east of (0, 0) along the equator: exactly on the circle.
    auto r = region(GeoQueryRegion::Op::kWithin, "{$centerSphere: [[0, 0], 0.01]}");
    auto ivs = geo_index_bounds::intervalsForRegion(*r);
    ASSERT_TRUE(ivs);
    double edge = 0.01 * 180 / M_PI;
    EXPECT_TRUE(anyKeyCovered(*ivs, keysOf(("{p: [" + std::to_string(edge) + ", 0]}").c_str())));
    EXPECT_FALSE(anyKeyCovered(*ivs, keysOf("{p: [5, 0]}")));
}

TEST(GeoIndexBounds, FlatShapesGetNoBounds) {
    auto r = region(GeoQueryRegion::Op::kWithin, "{$box: [[0, 0], [1, 1]]}");
    EXPECT_FALSE(geo_index_bounds::intervalsForRegion(*r));
}

TEST(GeoIndexBounds, FindsGeoPredicatesAtTopLevelAndInAnd) {
    auto m = parseMatchExpression(
        fromjson("{$and: [{a: 1}, {loc: {$geoWithin: {$centerSphere: [[0, 0], 0.1]}}}],"
                 " $or: [{x: {$geoIntersects: {$geometry: {type: 'Point', coordinates: [1, 1]}}}}, "
                 "{y: 1}]}"));
    ASSERT_TRUE(m.isOK());
    auto preds = geo_index_bounds::findGeoPredicates(m.getValue().get());
    ASSERT_EQ(preds.size(), 1u);
    EXPECT_EQ(preds[0].keyField, "loc");
    EXPECT_FALSE(preds[0].bucket);
}

TEST(GeoIndexBounds, BucketPredicateBoundsTheDataColumnField) {
    auto m =
        parseMatchExpression(fromjson("{$_internalBucketGeoWithin: {withinRegion: {$centerSphere: "
                                      "[[0, 0], 0.1]}, field: 'loc'}}"));
    ASSERT_TRUE(m.isOK()) << m.getStatus().reason();
    auto preds = geo_index_bounds::findGeoPredicates(m.getValue().get());
    ASSERT_EQ(preds.size(), 1u);
    EXPECT_EQ(preds[0].keyField, "data.loc");
    EXPECT_TRUE(preds[0].bucket);
}

TEST(GeoIndexBounds, ExplainStringIsAClosedNumberRange) {
    EXPECT_EQ(geo_index_bounds::toString({-5, 12}), "[-5, 12]");
}

}  // namespace
}  // namespace mongo
