#include "mongo/db/query/sort_pattern.h"

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/path.h"
#include "mongo/db/query/collation/collator_interface.h"

namespace mongo {

namespace {

Status checkSortPath(StringData name) {
    if (name.empty())
        return Status(ErrorCodes::Error(40352),
                      "FieldPath cannot be constructed with empty string");
    FieldPath fp(name);
    for (const auto& part : fp.parts()) {
        if (part.empty())
            return Status(ErrorCodes::Error(15998),
                          "FieldPath field names may not be empty strings.");
        if (part[0] == '$' && !(name == "$natural") && !isDBRefFieldName(part))
            return Status(ErrorCodes::Error(16410),
                          "FieldPath field names may not start with '$'. Consider using "
                          "$getField or $setField.");
    }
    return Status::OK();
}

const BSONObj& nullHolder() {
    static const BSONObj o = [] {
        BSONObjBuilder b;
        b.appendNull("");
        return b.obj();
    }();
    return o;
}
const BSONObj& undefinedHolder() {
    static const BSONObj o = [] {
        BSONObjBuilder b;
        b.append("", BSONUndefined);
        return b.obj();
    }();
    return o;
}

/** The key value of one part for `doc` (a view into `doc` or a static null/undefined). */
BSONElement keyFor(const BSONObj& doc, const SortPattern::Part& part,
                   const StringComparator* strings) {
    BSONElement best;
    bool have = false;
    walkPath(doc, part.path, LeafArrayBehavior::kTraverse, [&](const PathValue& v) {
        BSONElement e = v.element;
        if (v.isWholeLeafArray) {
            if (!e.Obj().isEmpty())
                return false;
            e = undefinedHolder().firstElement();
        } else if (e.eoo()) {
            e = nullHolder().firstElement();
        }
        if (!have) {
            best = e;
            have = true;
        } else {
            int c = compareElementValues(e, best, strings);
            if (part.ascending ? c < 0 : c > 0)
                best = e;
        }
        return false;
    });
    return have ? best : nullHolder().firstElement();
}

}  // namespace

StatusWith<SortPattern> SortPattern::parse(const BSONObj& spec) {
    SortPattern out;
    out._spec = spec.getOwned();
    for (BSONElement e : out._spec) {
        StringData name = e.fieldNameStringData();
        Status s = checkSortPath(name);
        if (!s.isOK())
            return s;
        Part part;
        if (e.type() == BSONType::kObject) {
            BSONObj o = e.Obj();
            BSONElement meta = o["$meta"];
            if (meta.eoo() || o.nFields() != 1)
                return Status(ErrorCodes::Error(17312),
                              "$meta is the only expression supported by $sort right now");
            StringData m = meta.valueStringData();
            if (meta.type() != BSONType::kString || (m != "textScore" && m != "searchScore" &&
                                                     m != "randVal" && m != "geoNearDistance"))
                return Status(ErrorCodes::Error(31138), "Illegal $meta sort: " + e.toString());
            part.metaName = std::string(m);
            part.ascending = false;
        } else if (e.isNumber()) {
            double d = e.numberDouble();
            if (d != 1 && d != -1)
                return Status(
                    ErrorCodes::Error(15975),
                    "$sort key ordering must be 1 (for ascending) or -1 (for descending)");
            part.ascending = d == 1;
        } else {
            return Status(ErrorCodes::Error(15974),
                          "Illegal key in $sort specification: " + e.toString());
        }
        if (name == "$natural") {
            if (!part.metaName.empty())
                return Status(ErrorCodes::Error(15974),
                              "Illegal key in $sort specification: " + e.toString());
            out._natural = part.ascending ? 1 : -1;
            continue;
        }
        part.path = FieldPath(name);
        out._parts.push_back(std::move(part));
    }
    return out;
}

int SortPattern::compare(const BSONObj& a, const BSONObj& b) const {
    for (const Part& p : _parts) {
        if (!p.metaName.empty())
            continue;
        int c = compareElementValues(keyFor(a, p, _collator), keyFor(b, p, _collator), _collator);
        if (c != 0)
            return p.ascending ? c : -c;
    }
    return 0;
}

BSONObj SortPattern::getSortKey(const BSONObj& doc) const {
    BSONObjBuilder b;
    for (const Part& p : _parts) {
        if (!p.metaName.empty())
            b.appendNull("");
        else
            b.appendAs(keyFor(doc, p, _collator), "");
    }
    return b.obj();
}

int SortPattern::compareSortKeys(const BSONObj& ka, const BSONObj& kb) const {
    auto ia = ka.begin(), ib = kb.begin();
    for (const Part& p : _parts) {
        if (!ia.more() || !ib.more())
            break;
        BSONElement x = ia.next(), y = ib.next();
        if (!p.metaName.empty())
            continue;
        int c = compareElementValues(x, y, _collator);
        if (c != 0)
            return p.ascending ? c : -c;
    }
    return 0;
}

}  // namespace mongo
