// Keys of 2dsphere (and time-series 2dsphere_bucket) index fields: S2 cell ids covering
// each stored geometry; of 2d fields: the grid cell of each legacy point. See
// index_key_generator.h.
#include <cmath>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/geo/geometry_container.h"

namespace mongo {

namespace {

Status cantExtract(const BSONObj& doc, const std::string& reason) {
    return Status(ErrorCodes::Error(16755),
                  "Can't extract geo keys: " + doc.toString() + "  " + reason);
}

/** Covers one stored value; arrays that are not legacy points are arrays of geometries. */
Status addCells(const BSONElement& e, const BSONObj& doc, std::vector<long long>* cells) {
    if (e.type() == BSONType::kNull || e.type() == BSONType::kUndefined)
        return Status::OK();
    if (e.type() == BSONType::kArray && !GeometryContainer::isLegacyPoint(e)) {
        for (BSONElement sub : e.Obj()) {
            Status s = addCells(sub, doc, cells);
            if (!s.isOK())
                return s;
        }
        return Status::OK();
    }
    StatusWith<GeometryContainer> sw =
        e.type() == BSONType::kObject && e.Obj()["type"].type() == BSONType::kString
            ? GeometryContainer::parseGeoJSON(e.Obj())
            : GeometryContainer::parseLegacyPoint(e, GeometryContainer::PointCRS::kSphere);
    if (!sw.isOK())
        return cantExtract(doc, sw.getStatus().reason());
    auto c = sw.getValue().coveringCellIds();
    cells->insert(cells->end(), c.begin(), c.end());
    return Status::OK();
}

/**
 * Covers one measurement value of a 2dsphere_bucket field: null, undefined, {} and [] stand
 * for "no location"; anything else must be a point (GeoJSON or legacy): 183934 when it is no
 * geometry, 183493 when it is another kind of geometry (upstream's codes).
 */
Status addBucketCells(const BSONElement& e, std::vector<long long>* cells) {
    if (e.type() == BSONType::kNull || e.type() == BSONType::kUndefined ||
        ((e.type() == BSONType::kObject || e.type() == BSONType::kArray) && e.Obj().isEmpty()))
        return Status::OK();
    StatusWith<GeometryContainer> sw =
        e.type() == BSONType::kObject && e.Obj()["type"].type() == BSONType::kString
            ? GeometryContainer::parseGeoJSON(e.Obj())
            : GeometryContainer::parseLegacyPoint(e, GeometryContainer::PointCRS::kSphere);
    if (!sw.isOK())
        return Status(ErrorCodes::Error(183934),
                      "Can't extract geo keys: " + sw.getStatus().reason());
    if (!sw.getValue().isPoint())
        return Status(ErrorCodes::Error(183493),
                      "Time-series collections '2dsphere' indexes only support point data");
    auto c = sw.getValue().coveringCellIds();
    cells->insert(cells->end(), c.begin(), c.end());
    return Status::OK();
}

/** Whether the array `e` holds several locations (its first value is an array or object). */
bool holdsLocations(const BSONElement& e) {
    BSONObj o = e.Obj();
    return !o.isEmpty() && (o.firstElement().type() == BSONType::kArray ||
                            o.firstElement().type() == BSONType::kObject);
}

/** Adds the 2d cell of each legacy point at `e` (a point, or an array of points). */
Status add2dCells(const BSONElement& e, const BSONObj& doc, const TwoDGrid& grid,
                  std::vector<long long>* cells) {
    if (e.type() != BSONType::kArray && e.type() != BSONType::kObject)
        return Status::OK();  // not a location: not indexed, as upstream
    if (e.type() == BSONType::kArray && holdsLocations(e)) {
        for (BSONElement sub : e.Obj()) {
            if (sub.type() != BSONType::kArray && sub.type() != BSONType::kObject)
                return Status(ErrorCodes::Error(16804),
                              "location object expected, location array not in correct format");
            Status s = add2dCells(sub, doc, grid, cells);
            if (!s.isOK())
                return s;
        }
        return Status::OK();
    }
    double x, y;
    Status s = parseLegacyPoint2d(e, &x, &y);
    if (!s.isOK())
        return s;
    auto cell = grid.cellOf(x, y);
    if (!cell.isOK())
        return Status(cell.getStatus().code(),
                      cell.getStatus().reason() + " :: caused by :: " + doc.toString());
    cells->push_back(cell.getValue());
    return Status::OK();
}

}  // namespace

StatusWith<TwoDGrid> TwoDGrid::fromSpec(const BSONObj& spec) {
    TwoDGrid g;
    auto number = [&](StringData name, double dflt, double* out) -> Status {
        BSONElement e = spec[name];
        if (e.eoo()) {
            *out = dflt;
            return Status::OK();
        }
        if (!e.isNumber())
            return Status(ErrorCodes::TypeMismatch,
                          "The '" + std::string(name) + "' option of a 2d index must be a number");
        *out = e.numberDouble();
        return Status::OK();
    };
    double bits;
    Status s = number("bits", 26, &bits);
    if (s.isOK())
        s = number("min", -180, &g.min);
    if (s.isOK())
        s = number("max", 180, &g.max);
    if (!s.isOK())
        return s;
    if (!(bits > 0 && bits <= 32))
        return Status(ErrorCodes::Error(16803), "bits in geo index must be between 1 and 32");
    g.bits = static_cast<int>(bits);
    if (!std::isfinite(g.min) || !std::isfinite(g.max) || !(g.min < g.max))
        return Status(ErrorCodes::BadValue,
                      "the 'min' of a 2d index must be below its 'max', both finite");
    return g;
}

StatusWith<long long> TwoDGrid::cellOf(double x, double y) const {
    auto outside = [&](double v) { return !(v >= min && v < max); };
    if (outside(x) || outside(y)) {
        auto num = [](double v) {
            std::string s = std::to_string(v);
            s.erase(s.find_last_not_of('0') + 1);
            if (!s.empty() && s.back() == '.')
                s.pop_back();
            return s;
        };
        return Status(ErrorCodes::Error(13027),
                      "point not in interval of [ " + num(min) + ", " + num(max) + " )");
    }
    // The cell on each axis as 32 bits, of which the top `bits` are kept.
    const double scaling = 4294967296.0 / (max - min);
    auto cell = [&](double v) {
        double c = std::floor((v - min) * scaling);
        uint64_t u = c >= 4294967295.0 ? 0xFFFFFFFFull : static_cast<uint64_t>(std::max(c, 0.0));
        return u & ~((1ull << (32 - bits)) - 1) & 0xFFFFFFFFull;
    };
    const uint64_t cx = cell(x), cy = cell(y);
    uint64_t morton = 0;
    for (int i = 31; i >= 0; --i)
        morton = (morton << 2) | (((cx >> i) & 1) << 1) | ((cy >> i) & 1);
    // Signed order equals unsigned order with the top bit flipped.
    return static_cast<long long>(morton ^ 0x8000000000000000ull);
}

Status parseLegacyPoint2d(const BSONElement& e, double* x, double* y) {
    if (e.type() != BSONType::kArray && e.type() != BSONType::kObject)
        return Status(ErrorCodes::Error(16804),
                      "location object expected, location array not in correct format");
    BSONObj o = e.Obj();
    auto it = o.begin();
    if (it == o.end())
        return Status(ErrorCodes::Error(13067), "geo field is empty");
    BSONElement first = *it;
    ++it;
    if (it == o.end())
        return Status(ErrorCodes::Error(13068), "geo field only has 1 element");
    BSONElement second = *it;
    if (!first.isNumber() || !second.isNumber())
        return Status(ErrorCodes::Error(13026),
                      "geo values have to be numbers: " + e.toString(false));
    *x = first.numberDouble();
    *y = second.numberDouble();
    return Status::OK();
}

bool isGeoKeyType(const BSONElement& f) {
    return f.type() == BSONType::kString &&
           (f.valueStringData() == "2dsphere" || f.valueStringData() == "2dsphere_bucket" ||
            f.valueStringData() == "2d");
}

Status getGeoKeyCells(StringData path, StringData type, const BSONObj& doc,
                      std::vector<long long>* cells, const TwoDGrid& grid) {
    if (type == "2dsphere_bucket") {
        // path is data.<f>: every measurement value of the column (compressed or not).
        BSONElement column = doc.getFieldDotted(path);
        if (column.type() == BSONType::kObject) {
            for (BSONElement v : column.Obj())
                if (Status s = addBucketCells(v, cells); !s.isOK())
                    return s;
        } else if (column.type() == BSONType::kBinData) {
            BSONColumn col(column);
            auto it = col.begin();
            while (it.next())
                if (!it.missing())
                    if (Status s = addBucketCells(it.value(), cells); !s.isOK())
                        return s;
        }
    } else {
        std::vector<BSONElement> vals;
        bool arrayOnPath = false;
        // Values at the path; a leaf array stays whole (a legacy point is an array).
        std::vector<BSONElement> leaves;
        StringData parent = path.substr(0, path.rfind('.'));
        if (path.find('.') == StringData::npos) {
            BSONElement e = doc.getField(path);
            if (!e.eoo())
                leaves.push_back(e);
        } else {
            StringData last = path.substr(path.rfind('.') + 1);
            getValuesAtPath(doc, parent, &vals, &arrayOnPath);
            for (const auto& v : vals)
                if (v.type() == BSONType::kObject) {
                    BSONElement e = v.Obj().getField(last);
                    if (!e.eoo())
                        leaves.push_back(e);
                }
        }
        for (const auto& e : leaves) {
            Status s = type == "2d" ? add2dCells(e, doc, grid, cells) : addCells(e, doc, cells);
            if (!s.isOK())
                return s;
        }
    }
    std::sort(cells->begin(), cells->end());
    cells->erase(std::unique(cells->begin(), cells->end()), cells->end());
    return Status::OK();
}

}  // namespace mongo
