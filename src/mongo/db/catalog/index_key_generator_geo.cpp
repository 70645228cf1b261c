// Keys of 2dsphere (and time-series 2dsphere_bucket) index fields: S2 cell ids covering
// each stored geometry. See index_key_generator.h.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/geo/geometry_container.h"

namespace mongo {

namespace {

Status cantExtract(const BSONObj& doc, const std::string& reason) {
    return Status(ErrorCodes::Error(16755), "Can't extract geo keys: " + doc.toString() + "  " +
                      reason);
}

/** Covers one stored value; arrays that are not legacy points are arrays of geometries. */
Status addCells(const BSONElement& e, const BSONObj& doc, bool lenient,
                std::vector<long long>* cells) {
    if (e.type() == BSONType::kNull || e.type() == BSONType::kUndefined)
        return Status::OK();
    if (e.type() == BSONType::kArray && !GeometryContainer::isLegacyPoint(e)) {
        for (BSONElement sub : e.Obj()) {
            Status s = addCells(sub, doc, lenient, cells);
            if (!s.isOK())
                return s;
        }
        return Status::OK();
    }
    StatusWith<GeometryContainer> sw = e.type() == BSONType::kObject &&
            e.Obj()["type"].type() == BSONType::kString
        ? GeometryContainer::parseGeoJSON(e.Obj())
        : GeometryContainer::parseLegacyPoint(e, GeometryContainer::PointCRS::kSphere);
    if (!sw.isOK())
        return lenient ? Status::OK() : cantExtract(doc, sw.getStatus().reason());
    auto c = sw.getValue().coveringCellIds();
    cells->insert(cells->end(), c.begin(), c.end());
    return Status::OK();
}

}  // namespace

bool isGeoKeyType(const BSONElement& f) {
    return f.type() == BSONType::kString &&
        (f.valueStringData() == "2dsphere" || f.valueStringData() == "2dsphere_bucket");
}

Status getGeoKeyCells(StringData path, StringData type, const BSONObj& doc,
                      std::vector<long long>* cells) {
    if (type == "2dsphere_bucket") {
        // path is data.<f>: every measurement value of the column (compressed or not).
        BSONElement column = doc.getFieldDotted(path);
        if (column.type() == BSONType::kObject) {
            for (BSONElement v : column.Obj())
                (void)addCells(v, doc, true, cells);
        } else if (column.type() == BSONType::kBinData) {
            BSONColumn col(column);
            auto it = col.begin();
            while (it.next())
                if (!it.missing())
                    (void)addCells(it.value(), doc, true, cells);
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
            Status s = addCells(e, doc, false, cells);
            if (!s.isOK())
                return s;
        }
    }
    std::sort(cells->begin(), cells->end());
    cells->erase(std::unique(cells->begin(), cells->end()), cells->end());
    return Status::OK();
}

}  // namespace mongo
