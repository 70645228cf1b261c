// Geometries of MongoDB's geospatial features, parsed from BSON and held as Google S2
// objects (libs2), plus the planar ("flat") shapes of the legacy operators.
//
// Accepted forms (MongoDB 8.0):
//   GeoJSON  {type: "Point"|"LineString"|"Polygon"|"MultiPoint"|"MultiLineString"|
//             "MultiPolygon", coordinates: [...]}, {type: "GeometryCollection", geometries: [...]}
//            with an optional crs (EPSG:4326 / CRS84, or the strict-winding "big polygon" crs
//            urn:x-mongodb:crs:strictwinding:EPSG:4326 for a single-ring query Polygon)
//   legacy   [x, y] or {<a>: x, <b>: y} (the first two values numeric): x = longitude,
//            y = latitude when used on the sphere.
//
// Every coordinate is range-checked (longitude [-180, 180], latitude [-90, 90]) and every
// loop/polyline/polygon is validated BEFORE an S2 object that could CHECK-fail on it is built,
// so no user input can abort the process; errors are BadValue with upstream's messages.
//
//   auto sw = GeometryContainer::parseGeoJSON(fromjson("{type:'Point',coordinates:[1,2]}"));
//   bool in = region.getValue().contains(sw.getValue());
#pragma once

#include <memory>
#include <vector>

#include <s2/s2point.h>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

class S2Polyline;
class S2Polygon;
class MutableS2ShapeIndex;
class S2CellId;

namespace mongo {

/** Mean Earth radius upstream uses to turn radians into meters (6378.1 km). */
constexpr double kRadiusOfEarthInMeters = 6378.1 * 1000;

/** Finest S2 level of 2dsphere index keys (points are cells of this level). */
constexpr int kS2IndexFinestLevel = 23;
/** Most cells of the S2RegionCoverer covering of a line or polygon (keys and queries). */
constexpr int kS2IndexMaxCells = 20;

class GeometryContainer {
public:
    enum class Kind {
        kPoint,
        kLineString,
        kPolygon,
        kMultiPoint,
        kMultiLineString,
        kMultiPolygon,
        kGeometryCollection,
    };

    GeometryContainer();
    ~GeometryContainer();
    GeometryContainer(GeometryContainer&&) noexcept;
    GeometryContainer& operator=(GeometryContainer&&) noexcept;

    /** Whether the strict-winding ("big polygon") crs is accepted (query operands only). */
    enum class BigPolygon { kReject, kAllow };
    /** Which range a legacy point must satisfy. */
    enum class PointCRS { kFlat, kSphere };

    /** A GeoJSON object (any type). */
    static StatusWith<GeometryContainer> parseGeoJSON(const BSONObj& obj,
                                                      BigPolygon big = BigPolygon::kReject);
    /**
     * A stored value: a GeoJSON object or a legacy point. Legacy points out of the sphere's
     * range still parse (flat operators accept them) but have isSphereValid() false.
     */
    static StatusWith<GeometryContainer> parseStored(const BSONElement& e);
    /** A legacy point [x, y] / {a: x, b: y}; kSphere also range-checks it as lng/lat. */
    static StatusWith<GeometryContainer> parseLegacyPoint(const BSONElement& e, PointCRS crs);

    /** True when `e` looks like a legacy point (array/object whose first two values are numbers).
     */
    static bool isLegacyPoint(const BSONElement& e);

    Kind kind() const {
        return _kind;
    }
    bool isPoint() const {
        return _kind == Kind::kPoint;
    }
    bool isLegacyPoint() const {
        return _legacy;
    }
    /** False only for a legacy point outside longitude/latitude bounds. */
    bool isSphereValid() const {
        return _sphereValid;
    }
    /** Planar coordinates of a point (legacy or GeoJSON). */
    double x() const {
        return _x;
    }
    double y() const {
        return _y;
    }
    /** The sole point (kPoint, sphere-valid). */
    const S2Point& point() const;

    /** True when this region (Polygon/MultiPolygon) contains all of `other`. */
    bool contains(const GeometryContainer& other) const;
    /** True when the two geometries share at least one point (boundaries included). */
    bool intersects(const GeometryContainer& other) const;
    /** Smallest angle in radians between this geometry and the point `p`. */
    double minDistanceRadians(const S2Point& p) const;
    /** Every vertex of the geometry (points, polyline and loop vertices). */
    std::vector<S2Point> allVertices() const;
    /** S2 cell ids covering the geometry (index keys of a 2dsphere index). */
    std::vector<long long> coveringCellIds() const;

private:
    const MutableS2ShapeIndex& shapeIndex() const;
    Status appendGeoJSON(const BSONObj& obj, bool allowBigPolygon, int depth);

    Kind _kind = Kind::kPoint;
    bool _legacy = false;
    bool _sphereValid = true;
    double _x = 0, _y = 0;
    std::vector<S2Point> _points;
    std::vector<std::unique_ptr<S2Polyline>> _lines;
    std::vector<std::unique_ptr<S2Polygon>> _polygons;
    mutable std::unique_ptr<MutableS2ShapeIndex> _index;  // built on first use
};

/** S2 point of longitude/latitude in degrees (must be in range). */
S2Point pointFromLngLat(double lng, double lat);

}  // namespace mongo
