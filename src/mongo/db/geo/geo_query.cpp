#include "mongo/db/geo/geo_query.h"

#include <cmath>

#include <s2/s1angle.h>

namespace mongo {

namespace {

Status badValue(std::string msg) {
    return Status(ErrorCodes::BadValue, std::move(msg));
}

/** A flat legacy point [x, y] / {a: x, b: y} (any finite numbers). */
Status parseFlatPoint(const BSONElement& e, std::pair<double, double>* out) {
    auto sw = GeometryContainer::parseLegacyPoint(e, GeometryContainer::PointCRS::kFlat);
    if (!sw.isOK())
        return sw.getStatus();
    if (!std::isfinite(sw.getValue().x()) || !std::isfinite(sw.getValue().y()))
        return badValue("Point coordinates must be finite numbers");
    *out = {sw.getValue().x(), sw.getValue().y()};
    return Status::OK();
}

Status parseRadius(const BSONElement& e, double* out) {
    if (!e.isNumber() || !(e.numberDouble() >= 0) || std::isinf(e.numberDouble()))
        return badValue("radius must be a non-negative number");
    *out = e.numberDouble();
    return Status::OK();
}

/** [[x, y], r] of $center / $centerSphere. */
Status parseCircle(const BSONElement& e, std::pair<double, double>* center, double* radius) {
    if (e.type() != BSONType::kArray)
        return badValue(std::string(e.fieldNameStringData()) + " must be an array");
    BSONObj arr = e.Obj();
    if (arr.nFields() != 2)
        return badValue(std::string(e.fieldNameStringData()) +
                        " must be an array of a point and a radius");
    auto it = (arr).begin();
    Status s = parseFlatPoint(it.next(), center);
    if (!s.isOK())
        return s;
    return parseRadius(it.next(), radius);
}

}  // namespace

StatusWith<std::shared_ptr<const GeoQueryRegion>> GeoQueryRegion::parse(Op op,
                                                                        const BSONObj& operand,
                                                                        Origin origin) {
    auto r = std::make_shared<GeoQueryRegion>();
    r->_op = op;
    r->_operand = operand.getOwned();
    if (operand.isEmpty())
        return badValue("geo query doesn't have any geometry");
    // One shape only ({$centerSphere: ..., $center: ...} is refused); the legacy $uniqueDocs
    // flag beside it is accepted and ignored.
    BSONElement e;
    for (BSONElement f : operand) {
        if (f.fieldNameStringData() == "$uniqueDocs")
            continue;
        if (!e.eoo())
            return badValue("can't parse extra field: " + f.toString());
        e = f;
    }
    if (e.eoo())
        return badValue("geo query doesn't have any geometry");
    StringData name = e.fieldNameStringData();
    if (name == "$geometry") {
        if (e.type() != BSONType::kObject)
            return badValue("$geometry must be an object: " + operand.toString());
        auto sw = GeometryContainer::parseGeoJSON(e.Obj(), GeometryContainer::BigPolygon::kAllow);
        if (!sw.isOK())
            return sw.getStatus();
        auto kind = sw.getValue().kind();
        if (op == Op::kWithin && kind != GeometryContainer::Kind::kPolygon &&
            kind != GeometryContainer::Kind::kMultiPolygon)
            return badValue("$geoWithin not supported with provided geometry: " +
                            operand.toString());
        r->_shape = Shape::kGeometry;
        r->_geometry = std::move(sw.getValue());
        return std::shared_ptr<const GeoQueryRegion>(std::move(r));
    }
    if (op == Op::kIntersects && !(origin == Origin::kInternal && name == "$centerSphere"))
        return badValue("$geoIntersects not supported with provided geometry: " +
                        operand.toString());
    if (name == "$centerSphere") {
        std::pair<double, double> c;
        Status s = parseCircle(e, &c, &r->_radius);
        if (!s.isOK())
            return s;
        if (!(c.first >= -180 && c.first <= 180 && c.second >= -90 && c.second <= 90))
            return badValue("longitude/latitude is out of bounds, lng: " + std::to_string(c.first) +
                            " lat: " + std::to_string(c.second));
        r->_shape = Shape::kCenterSphere;
        r->_center = pointFromLngLat(c.first, c.second);
        r->_flat = {c};
    } else if (name == "$center") {
        std::pair<double, double> c;
        Status s = parseCircle(e, &c, &r->_radius);
        if (!s.isOK())
            return s;
        r->_shape = Shape::kCenter;
        r->_flat = {c};
    } else if (name == "$box") {
        if (e.type() != BSONType::kArray || e.Obj().nFields() != 2)
            return badValue("$box must be an array of two points: " + operand.toString());
        std::pair<double, double> a, b;
        auto it = (e.Obj()).begin();
        Status s = parseFlatPoint(it.next(), &a);
        if (s.isOK())
            s = parseFlatPoint(it.next(), &b);
        if (!s.isOK())
            return s;
        r->_shape = Shape::kBox;
        r->_flat = {{std::min(a.first, b.first), std::min(a.second, b.second)},
                    {std::max(a.first, b.first), std::max(a.second, b.second)}};
    } else if (name == "$polygon") {
        if (e.type() != BSONType::kArray)
            return badValue("$polygon must be an array: " + operand.toString());
        for (BSONElement p : e.Obj()) {
            std::pair<double, double> pt;
            Status s = parseFlatPoint(p, &pt);
            if (!s.isOK())
                return s;
            r->_flat.push_back(pt);
        }
        if (r->_flat.size() < 3)
            return badValue("Polygon must have at least 3 points");
        r->_shape = Shape::kPolygon;
    } else {
        return badValue("unknown geo specifier: " + e.toString());
    }
    return std::shared_ptr<const GeoQueryRegion>(std::move(r));
}

bool GeoQueryRegion::flatContainsPoint(double x, double y) const {
    switch (_shape) {
        case Shape::kBox:
            return x >= _flat[0].first && x <= _flat[1].first && y >= _flat[0].second &&
                   y <= _flat[1].second;
        case Shape::kCenter: {
            double dx = x - _flat[0].first, dy = y - _flat[0].second;
            return std::sqrt(dx * dx + dy * dy) <= _radius;
        }
        case Shape::kPolygon: {
            // Boundary counts as inside; then even-odd ray casting.
            size_t n = _flat.size();
            for (size_t i = 0, j = n - 1; i < n; j = i++) {
                auto [x1, y1] = _flat[j];
                auto [x2, y2] = _flat[i];
                double cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
                if (cross == 0 && x >= std::min(x1, x2) && x <= std::max(x1, x2) &&
                    y >= std::min(y1, y2) && y <= std::max(y1, y2))
                    return true;
            }
            bool inside = false;
            for (size_t i = 0, j = n - 1; i < n; j = i++) {
                auto [xi, yi] = _flat[i];
                auto [xj, yj] = _flat[j];
                if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi)
                    inside = !inside;
            }
            return inside;
        }
        default:
            return false;
    }
}

bool GeoQueryRegion::matchesGeometry(const GeometryContainer& g) const {
    if (isFlat())  // a GeoJSON point too, by its coordinates (as upstream)
        return g.isPoint() && flatContainsPoint(g.x(), g.y());
    if (!g.isSphereValid())
        return false;
    if (_shape == Shape::kCenterSphere) {
        if (_op == Op::kIntersects)
            return g.minDistanceRadians(_center) <= _radius;
        for (const auto& v : g.allVertices())
            if (S1Angle(_center, v).radians() > _radius)
                return false;
        return true;
    }
    return _op == Op::kWithin ? _geometry.contains(g) : _geometry.intersects(g);
}

bool GeoQueryRegion::matchesElement(const BSONElement& e) const {
    if (e.type() != BSONType::kObject && e.type() != BSONType::kArray)
        return false;
    auto sw = GeometryContainer::parseStored(e);
    if (!sw.isOK())
        return false;
    return matchesGeometry(sw.getValue());
}

}  // namespace mongo
