#include "mongo/db/geo/geometry_container.h"

#include <cmath>
#include <set>

#include <s2/mutable_s2shape_index.h>
#include <s2/s2boolean_operation.h>
#include <s2/s2cell_id.h>
#include <s2/s2closest_edge_query.h>
#include <s2/s2error.h>
#include <s2/s2latlng.h>
#include <s2/s2loop.h>
#include <s2/s2point_vector_shape.h>
#include <s2/s2polygon.h>
#include <s2/s2polyline.h>
#include <s2/s2region_coverer.h>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

namespace {

constexpr int kMaxCollectionDepth = 16;
constexpr StringData kStrictWindingCRS = "urn:x-mongodb:crs:strictwinding:EPSG:4326";

Status badValue(std::string msg) {
    return Status(ErrorCodes::BadValue, std::move(msg));
}

std::string numStr(double d) {
    BSONObjBuilder b;
    b.append("", d);
    return b.obj().firstElement().toString(false);
}

bool inBounds(double lng, double lat) {
    return lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;
}

Status outOfBounds(double lng, double lat) {
    return badValue("longitude/latitude is out of bounds, lng: " + numStr(lng) +
                    " lat: " + numStr(lat));
}

/** A GeoJSON position [lng, lat(, alt)]. */
Status parsePosition(const BSONElement& e, S2Point* out, double* lngOut = nullptr,
                     double* latOut = nullptr) {
    if (e.type() != BSONType::kArray)
        return badValue("GeoJSON coordinates must be an array of coordinates");
    double vals[2];
    int n = 0;
    for (BSONElement c : e.Obj()) {
        if (!c.isNumber())
            return badValue("Point must only contain numeric elements");
        if (n < 2)
            vals[n] = c.numberDouble();
        ++n;
    }
    if (n < 2)
        return badValue("Point must contain at least two numeric elements");
    if (n > 3)
        return badValue("Point must only contain two or three numeric elements");
    if (!inBounds(vals[0], vals[1]))
        return outOfBounds(vals[0], vals[1]);
    *out = pointFromLngLat(vals[0], vals[1]);
    if (lngOut)
        *lngOut = vals[0];
    if (latOut)
        *latOut = vals[1];
    return Status::OK();
}

Status parsePositions(const BSONElement& e, std::vector<S2Point>* out) {
    if (e.type() != BSONType::kArray)
        return badValue("GeoJSON coordinates must be an array");
    for (BSONElement p : e.Obj()) {
        S2Point pt;
        Status s = parsePosition(p, &pt);
        if (!s.isOK())
            return s;
        out->push_back(pt);
    }
    return Status::OK();
}

void eraseConsecutiveDuplicates(std::vector<S2Point>* pts) {
    pts->erase(std::unique(pts->begin(), pts->end()), pts->end());
}

StatusWith<std::unique_ptr<S2Polyline>> parseLine(const BSONElement& coords) {
    std::vector<S2Point> pts;
    Status s = parsePositions(coords, &pts);
    if (!s.isOK())
        return s;
    if (pts.size() < 2)
        return badValue("GeoJSON LineString must have at least 2 vertices: " +
                        coords.toString(false));
    eraseConsecutiveDuplicates(&pts);
    if (pts.size() < 2)
        return badValue("GeoJSON LineString must have at least 2 distinct vertices: " +
                        coords.toString(false));
    auto line = std::make_unique<S2Polyline>(pts, S2Debug::DISABLE);
    S2Error err;
    if (line->FindValidationError(&err))
        return badValue("Invalid LineString: " + coords.toString(false) +
                        " :: caused by :: " + err.text());
    return {std::move(line)};
}

/** One ring: closed, >= 4 positions, >= 3 distinct vertices, a valid S2 loop. */
StatusWith<std::unique_ptr<S2Loop>> parseLoop(const BSONElement& ring, bool normalize) {
    std::vector<S2Point> pts;
    Status s = parsePositions(ring, &pts);
    if (!s.isOK())
        return s;
    if (pts.size() < 4)
        return badValue("Loop must have at least 4 vertices: " + ring.toString(false));
    if (pts.front() != pts.back())
        return badValue("Loop is not closed, first vertex does not equal last vertex: " +
                        ring.toString(false));
    pts.pop_back();
    eraseConsecutiveDuplicates(&pts);
    while (pts.size() > 1 && pts.front() == pts.back())
        pts.pop_back();
    std::set<std::tuple<double, double, double>> distinct;
    for (const auto& p : pts)
        distinct.emplace(p.x(), p.y(), p.z());
    if (distinct.size() < 3)
        return badValue("Loop must have at least 3 different vertices: " + ring.toString(false));
    auto loop = std::make_unique<S2Loop>(pts, S2Debug::DISABLE);
    S2Error err;
    if (loop->FindValidationError(&err))
        return badValue("Loop is not valid: " + ring.toString(false) + " " + err.text());
    if (normalize)
        loop->Normalize();
    return {std::move(loop)};
}

bool isStrictWinding(const BSONObj& geo) {
    BSONElement crs = geo["crs"];
    if (crs.type() != BSONType::kObject)
        return false;
    BSONElement props = crs.Obj()["properties"];
    if (props.type() != BSONType::kObject)
        return false;
    BSONElement name = props.Obj()["name"];
    return name.type() == BSONType::kString && name.valueStringData() == kStrictWindingCRS;
}

Status checkCRS(const BSONObj& geo, bool allowBigPolygon) {
    BSONElement crs = geo["crs"];
    if (crs.eoo())
        return Status::OK();
    if (crs.type() != BSONType::kObject)
        return badValue("GeoJSON CRS must be an object");
    BSONObj c = crs.Obj();
    if (c["type"].type() != BSONType::kString || c["type"].valueStringData() != "name")
        return badValue("GeoJSON CRS must have field \"type\": \"name\"");
    BSONElement props = c["properties"];
    if (props.type() != BSONType::kObject)
        return badValue("CRS must have field \"properties\" which is an object");
    BSONElement name = props.Obj()["name"];
    if (name.type() != BSONType::kString)
        return badValue("In CRS, \"properties.name\" must be a string");
    StringData n = name.valueStringData();
    if (n == "urn:ogc:def:crs:OGC:1.3:CRS84" || n == "EPSG:4326" ||
        n == "urn:ogc:def:crs:EPSG::4326")
        return Status::OK();
    if (n == kStrictWindingCRS) {
        if (!allowBigPolygon)
            return badValue("strict winding order is only supported by Polygon");
        return Status::OK();
    }
    return badValue("Unknown CRS name: " + std::string(n));
}

StatusWith<std::unique_ptr<S2Polygon>> parsePolygon(const BSONElement& coords, bool strict) {
    if (coords.type() != BSONType::kArray)
        return badValue("Polygon coordinates must be an array");
    std::vector<std::unique_ptr<S2Loop>> loops;
    for (BSONElement ring : coords.Obj()) {
        auto sw = parseLoop(ring, !strict);
        if (!sw.isOK())
            return sw.getStatus();
        if (!loops.empty()) {
            if (strict)
                return badValue("Only one ring is supported for a strict winding order polygon: " +
                                coords.toString(false));
            if (!loops[0]->Contains(*sw.getValue()))
                return badValue(
                    "Secondary loops not contained by first exterior loop - "
                    "secondary loops must be holes: " +
                    ring.toString(false) +
                    " first loop: " + coords.Obj().firstElement().toString(false));
            for (size_t i = 1; i < loops.size(); ++i)
                if (loops[i]->Intersects(*sw.getValue()))
                    return badValue("Polygon is not valid: holes intersect: " +
                                    coords.toString(false));
        }
        loops.push_back(std::move(sw.getValue()));
    }
    if (loops.empty())
        return badValue("Polygon has no loops.");
    auto poly = std::make_unique<S2Polygon>(std::move(loops), S2Debug::DISABLE);
    S2Error err;
    if (poly->FindValidationError(&err))
        return badValue("Polygon is not valid: " + coords.toString(false) + " " + err.text());
    return {std::move(poly)};
}

}  // namespace

S2Point pointFromLngLat(double lng, double lat) {
    return S2LatLng::FromDegrees(lat, lng).Normalized().ToPoint();
}

GeometryContainer::GeometryContainer() = default;
GeometryContainer::~GeometryContainer() = default;
GeometryContainer::GeometryContainer(GeometryContainer&&) noexcept = default;
GeometryContainer& GeometryContainer::operator=(GeometryContainer&&) noexcept = default;

bool GeometryContainer::isLegacyPoint(const BSONElement& e) {
    if (e.type() != BSONType::kArray && e.type() != BSONType::kObject)
        return false;
    auto it = (e.embeddedObject()).begin();
    for (int i = 0; i < 2; ++i) {
        if (!it.more())
            return false;
        if (!it.next().isNumber())
            return false;
    }
    return true;
}

StatusWith<GeometryContainer> GeometryContainer::parseLegacyPoint(const BSONElement& e,
                                                                  PointCRS crs) {
    if (e.type() != BSONType::kArray && e.type() != BSONType::kObject)
        return badValue("Point must be an array or object");
    auto it = (e.embeddedObject()).begin();
    double v[2];
    for (int i = 0; i < 2; ++i) {
        if (!it.more())
            return badValue("Point must only contain numeric elements");
        BSONElement c = it.next();
        if (!c.isNumber())
            return badValue("Point must only contain numeric elements");
        v[i] = c.numberDouble();
    }
    if (e.type() == BSONType::kArray && it.more())
        return badValue("Point must only contain numeric elements");
    if (std::isnan(v[0]) || std::isnan(v[1]))
        return badValue("Point coordinates must be finite numbers");
    GeometryContainer g;
    g._kind = Kind::kPoint;
    g._legacy = true;
    g._x = v[0];
    g._y = v[1];
    g._sphereValid = inBounds(v[0], v[1]);
    if (crs == PointCRS::kSphere && !g._sphereValid)
        return outOfBounds(v[0], v[1]);
    if (g._sphereValid)
        g._points.push_back(pointFromLngLat(v[0], v[1]));
    return {std::move(g)};
}

StatusWith<GeometryContainer> GeometryContainer::parseGeoJSON(const BSONObj& obj, BigPolygon big) {
    GeometryContainer g;
    Status s = g.appendGeoJSON(obj, big == BigPolygon::kAllow, 0);
    if (!s.isOK())
        return s;
    return {std::move(g)};
}

Status GeometryContainer::appendGeoJSON(const BSONObj& obj, bool allowBigPolygon, int depth) {
    if (depth > kMaxCollectionDepth)
        return badValue("GeometryCollection nested too deeply");
    BSONElement type = obj["type"];
    if (type.type() != BSONType::kString)
        return badValue("unknown GeoJSON type: " + obj.toString());
    StringData t = type.valueStringData();
    Status crs = checkCRS(obj, allowBigPolygon && t == "Polygon");
    if (!crs.isOK())
        return crs;
    if (t == "GeometryCollection") {
        if (depth == 0)
            _kind = Kind::kGeometryCollection;
        BSONElement geoms = obj["geometries"];
        if (geoms.type() != BSONType::kArray)
            return badValue("GeometryCollection geometries must be an array");
        int n = 0;
        for (BSONElement g : geoms.Obj()) {
            if (g.type() != BSONType::kObject)
                return badValue("Element " + std::to_string(n) +
                                " of \"geometries\" is not an object");
            Status s = appendGeoJSON(g.Obj(), false, depth + 1);
            if (!s.isOK())
                return s;
            ++n;
        }
        if (n == 0)
            return badValue("GeometryCollection has no geometries");
        return Status::OK();
    }
    BSONElement coords = obj["coordinates"];
    if (coords.type() != BSONType::kArray)
        return badValue("coordinates must be an array");
    if (t == "Point") {
        if (depth == 0)
            _kind = Kind::kPoint;
        S2Point p;
        double lng, lat;
        Status s = parsePosition(coords, &p, &lng, &lat);
        if (!s.isOK())
            return s;
        if (depth == 0)
            _x = lng, _y = lat;
        _points.push_back(p);
    } else if (t == "MultiPoint") {
        if (depth == 0)
            _kind = Kind::kMultiPoint;
        std::vector<S2Point> pts;
        Status s = parsePositions(coords, &pts);
        if (!s.isOK())
            return s;
        if (pts.empty())
            return badValue("MultiPoint coordinates must have at least 1 element");
        _points.insert(_points.end(), pts.begin(), pts.end());
    } else if (t == "LineString") {
        if (depth == 0)
            _kind = Kind::kLineString;
        auto sw = parseLine(coords);
        if (!sw.isOK())
            return sw.getStatus();
        _lines.push_back(std::move(sw.getValue()));
    } else if (t == "MultiLineString") {
        if (depth == 0)
            _kind = Kind::kMultiLineString;
        int n = 0;
        for (BSONElement l : coords.Obj()) {
            auto sw = parseLine(l);
            if (!sw.isOK())
                return sw.getStatus();
            _lines.push_back(std::move(sw.getValue()));
            ++n;
        }
        if (n == 0)
            return badValue("MultiLineString coordinates must have at least 1 element");
    } else if (t == "Polygon") {
        if (depth == 0)
            _kind = Kind::kPolygon;
        auto sw = parsePolygon(coords, allowBigPolygon && isStrictWinding(obj));
        if (!sw.isOK())
            return sw.getStatus();
        _polygons.push_back(std::move(sw.getValue()));
    } else if (t == "MultiPolygon") {
        if (depth == 0)
            _kind = Kind::kMultiPolygon;
        int n = 0;
        for (BSONElement p : coords.Obj()) {
            auto sw = parsePolygon(p, false);
            if (!sw.isOK())
                return sw.getStatus();
            _polygons.push_back(std::move(sw.getValue()));
            ++n;
        }
        if (n == 0)
            return badValue("MultiPolygon coordinates must have at least 1 element");
    } else {
        return badValue("unknown GeoJSON type: " + obj.toString());
    }
    return Status::OK();
}

StatusWith<GeometryContainer> GeometryContainer::parseStored(const BSONElement& e) {
    if (e.type() == BSONType::kObject) {
        BSONObj o = e.Obj();
        if (o["type"].type() == BSONType::kString)
            return parseGeoJSON(o);
    }
    if (e.type() == BSONType::kArray || e.type() == BSONType::kObject)
        return parseLegacyPoint(e, PointCRS::kFlat);
    return badValue("geo element must be an array or object: " + e.toString());
}

const S2Point& GeometryContainer::point() const {
    return _points.front();
}

const MutableS2ShapeIndex& GeometryContainer::shapeIndex() const {
    if (!_index) {
        auto idx = std::make_unique<MutableS2ShapeIndex>();
        if (!_points.empty())
            idx->Add(std::make_unique<S2PointVectorShape>(_points));
        for (const auto& l : _lines)
            idx->Add(std::make_unique<S2Polyline::Shape>(l.get()));
        for (const auto& p : _polygons)
            idx->Add(std::make_unique<S2Polygon::Shape>(p.get()));
        idx->ForceBuild();
        _index = std::move(idx);
    }
    return *_index;
}

namespace {
S2BooleanOperation::Options closedOptions() {
    S2BooleanOperation::Options o;
    o.set_polygon_model(S2BooleanOperation::PolygonModel::CLOSED);
    o.set_polyline_model(S2BooleanOperation::PolylineModel::CLOSED);
    return o;
}
}  // namespace

bool GeometryContainer::contains(const GeometryContainer& other) const {
    if (!_sphereValid || !other._sphereValid || _polygons.empty())
        return false;
    if (other._kind == Kind::kPoint && other._points.size() == 1) {
        for (const auto& p : _polygons)
            if (p->Contains(other._points[0]))
                return true;
        return false;
    }
    return S2BooleanOperation::Contains(shapeIndex(), other.shapeIndex(), closedOptions());
}

bool GeometryContainer::intersects(const GeometryContainer& other) const {
    if (!_sphereValid || !other._sphereValid)
        return false;
    return S2BooleanOperation::Intersects(shapeIndex(), other.shapeIndex(), closedOptions());
}

double GeometryContainer::minDistanceRadians(const S2Point& p) const {
    if (_kind == Kind::kPoint && _points.size() == 1)
        return S1Angle(_points[0], p).radians();
    S2ClosestEdgeQuery query(&shapeIndex());
    S2ClosestEdgeQuery::PointTarget target(p);
    return query.GetDistance(&target).ToAngle().radians();
}

std::vector<S2Point> GeometryContainer::allVertices() const {
    std::vector<S2Point> out(_points.begin(), _points.end());
    for (const auto& l : _lines)
        for (int i = 0; i < l->num_vertices(); ++i)
            out.push_back(l->vertex(i));
    for (const auto& p : _polygons)
        for (int i = 0; i < p->num_loops(); ++i)
            for (int j = 0; j < p->loop(i)->num_vertices(); ++j)
                out.push_back(p->loop(i)->vertex(j));
    return out;
}

std::vector<long long> GeometryContainer::coveringCellIds() const {
    std::vector<long long> out;
    if (!_sphereValid)
        return out;
    constexpr int kFinestLevel = kS2IndexFinestLevel;
    for (const auto& p : _points)
        out.push_back(static_cast<long long>(S2CellId(p).parent(kFinestLevel).id()));
    S2RegionCoverer::Options opts;
    opts.set_max_level(kFinestLevel);
    opts.set_max_cells(kS2IndexMaxCells);
    S2RegionCoverer coverer(opts);
    std::vector<S2CellId> cells;
    for (const auto& l : _lines) {
        coverer.GetCovering(*l, &cells);
        for (auto c : cells)
            out.push_back(static_cast<long long>(c.id()));
    }
    for (const auto& p : _polygons) {
        coverer.GetCovering(*p, &cells);
        for (auto c : cells)
            out.push_back(static_cast<long long>(c.id()));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace mongo
