// The region of a $geoWithin / $geoIntersects query operand and the test of one stored
// value against it.
//
//   $geoWithin:     {$geometry: <GeoJSON Polygon|MultiPolygon>}   (sphere; legacy and GeoJSON docs)
//                   {$centerSphere: [[x, y], radians]}             (sphere; points and shapes)
//                   {$box: [[x1, y1], [x2, y2]]}, {$center: [[x, y], r]},
//                   {$polygon: [[x, y], ...]}                        (flat; legacy points only)
//   $geoIntersects: {$geometry: <any GeoJSON>}
//
// A stored value that is not a valid geometry never matches (the matcher's rule).
#pragma once

#include <memory>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/geo/geometry_container.h"

namespace mongo {

class GeoQueryRegion {
public:
    enum class Op { kWithin, kIntersects };
    enum class Shape { kGeometry, kCenterSphere, kBox, kCenter, kPolygon };

    /** Who wrote the operand: kInternal (server-generated bucket predicates) also allows
     * {$centerSphere} with kIntersects (true when some point of the geometry is within the
     * radius). */
    enum class Origin { kUser, kInternal };

    /**
     * Parses the operand object of $geoWithin/$within (kWithin) or $geoIntersects.
     * Errors: BadValue (unknown specifier, more than one shape, unsupported geometry, invalid
     * shape or point).
     */
    static StatusWith<std::shared_ptr<const GeoQueryRegion>> parse(Op op, const BSONObj& operand,
                                                                   Origin origin = Origin::kUser);

    Op op() const {
        return _op;
    }
    Shape shape() const {
        return _shape;
    }
    /** The operand as given (serialisation round-trips it). */
    const BSONObj& operand() const {
        return _operand;
    }
    bool isFlat() const {
        return _shape == Shape::kBox || _shape == Shape::kCenter || _shape == Shape::kPolygon;
    }
    /** The parsed $geometry (kGeometry only). */
    const GeometryContainer& geometry() const {
        return _geometry;
    }
    /** Centre and radius in radians of a $centerSphere (kCenterSphere only). */
    const S2Point& center() const {
        return _center;
    }
    double radius() const {
        return _radius;
    }

    /** True when the stored value `e` (GeoJSON or legacy point) satisfies the operator. */
    bool matchesElement(const BSONElement& e) const;
    bool matchesGeometry(const GeometryContainer& g) const;

private:
    bool flatContainsPoint(double x, double y) const;

    Op _op = Op::kWithin;
    Shape _shape = Shape::kGeometry;
    BSONObj _operand;
    GeometryContainer _geometry;                   // kGeometry
    S2Point _center;                               // kCenterSphere
    double _radius = 0;                            // kCenterSphere (radians), kCenter
    std::vector<std::pair<double, double>> _flat;  // box corners / center / polygon vertices
};

}  // namespace mongo
