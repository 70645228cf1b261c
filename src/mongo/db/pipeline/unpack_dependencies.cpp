#include "mongo/db/pipeline/unpack_dependencies.h"

namespace mongo {

namespace {

std::string topLevel(StringData path) {
    return std::string(path.substr(0, path.find('.')));
}

/** Adds every "$field" string under `e`; false on "$$var" (unknown needs). */
bool collectFieldRefs(const BSONElement& e, std::set<std::string>* out) {
    switch (e.type()) {
        case BSONType::kString: {
            StringData s = e.valueStringData();
            if (s.size() >= 2 && s[0] == '$' && s[1] == '$')
                return s == "$$NOW" || s == "$$REMOVE" || s == "$$CLUSTER_TIME";
            if (s.size() >= 2 && s[0] == '$')
                out->insert(topLevel(s.substr(1)));
            return true;
        }
        case BSONType::kObject:
        case BSONType::kArray:
            for (auto sub : e.embeddedObject()) {
                // {$literal: ...} holds data, not references.
                if (sub.fieldNameStringData() == "$literal")
                    continue;
                // $getField names its field as a literal; without `input` it reads $$CURRENT,
                // the whole document (with one, the input is what it reads).
                if (readsCurrentDocumentImplicitly(sub))
                    return false;
                // $top/$bottom/$topN/$bottomN order by a key pattern of paths, not by
                // expressions ($sortArray's paths are inside its array: reading more is harmless).
                if (sub.fieldNameStringData() == "sortBy" && sub.type() == BSONType::kObject) {
                    for (auto k : sub.embeddedObject())
                        out->insert(topLevel(k.fieldNameStringData()));
                    continue;
                }
                if (!collectFieldRefs(sub, out))
                    return false;
            }
            return true;
        default:
            return true;
    }
}

bool collectMatch(const BSONObj& filter, std::set<std::string>* out) {
    for (auto e : filter) {
        StringData f = e.fieldNameStringData();
        if (f == "$and" || f == "$or" || f == "$nor") {
            if (e.type() != BSONType::kArray)
                return false;
            for (auto sub : e.embeddedObject()) {
                if (sub.type() != BSONType::kObject || !collectMatch(sub.embeddedObject(), out))
                    return false;
            }
        } else if (f == "$expr") {
            if (!collectFieldRefs(e, out))
                return false;
        } else if (f == "$comment") {
            continue;
        } else if (!f.empty() && f[0] == '$') {
            return false;  // $where, $text, $jsonSchema...: whole documents
        } else {
            out->insert(topLevel(f));
        }
    }
    return true;
}

}  // namespace

bool readsCurrentDocumentImplicitly(const BSONElement& op) {
    return op.fieldNameStringData() == "$getField" &&
           !(op.type() == BSONType::kObject && op.embeddedObject().hasField("input"));
}

std::optional<std::set<std::string>> matchFilterFields(const BSONObj& filter) {
    std::set<std::string> out;
    if (!collectMatch(filter, &out))
        return std::nullopt;
    return out;
}

std::optional<std::set<std::string>> neededTopLevelFields(const std::vector<BSONObj>& stages) {
    std::set<std::string> needed;
    for (const auto& stage : stages) {
        BSONElement spec = stage.firstElement();
        StringData name = spec.fieldNameStringData();
        if (name == "$match") {
            if (spec.type() != BSONType::kObject || !collectMatch(spec.embeddedObject(), &needed))
                return std::nullopt;
        } else if (name == "$sort") {
            if (spec.type() != BSONType::kObject)
                return std::nullopt;
            for (auto k : spec.embeddedObject())
                needed.insert(topLevel(k.fieldNameStringData()));
        } else if (name == "$_internalBoundedSort") {
            if (spec.type() != BSONType::kObject ||
                spec.embeddedObject()["sortKey"].type() != BSONType::kObject)
                return std::nullopt;
            for (auto k : spec.embeddedObject()["sortKey"].embeddedObject())
                needed.insert(topLevel(k.fieldNameStringData()));
        } else if (name == "$limit" || name == "$skip") {
            continue;
        } else if (name == "$addFields" || name == "$set") {
            if (!collectFieldRefs(spec, &needed))
                return std::nullopt;
            // The added fields shadow measurement fields of the same name; keeping them
            // in the include list is harmless.
        } else if (name == "$group" || name == "$replaceRoot" || name == "$replaceWith" ||
                   name == "$sortByCount" || name == "$bucket") {
            if (!collectFieldRefs(spec, &needed))
                return std::nullopt;
            return needed;
        } else if (name == "$count") {
            return needed;
        } else if (name == "$project") {
            if (spec.type() != BSONType::kObject)
                return std::nullopt;
            bool inclusion = false;
            for (auto f : spec.embeddedObject()) {
                StringData fn = f.fieldNameStringData();
                if ((f.isNumber() || f.isBoolean()) && !f.trueValue()) {
                    if (fn == "_id")
                        continue;
                    return std::nullopt;  // exclusion projection: passes everything else on
                }
                inclusion = true;
                if (f.isNumber() || f.isBoolean()) {
                    needed.insert(topLevel(fn));
                    continue;
                }
                if (!collectFieldRefs(f, &needed))
                    return std::nullopt;
                // A computed dotted path ({"c.a": e}) or sub-projection ({c: {a: e}}) writes
                // into the measurement's own c (into each element of an array): c is read.
                bool subProjection =
                    f.type() == BSONType::kObject && !f.embeddedObject().isEmpty() &&
                    !f.embeddedObject().firstElementFieldNameStringData().starts_with("$");
                if (fn.find('.') != StringData::npos || subProjection)
                    needed.insert(topLevel(fn));
            }
            if (!inclusion)
                return std::nullopt;
            if (!spec.embeddedObject().hasField("_id") || spec.embeddedObject()["_id"].trueValue())
                needed.insert("_id");
            return needed;
        } else {
            return std::nullopt;
        }
    }
    return std::nullopt;  // the documents leave the pipeline whole
}

}  // namespace mongo
