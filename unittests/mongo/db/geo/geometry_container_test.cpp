// GeometryContainer parsing (GeoJSON and legacy points), validation errors instead of S2
// aborts on bad input, and the within/intersects/distance/covering predicates.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <regex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/geo/geo_query.h"
#include "mongo/db/geo/geometry_container.h"

namespace mongo {
namespace {

/** fromjson() of relaxed JSON (single quotes, bare keys) as the tests write it. */
BSONObj fromjson(StringData relaxed) {
    std::string s(relaxed);
    std::replace(s.begin(), s.end(), '\'', '"');
    static const std::regex kBareKey(R"(([{,]\s*)([$A-Za-z_][$\w]*)\s*:)");
    return mongo::fromjson(std::regex_replace(s, kBareKey, "$1\"$2\":"));
}

StatusWith<GeometryContainer> parseJSON(StringData json) {
    return GeometryContainer::parseGeoJSON(fromjson(json));
}

Status statusOf(StringData json) {
    return parseJSON(json).getStatus();
}

TEST(GeometryParser, ParsesEveryGeoJSONType) {
    EXPECT_TRUE(statusOf("{type: 'Point', coordinates: [1, 2]}").isOK());
    EXPECT_TRUE(statusOf("{type: 'Point', coordinates: [1, 2, 3]}").isOK());
    EXPECT_TRUE(statusOf("{type: 'LineString', coordinates: [[0, 0], [1, 1]]}").isOK());
    EXPECT_TRUE(statusOf("{type: 'Polygon', coordinates: [[[0,0],[3,0],[3,3],[0,3],[0,0]],"
                         "[[1,1],[2,1],[2,2],[1,2],[1,1]]]}")
                    .isOK());
    EXPECT_TRUE(statusOf("{type: 'MultiPoint', coordinates: [[0, 0], [1, 1]]}").isOK());
    EXPECT_TRUE(
        statusOf("{type: 'MultiLineString', coordinates: [[[0, 0], [1, 1]], [[2,2],[3,3]]]}")
            .isOK());
    EXPECT_TRUE(statusOf("{type: 'MultiPolygon', coordinates: [[[[0,0],[1,0],[1,1],[0,0]]],"
                         "[[[5,5],[6,5],[6,6],[5,5]]]]}")
                    .isOK());
    EXPECT_TRUE(statusOf("{type: 'GeometryCollection', geometries: ["
                         "{type: 'Point', coordinates: [1, 2]},"
                         "{type: 'LineString', coordinates: [[0, 0], [1, 1]]}]}")
                    .isOK());
}

TEST(GeometryParser, RejectsBadPointsWithBadValue) {
    EXPECT_EQ(statusOf("{type: 'Point', coordinates: ['a', 2]}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Point', coordinates: [190, 0]}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Point', coordinates: [0, 91]}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Point', coordinates: [1]}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Point', coordinates: []}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Point', coordinates: 5}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Point'}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Pointy', coordinates: [1, 2]}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{coordinates: [1, 2]}").code(), ErrorCodes::BadValue);
    EXPECT_NE(statusOf("{type: 'Point', coordinates: ['a', 2]}")
                  .reason()
                  .find("Point must only contain numeric elements"),
              std::string::npos);
    EXPECT_NE(statusOf("{type: 'Point', coordinates: [190, 0]}").reason().find("out of bounds"),
              std::string::npos);
}

TEST(GeometryParser, RejectsBadPolygonsWithoutAborting) {
    // Not closed.
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: [[[0,0],[1,0],[1,1],[0,1]]]}").code(),
              ErrorCodes::BadValue);
    // Too few distinct vertices.
    auto s = statusOf("{type: 'Polygon', coordinates: [[[0,0],[1,0],[1,0],[0,0]]]}");
    EXPECT_EQ(s.code(), ErrorCodes::BadValue);
    EXPECT_NE(s.reason().find("Loop must have at least 3 different vertices"), std::string::npos);
    // Self-intersecting bow tie.
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: [[[0,0],[2,2],[2,0],[0,2],[0,0]]]}").code(),
              ErrorCodes::BadValue);
    // Hole outside the shell.
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: [[[0,0],[1,0],[1,1],[0,1],[0,0]],"
                       "[[5,5],[6,5],[6,6],[5,6],[5,5]]]}")
                  .code(),
              ErrorCodes::BadValue);
    // Antipodal / degenerate edges.
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: [[[0,0],[180,0],[0,0],[0,0]]]}").code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: []}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: [[]]}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'LineString', coordinates: [[0, 0]]}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'LineString', coordinates: [[0, 0], [0, 0]]}").code(),
              ErrorCodes::BadValue);
    (void)statusOf("{type: 'LineString', coordinates: [[0, 0], [180, 0]]}");  // no abort
    EXPECT_EQ(statusOf("{type: 'MultiPolygon', coordinates: []}").code(), ErrorCodes::BadValue);
    EXPECT_EQ(statusOf("{type: 'GeometryCollection', geometries: [5]}").code(),
              ErrorCodes::BadValue);
}

TEST(GeometryParser, DegenerateHolesAreRejectedOrAcceptedWithoutAborting) {
    // A hole equal to the shell, a hole sharing an edge, a hole sharing a vertex, nested holes.
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: [[[0,0],[3,0],[3,3],[0,3],[0,0]],"
                       "[[0,0],[3,0],[3,3],[0,3],[0,0]]]}")
                  .code(),
              ErrorCodes::BadValue);
    (void)statusOf(
        "{type: 'Polygon', coordinates: [[[0,0],[3,0],[3,3],[0,3],[0,0]],"
        "[[0,0],[1,0],[1,1],[0,1],[0,0]]]}");
    (void)statusOf(
        "{type: 'Polygon', coordinates: [[[0,0],[3,0],[3,3],[0,3],[0,0]],"
        "[[0,0],[1,1],[1,2],[0,0]]]}");
    EXPECT_EQ(statusOf("{type: 'Polygon', coordinates: [[[0,0],[9,0],[9,9],[0,9],[0,0]],"
                       "[[1,1],[8,1],[8,8],[1,8],[1,1]],[[2,2],[3,2],[3,3],[2,3],[2,2]]]}")
                  .code(),
              ErrorCodes::BadValue);
    // Antipodal and pole-crossing shapes.
    (void)statusOf("{type: 'Polygon', coordinates: [[[-180,-90],[180,90],[0,0],[-180,-90]]]}");
    (void)statusOf("{type: 'Polygon', coordinates: [[[0,90],[90,90],[180,90],[0,90]]]}");
    (void)statusOf("{type: 'LineString', coordinates: [[0,90],[180,-90]]}");
    auto overlapping = parseJSON(
        "{type: 'MultiPolygon', coordinates: [[[[0,0],[1,0],[1,1],"
        "[0,0]]], [[[0,0],[1,0],[1,1],[0,0]]]]}");
    ASSERT_TRUE(overlapping.isOK());
    auto line = parseJSON("{type: 'LineString', coordinates: [[0.5, 0.1], [5, 5]]}");
    EXPECT_TRUE(overlapping.getValue().intersects(line.getValue()));
    EXPECT_FALSE(overlapping.getValue().contains(line.getValue()));
    EXPECT_TRUE(line.getValue().intersects(overlapping.getValue()));
    (void)overlapping.getValue().coveringCellIds();
}

TEST(GeometryParser, RandomGarbageNeverAborts) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> coord(-200, 200);
    std::uniform_int_distribution<int> count(0, 7);
    for (int iter = 0; iter < 2000; ++iter) {
        BSONObjBuilder b;
        b.append("type", iter % 3 == 0 ? "Polygon" : iter % 3 == 1 ? "LineString" : "MultiPoint");
        BSONArrayBuilder ring;
        int n = count(rng);
        double first[2] = {coord(rng) / 2, coord(rng) / 3};
        for (int i = 0; i < n; ++i) {
            double pt[2] = {coord(rng) / 2, coord(rng) / 3};
            if (i == 0 || (i == n - 1 && iter % 2))
                pt[0] = first[0], pt[1] = first[1];
            if (iter % 5 == 0)
                pt[0] = std::nan("");
            ring.append(BSON_ARRAY(pt[0] << pt[1]));
        }
        if (iter % 3 == 0)
            b.append("coordinates", BSON_ARRAY(ring.arr()));
        else
            b.append("coordinates", ring.arr());
        auto sw = GeometryContainer::parseGeoJSON(b.obj());
        if (sw.isOK())
            (void)sw.getValue().coveringCellIds();
    }
}

TEST(GeometryParser, LegacyPointsParseFromArraysAndObjects) {
    auto a = GeometryContainer::parseStored(fromjson("{a: [1, 2]}").firstElement());
    ASSERT_TRUE(a.isOK());
    EXPECT_TRUE(a.getValue().isLegacyPoint());
    EXPECT_EQ(a.getValue().x(), 1);
    EXPECT_EQ(a.getValue().y(), 2);
    auto o = GeometryContainer::parseStored(fromjson("{a: {lng: 3, lat: 4}}").firstElement());
    ASSERT_TRUE(o.isOK());
    EXPECT_EQ(o.getValue().x(), 3);
    // Out of the sphere's range: still a flat point.
    auto far = GeometryContainer::parseStored(fromjson("{a: [500, 500]}").firstElement());
    ASSERT_TRUE(far.isOK());
    EXPECT_FALSE(far.getValue().isSphereValid());
    EXPECT_EQ(GeometryContainer::parseLegacyPoint(fromjson("{a: [500, 0]}").firstElement(),
                                                  GeometryContainer::PointCRS::kSphere)
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
    EXPECT_FALSE(GeometryContainer::parseStored(fromjson("{a: ['x', 2]}").firstElement()).isOK());
    EXPECT_FALSE(GeometryContainer::parseStored(fromjson("{a: 5}").firstElement()).isOK());
}

TEST(GeometryPredicates, PolygonContainsPointsAndShapes) {
    auto poly = parseJSON("{type: 'Polygon', coordinates: [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}");
    ASSERT_TRUE(poly.isOK());
    EXPECT_TRUE(poly.getValue().contains(parseJSON("{type:'Point',coordinates:[5,5]}").getValue()));
    EXPECT_FALSE(
        poly.getValue().contains(parseJSON("{type:'Point',coordinates:[15,5]}").getValue()));
    EXPECT_TRUE(poly.getValue().contains(
        parseJSON("{type:'LineString',coordinates:[[1,1],[2,2]]}").getValue()));
    EXPECT_FALSE(poly.getValue().contains(
        parseJSON("{type:'LineString',coordinates:[[1,1],[20,2]]}").getValue()));
    EXPECT_TRUE(poly.getValue().intersects(
        parseJSON("{type:'LineString',coordinates:[[1,1],[20,2]]}").getValue()));
    EXPECT_FALSE(poly.getValue().intersects(
        parseJSON("{type:'LineString',coordinates:[[30,1],[40,2]]}").getValue()));
}

TEST(GeometryPredicates, DistanceToPointIsTheGreatCircleAngle) {
    auto p = parseJSON("{type:'Point',coordinates:[0,0]}");
    ASSERT_TRUE(p.isOK());
    double d = p.getValue().minDistanceRadians(pointFromLngLat(0, 1));
    EXPECT_NEAR(d, M_PI / 180, 1e-12);
    auto poly = parseJSON("{type: 'Polygon', coordinates: [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}");
    EXPECT_NEAR(poly.getValue().minDistanceRadians(pointFromLngLat(5, 5)), 0, 1e-12);
}

TEST(GeometryPredicates, CoveringOfAPointIsOneCell) {
    auto p = parseJSON("{type:'Point',coordinates:[1,2]}");
    EXPECT_EQ(p.getValue().coveringCellIds().size(), 1u);
    auto poly = parseJSON("{type: 'Polygon', coordinates: [[[0,0],[10,0],[10,10],[0,10],[0,0]]]}");
    EXPECT_GE(poly.getValue().coveringCellIds().size(), 1u);
}

TEST(GeoQueryRegion, FlatShapesMatchPointsByTheirCoordinates) {
    auto box =
        GeoQueryRegion::parse(GeoQueryRegion::Op::kWithin, fromjson("{$box: [[0, 0], [10, 10]]}"));
    ASSERT_TRUE(box.isOK());
    EXPECT_TRUE(box.getValue()->matchesElement(fromjson("{a: [5, 5]}").firstElement()));
    EXPECT_TRUE(box.getValue()->matchesElement(fromjson("{a: [10, 10]}").firstElement()));
    EXPECT_FALSE(box.getValue()->matchesElement(fromjson("{a: [11, 5]}").firstElement()));
    // A GeoJSON point by its coordinates (upstream's); other GeoJSON geometries never.
    EXPECT_TRUE(box.getValue()->matchesElement(
        fromjson("{a: {type: 'Point', coordinates: [5, 5]}}").firstElement()));
    EXPECT_FALSE(box.getValue()->matchesElement(
        fromjson("{a: {type: 'Point', coordinates: [15, 5]}}").firstElement()));
    EXPECT_FALSE(box.getValue()->matchesElement(
        fromjson("{a: {type: 'LineString', coordinates: [[1, 1], [2, 2]]}}").firstElement()));
    auto center =
        GeoQueryRegion::parse(GeoQueryRegion::Op::kWithin, fromjson("{$center: [[0, 0], 5]}"));
    ASSERT_TRUE(center.isOK());
    EXPECT_TRUE(center.getValue()->matchesElement(fromjson("{a: [3, 4]}").firstElement()));
    EXPECT_FALSE(center.getValue()->matchesElement(fromjson("{a: [4, 4]}").firstElement()));
    auto poly = GeoQueryRegion::parse(GeoQueryRegion::Op::kWithin,
                                      fromjson("{$polygon: [[0, 0], [10, 0], [0, 10]]}"));
    ASSERT_TRUE(poly.isOK());
    EXPECT_TRUE(poly.getValue()->matchesElement(fromjson("{a: [1, 1]}").firstElement()));
    EXPECT_TRUE(poly.getValue()->matchesElement(fromjson("{a: [5, 5]}").firstElement()));
    EXPECT_FALSE(poly.getValue()->matchesElement(fromjson("{a: [6, 6]}").firstElement()));
}

TEST(GeoQueryRegion, CenterSphereMatchesLegacyAndGeoJSON) {
    auto cap = GeoQueryRegion::parse(GeoQueryRegion::Op::kWithin,
                                     fromjson("{$centerSphere: [[0, 0], 0.1]}"));
    ASSERT_TRUE(cap.isOK());
    EXPECT_TRUE(cap.getValue()->matchesElement(fromjson("{a: [1, 1]}").firstElement()));
    EXPECT_TRUE(cap.getValue()->matchesElement(
        fromjson("{a: {type: 'Point', coordinates: [1, 1]}}").firstElement()));
    EXPECT_FALSE(cap.getValue()->matchesElement(fromjson("{a: [10, 10]}").firstElement()));
}

TEST(GeoQueryRegion, BadOperandsAreBadValue) {
    using Op = GeoQueryRegion::Op;
    EXPECT_EQ(GeoQueryRegion::parse(Op::kWithin, fromjson("{$geometry: {type: 'Point', "
                                                          "coordinates: [1, 2]}}"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(GeoQueryRegion::parse(Op::kWithin, fromjson("{$foo: 1}")).getStatus().code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(
        GeoQueryRegion::parse(Op::kWithin, fromjson("{$center: [[0, 0], -1]}")).getStatus().code(),
        ErrorCodes::BadValue);
    EXPECT_EQ(GeoQueryRegion::parse(Op::kWithin, fromjson("{$polygon: [[0, 0], [1, 1]]}"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(GeoQueryRegion::parse(Op::kIntersects, fromjson("{$box: [[0, 0], [1, 1]]}"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(GeoQueryRegion::parse(Op::kWithin, fromjson("{$centerSphere: [[500, 0], 1]}"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
}

TEST(GeoQueryRegion, StrictWindingBigPolygonCoversMostOfTheSphere) {
    // Clockwise ring with the strict-winding crs: the region is everything outside the small
    // square.
    auto big = GeoQueryRegion::parse(
        GeoQueryRegion::Op::kIntersects,
        fromjson("{$geometry: {type: 'Polygon', coordinates: [[[0,0],[0,1],[1,1],[1,0],[0,0]]],"
                 "crs: {type: 'name', properties: {name: "
                 "'urn:x-mongodb:crs:strictwinding:EPSG:4326'}}}}"));
    ASSERT_TRUE(big.isOK()) << big.getStatus();
    EXPECT_TRUE(big.getValue()->matchesElement(fromjson("{a: [100, 50]}").firstElement()));
    EXPECT_FALSE(big.getValue()->matchesElement(fromjson("{a: [0.5, 0.5]}").firstElement()));
}

}  // namespace
}  // namespace mongo
