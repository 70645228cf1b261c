#include "mongo/db/pipeline/timeseries_rewrites.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::timeseries_rewrite {

namespace {

/** The meta field is unpacked unchanged (not excluded, not recomputed before unpacking). */
bool metaUsable(const BucketSpec& spec) {
    if (!spec.metaField || !spec.includes(*spec.metaField))
        return false;
    return std::find(spec.computedMetaProjFields.begin(), spec.computedMetaProjFields.end(),
                     *spec.metaField) == spec.computedMetaProjFields.end();
}

bool isSortDirection(const BSONElement& e) {
    return e.isNumber() && (e.numberDouble() == 1 || e.numberDouble() == -1);
}

/**
 * Copies the expression `e` under `name` into `out` with every "$<meta>..." field path
 * renamed to "$meta...". False when the expression reads any other field or a variable.
 */
bool appendRenamedMetaExpr(const BSONElement& e, StringData name, const BucketSpec& spec,
                           BSONObjBuilder* out) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (s.starts_with("$$"))
                return false;
            if (!s.starts_with("$")) {
                out->appendAs(e, name);
                return true;
            }
            auto renamed = renameMetaPath(s.substr(1), spec);
            if (!renamed)
                return false;
            out->append(name, "$" + *renamed);
            return true;
        }
        case BSONType::kObject: {
            BSONObjBuilder sub(out->subobjStart(name));
            for (auto f : e.embeddedObject()) {
                if (f.fieldNameStringData() == "$literal") {
                    sub.append(f);
                    continue;
                }
                if (!appendRenamedMetaExpr(f, f.fieldNameStringData(), spec, &sub))
                    return false;
            }
            return true;
        }
        case BSONType::kArray: {
            BSONObjBuilder sub(out->subarrayStart(name));
            for (auto f : e.embeddedObject())
                if (!appendRenamedMetaExpr(f, f.fieldNameStringData(), spec, &sub))
                    return false;
            return true;
        }
        default:
            out->appendAs(e, name);
            return true;
    }
}

/** "$f" with f a top-level measurement field (not meta); else nullopt. */
std::optional<std::string> plainMeasurementField(const BSONElement& e, const BucketSpec& spec) {
    if (e.type() != BSONType::kString)
        return std::nullopt;
    StringData s = e.valueStringData();
    if (s.size() < 2 || s[0] != '$' || s[1] == '$' || s.find('.') != StringData::npos)
        return std::nullopt;
    std::string f(s.substr(1));
    if (spec.metaField && f == *spec.metaField)
        return std::nullopt;
    return f;
}

}  // namespace

std::optional<std::string> renameMetaPath(StringData path, const BucketSpec& spec) {
    if (!spec.metaField)
        return std::nullopt;
    const std::string& m = *spec.metaField;
    if (path == m)
        return std::string("meta");
    if (path.size() > m.size() && path.starts_with(m) && path[m.size()] == '.')
        return "meta" + std::string(path.substr(m.size()));
    return std::nullopt;
}

std::optional<BSONObj> bucketSortForMetaSort(const BSONObj& sortSpec, const BucketSpec& spec) {
    if (!metaUsable(spec) || sortSpec.isEmpty())
        return std::nullopt;
    BSONObjBuilder b;
    for (auto e : sortSpec) {
        auto renamed = renameMetaPath(e.fieldNameStringData(), spec);
        if (!renamed || !isSortDirection(e))
            return std::nullopt;
        b.append(*renamed, e.numberInt());
    }
    return b.obj();
}

std::optional<BoundedSortPlan> planBoundedSort(const BSONObj& sortSpec, const BucketSpec& spec) {
    if (sortSpec.isEmpty() || !spec.includes(spec.timeField))
        return std::nullopt;
    std::vector<BSONElement> keys;
    for (auto e : sortSpec)
        keys.push_back(e);
    const BSONElement& last = keys.back();
    if (last.fieldNameStringData() != spec.timeField || !isSortDirection(last))
        return std::nullopt;
    BSONObjBuilder b;
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
        if (!metaUsable(spec))
            return std::nullopt;
        auto renamed = renameMetaPath(keys[i].fieldNameStringData(), spec);
        if (!renamed || !isSortDirection(keys[i]))
            return std::nullopt;
        b.append(*renamed, keys[i].numberInt());
    }
    bool asc = last.numberDouble() == 1;
    b.append("control.min." + spec.timeField, asc ? 1 : -1);
    return BoundedSortPlan{b.obj(), asc};
}

BSONObj bucketCountExpression(const std::string& timeField) {
    return BSON("$cond" << BSON_ARRAY(
                    BSON("$gte" << BSON_ARRAY("$control.version" << 2)) << "$control.count"
                                << BSON("$size" << BSON("$objectToArray" << ("$data." + timeField)))));
}

std::optional<GroupRewrite> rewriteGroupOverBuckets(const BSONObj& groupSpec,
                                                    const BucketSpec& spec) {
    if (!groupSpec.hasField("_id"))
        return std::nullopt;
    if (spec.metaField && !metaUsable(spec))
        return std::nullopt;
    GroupRewrite out;
    BSONObjBuilder b;
    for (auto e : groupSpec) {
        StringData name = e.fieldNameStringData();
        if (name == "_id") {
            if (!appendRenamedMetaExpr(e, "_id", spec, &b))
                return std::nullopt;
            continue;
        }
        if (e.type() != BSONType::kObject || e.embeddedObject().nFields() != 1)
            return std::nullopt;
        BSONElement acc = e.embeddedObject().firstElement();
        StringData op = acc.fieldNameStringData();
        if (op == "$min" || op == "$max") {
            auto f = plainMeasurementField(acc, spec);
            if (!f || (op == "$min" && *f == spec.timeField))
                return std::nullopt;
            bool isMin = op == "$min";
            (isMin ? out.minFields : out.maxFields).push_back(*f);
            b.append(name, BSON(op << ("$control." + std::string(isMin ? "min." : "max.") + *f)));
        } else if ((op == "$sum" && acc.type() == BSONType::kNumberInt && acc._numberInt() == 1) ||
                   (op == "$count" && acc.type() == BSONType::kObject &&
                    acc.embeddedObject().isEmpty())) {
            b.append(name, BSON("$sum" << bucketCountExpression(spec.timeField)));
        } else {
            return std::nullopt;
        }
    }
    out.bucketGroup = b.obj();
    return out;
}

}  // namespace mongo::timeseries_rewrite
