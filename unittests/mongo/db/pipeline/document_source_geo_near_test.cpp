// $geoNear option parsing, its in-memory distance ordering over an input, and the
// bucket-level geo predicate of time-series filters.
#include <gtest/gtest.h>

#include <cmath>

#include "mongo/db/pipeline/bucket_level_predicates.h"
#include "mongo/db/pipeline/document_source_geo_near.h"
#include "mongo/util/assert_util.h"
#include "relaxed_json.h"

namespace mongo {
namespace {

using test::relaxedJson;

int codeOf(StringData json) {
    try {
        GeoNearSpec::parse(relaxedJson(json).firstElement());
    } catch (const DBException& ex) {
        return ex.code();
    }
    return 0;
}

TEST(GeoNearSpec, ParsesGeoJSONAndLegacyNear) {
    auto s = GeoNearSpec::parse(
        relaxedJson("{$geoNear: {near: {type: 'Point', coordinates: [1, 2]}, distanceField: 'd', "
                    "maxDistance: 10, query: {a: 1}, includeLocs: 'l', key: 'loc'}}")
            .firstElement());
    EXPECT_TRUE(s.nearIsGeoJSON);
    EXPECT_EQ(s.nearLng, 1);
    EXPECT_EQ(s.nearLat, 2);
    EXPECT_EQ(*s.maxDistance, 10);
    EXPECT_EQ(s.key, "loc");
    auto l = GeoNearSpec::parse(
        relaxedJson("{$geoNear: {near: [3, 4], distanceField: 'd', spherical: true}}")
            .firstElement());
    EXPECT_FALSE(l.nearIsGeoJSON);
    EXPECT_EQ(l.radiusScale(), 1.0);
    // Round trip.
    auto again = GeoNearSpec::parse(BSON("$geoNear" << s.toBSON()).firstElement());
    EXPECT_EQ(again.toBSON().toString(), s.toBSON().toString());
}

TEST(GeoNearSpec, RejectsBadOptions) {
    EXPECT_EQ(codeOf("{$geoNear: {near: [0, 0]}}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(codeOf("{$geoNear: {distanceField: 'd'}}"), ErrorCodes::FailedToParse);
    EXPECT_EQ(codeOf("{$geoNear: {near: [0, 0], distanceField: 1}}"), ErrorCodes::TypeMismatch);
    EXPECT_EQ(codeOf("{$geoNear: {near: [0, 0], distanceField: 'd', maxDistance: -1}}"),
              ErrorCodes::BadValue);
    EXPECT_EQ(codeOf("{$geoNear: {near: [0, 0], distanceField: 'd', bogus: 1}}"), 40415);
    EXPECT_EQ(codeOf("{$geoNear: {near: [0, 500], distanceField: 'd'}}"), ErrorCodes::BadValue);
    EXPECT_EQ(codeOf("{$geoNear: {near: {type: 'LineString', coordinates: [[0, 0], [1, 1]]}, "
                     "distanceField: 'd'}}"),
              ErrorCodes::BadValue);
    EXPECT_EQ(codeOf("{$geoNear: 5}"), ErrorCodes::FailedToParse);
}

TEST(GeoNearStage, DistanceStageSortsItsInputByDistance) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    auto spec =
        GeoNearSpec::parse(relaxedJson("{$geoNear: {near: [0, 0], distanceField: 'd', key: 'loc', "
                                       "maxDistance: 0.05, spherical: true, query: {k: 1}}}")
                               .firstElement());
    DocumentSourceGeoNear stage(expCtx, spec,
                                std::string(DocumentSourceGeoNear::kDistanceStageName));
    DocumentSourceQueue input(
        expCtx, test::parseArray("[{_id: 1, k: 1, loc: [0, 2]}, {_id: 2, k: 1, loc: [0, 1]}, {_id: "
                                 "3, k: 2, loc: [0, 0]},"
                                 " {_id: 4, k: 1, loc: 'x'}, {_id: 5, k: 1, loc: [0, 10]},"
                                 " {_id: 6, k: 1, loc: {type: 'Point', coordinates: [0.5, 0]}}]"));
    stage.setSource(&input);
    std::vector<int> ids;
    while (auto d = stage.getNext())
        ids.push_back((*d)["_id"].numberInt());
    EXPECT_EQ(ids, (std::vector<int>{6, 2, 1}));
}

TEST(GeoNearStage, DistanceStageWithLegacyNearAndNoSphericalIsFlat) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    auto spec = GeoNearSpec::parse(
        relaxedJson("{$geoNear: {near: [0, 0], distanceField: 'd', key: 'loc', maxDistance: 1.5}}")
            .firstElement());
    DocumentSourceGeoNear stage(expCtx, spec,
                                std::string(DocumentSourceGeoNear::kDistanceStageName));
    DocumentSourceQueue input(
        expCtx,
        test::parseArray("[{_id: 1, loc: [0, 2]}, {_id: 2, loc: [1, 1]}, {_id: 3, loc: [0, 1]}]"));
    stage.setSource(&input);
    std::vector<std::pair<int, double>> out;
    while (auto d = stage.getNext())
        out.emplace_back((*d)["_id"].numberInt(), (*d)["d"].numberDouble());
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0], (std::pair<int, double>{3, 1.0}));
    EXPECT_EQ(out[1].first, 2);
    EXPECT_DOUBLE_EQ(out[1].second, std::sqrt(2.0));
}

TEST(BucketLevelGeo, GeoWithinOnAMeasurementMapsToInternalBucketGeoWithin) {
    BucketSpec spec;
    spec.timeField = "t";
    spec.metaField = "m";
    auto p = makeBucketLevelPredicates(
        relaxedJson("{loc: {$geoWithin: {$centerSphere: [[0, 0], 1]}}}"), spec, {});
    EXPECT_EQ(p.loose.toString(),
              relaxedJson("{$_internalBucketGeoWithin: {withinRegion: {$centerSphere: "
                          "[[0, 0], 1]}, field: 'loc'}}")
                  .toString());
    auto i = makeBucketLevelPredicates(
        relaxedJson("{loc: {$geoIntersects: {$geometry: {type: 'Point', coordinates: [1, 1]}}}}"),
        spec, {});
    EXPECT_NE(i.loose.toString().find("intersectsRegion"), std::string::npos);
    // On the meta field: the predicate itself, renamed.
    auto m = makeBucketLevelPredicates(
        relaxedJson("{'m.loc': {$geoWithin: {$centerSphere: [[0, 0], 1]}}}"), spec, {});
    EXPECT_NE(m.loose.toString().find("meta.loc"), std::string::npos);
}

}  // namespace
}  // namespace mongo
