// $geoWithin / $geoIntersects match expressions and $_internalBucketGeoWithin.
#include <gtest/gtest.h>

#include <regex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_geo.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {
namespace {

BSONObj J(StringData relaxed) {
    std::string s(relaxed);
    std::replace(s.begin(), s.end(), '\'', '"');
    static const std::regex kBareKey(R"(([{,]\s*)([$A-Za-z_][$\w]*)\s*:)");
    return fromjson(std::regex_replace(s, kBareKey, "$1\"$2\":"));
}

bool matches(StringData filter, StringData doc) {
    auto sw = parseMatchExpression(J(filter));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus() << " for " << filter;
    return sw.isOK() && sw.getValue()->matchesBSON(J(doc));
}

constexpr StringData kSquare =
    "{type: 'Polygon', coordinates: [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}";

std::string within(StringData geometry) {
    return "{loc: {$geoWithin: {$geometry: " + std::string(geometry) + "}}}";
}

TEST(GeoMatchExpression, GeoWithinPolygonMatchesGeoJSONAndLegacyPoints) {
    EXPECT_TRUE(matches(within(kSquare), "{loc: {type: 'Point', coordinates: [5, 5]}}"));
    EXPECT_TRUE(matches(within(kSquare), "{loc: [5, 5]}"));
    EXPECT_TRUE(matches(within(kSquare), "{loc: {x: 5, y: 5}}"));
    EXPECT_FALSE(matches(within(kSquare), "{loc: [50, 5]}"));
    EXPECT_FALSE(matches(within(kSquare), "{loc: 'somewhere'}"));
    EXPECT_FALSE(matches(within(kSquare), "{other: 1}"));
    EXPECT_FALSE(matches(within(kSquare), "{loc: {type: 'Point', coordinates: [500, 5]}}"));
}

TEST(GeoMatchExpression, ArraysOfPointsMatchWhenAnyElementMatches) {
    EXPECT_TRUE(matches(within(kSquare), "{loc: [[50, 50], [5, 5]]}"));
    EXPECT_FALSE(matches(within(kSquare), "{loc: [[50, 50], [60, 60]]}"));
    EXPECT_TRUE(matches(within(kSquare),
                        "{loc: [{type: 'Point', coordinates: [50, 5]}, "
                        "{type: 'Point', coordinates: [5, 5]}]}"));
    EXPECT_TRUE(matches("{'a.loc': " + within(kSquare).substr(6), "{a: [{loc: [5, 5]}]}"));
}

TEST(GeoMatchExpression, GeoIntersectsAnyGeometryType) {
    std::string q = "{loc: {$geoIntersects: {$geometry: " + std::string(kSquare) + "}}}";
    EXPECT_TRUE(matches(q, "{loc: {type: 'LineString', coordinates: [[5, 5], [50, 50]]}}"));
    EXPECT_FALSE(matches(q, "{loc: {type: 'LineString', coordinates: [[20, 20], [50, 50]]}}"));
    EXPECT_TRUE(matches(q,
                        "{loc: {type: 'Polygon', coordinates: "
                        "[[[9,9],[20,9],[20,20],[9,20],[9,9]]]}}"));
    std::string pt = "{loc: {$geoIntersects: {$geometry: {type: 'Point', coordinates: [5, 5]}}}}";
    EXPECT_TRUE(matches(pt, "{loc: " + std::string(kSquare) + "}"));
    EXPECT_TRUE(matches(pt, "{loc: [5, 5]}"));
    EXPECT_FALSE(matches(pt, "{loc: [6, 5]}"));
}

TEST(GeoMatchExpression, LegacyShapes) {
    EXPECT_TRUE(matches("{loc: {$geoWithin: {$box: [[0, 0], [3, 3]]}}}", "{loc: [1, 2]}"));
    EXPECT_TRUE(matches("{loc: {$within: {$center: [[0, 0], 3]}}}", "{loc: [1, 2]}"));
    EXPECT_TRUE(
        matches("{loc: {$geoWithin: {$polygon: [[0, 0], [3, 0], [0, 3]]}}}", "{loc: [1, 1]}"));
    EXPECT_TRUE(matches("{loc: {$geoWithin: {$centerSphere: [[0, 0], 0.1]}}}",
                        "{loc: {type: 'Point', coordinates: [1, 1]}}"));
}

TEST(GeoMatchExpression, ParseErrorsAreBadValue) {
    EXPECT_EQ(parseMatchExpression(J("{loc: {$geoWithin: 5}}")).getStatus().code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseMatchExpression(J("{loc: {$geoWithin: {$geometry: {type: 'Point', "
                                     "coordinates: [1, 1]}}}}"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseMatchExpression(J("{loc: {$geoIntersects: {$geometry: {type: 'Polygon', "
                                     "coordinates: [[[0,0],[1,1],[0,0],[0,0]]]}}}}"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(parseMatchExpression(J("{loc: {$near: [0, 0]}}")).getStatus().code(),
              ErrorCodes::NoQueryExecutionPlans);
}

TEST(GeoMatchExpression, SerializesToTheSameFilter) {
    BSONObj q = J(within(kSquare));
    auto sw = parseMatchExpression(q);
    ASSERT_TRUE(sw.isOK());
    auto again = parseMatchExpression(sw.getValue()->serialize());
    ASSERT_TRUE(again.isOK());
    const MatchExpression* leaf = sw.getValue().get();
    while (leaf->numChildren() == 1)
        leaf = leaf->getChild(0);
    EXPECT_EQ(leaf->serialize().toString(), J(within(kSquare)).toString());
    EXPECT_TRUE(again.getValue()->matchesBSON(J("{loc: [1, 1]}")));
}

TEST(InternalBucketGeoWithin, KeepsBucketsWithAPointInsideTheRegion) {
    std::string f =
        "{$_internalBucketGeoWithin: {withinRegion: {$geometry: " + std::string(kSquare) +
        "}, field: 'loc'}}";
    auto sw = parseMatchExpression(J(f));
    ASSERT_TRUE(sw.isOK()) << sw.getStatus();
    EXPECT_TRUE(sw.getValue()->matchesBSON(
        J("{control: {version: 1}, data: {loc: {'0': [50, 50], '1': [5, 5]}}}")));
    EXPECT_FALSE(sw.getValue()->matchesBSON(
        J("{control: {version: 1}, data: {loc: {'0': [50, 50], '1': [60, 60]}}}")));
    EXPECT_FALSE(sw.getValue()->matchesBSON(J("{control: {version: 1}, data: {x: {'0': 1}}}")));
    auto round = parseMatchExpression(sw.getValue()->serialize());
    ASSERT_TRUE(round.isOK());
    EXPECT_TRUE(round.getValue()->matchesBSON(
        J("{control: {version: 1}, data: {loc: {'0': [50, 50], '1': [5, 5]}}}")));
    EXPECT_NE(round.getValue()->serialize().toString().find("withinRegion"), std::string::npos);
    EXPECT_EQ(
        parseMatchExpression(J("{$_internalBucketGeoWithin: {field: 'loc'}}")).getStatus().code(),
        ErrorCodes::FailedToParse);
}

}  // namespace
}  // namespace mongo
