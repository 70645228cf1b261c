#include "mongo/db/pipeline/document_path.h"

#include "mongo/db/matcher/path.h"
#include "mongo/util/assert_util.h"

namespace mongo {

std::vector<std::string> splitFieldPath(StringData dotted) {
    uassert(40352, "FieldPath cannot be constructed with empty string", !dotted.empty());
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t dot = dotted.find('.', start);
        StringData part =
            dotted.substr(start, dot == StringData::npos ? StringData::npos : dot - start);
        uassert(15998, "FieldPath field names may not be empty strings.", !part.empty());
        uassert(16410,
                "FieldPath field names may not start with '$'. Consider using $getField or "
                "$setField.",
                !part.starts_with("$") || isDBRefFieldName(part));
        parts.emplace_back(part);
        if (dot == StringData::npos)
            break;
        start = dot + 1;
    }
    return parts;
}

Value getNestedField(const BSONObj& doc, const std::vector<std::string>& parts) {
    BSONObj cur = doc;
    for (size_t i = 0; i < parts.size(); ++i) {
        BSONElement e = cur.getField(parts[i]);
        if (e.eoo())
            return Value();
        if (i + 1 == parts.size())
            return Value(e);
        if (e.type() != BSONType::kObject)
            return Value();
        cur = e.Obj();
    }
    return Value();
}

BSONObj setNestedField(const BSONObj& doc, const std::vector<std::string>& parts, const Value& v,
                       size_t depth) {
    BSONObjBuilder b;
    bool found = false;
    const std::string& name = parts[depth];
    bool last = depth + 1 == parts.size();
    for (auto e : doc) {
        if (e.fieldNameStringData() != name) {
            b.append(e);
            continue;
        }
        found = true;
        if (last) {
            v.addToBsonObj(&b, name);
        } else {
            BSONObj sub = e.type() == BSONType::kObject ? e.Obj() : BSONObj();
            b.append(name, setNestedField(sub, parts, v, depth + 1));
        }
    }
    if (!found) {
        if (last)
            v.addToBsonObj(&b, name);
        else if (!v.missing())
            b.append(name, setNestedField(BSONObj(), parts, v, depth + 1));
    }
    return b.obj();
}

}  // namespace mongo
