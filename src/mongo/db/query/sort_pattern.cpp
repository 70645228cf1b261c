#include "mongo/db/query/sort_pattern.h"

#include <absl/container/inlined_vector.h>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/path.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/util/assert_util.h"

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

/**
 * Computes a document's sort key the way an index over the sort pattern would key it, then
 * keeps the key that sorts first under the pattern (upstream's sort key generator). Paths are
 * resolved together: an array met on the way is expanded once for every part that goes through
 * it ({"a.b": 1, "a.c": 1} pairs b and c of the same element of `a`); an array reached as an
 * element of an array (also by a positional component, "a.0") is a value of its own. Two parts
 * through different arrays are parallel arrays (BadValue, as upstream). A missing field is
 * null, an empty array at the end of a path is undefined, an empty array in the middle null.
 */
using KeyElements = absl::InlinedVector<BSONElement, 4>;

class SortKeyBuilder {
public:
    SortKeyBuilder(const std::vector<SortPattern::Part>& parts, const StringComparator* strings)
        : _parts(parts), _strings(strings), _current(parts.size()) {}

    /** Fills `out` (one element per part; meta parts null) with the first key of `doc`. */
    void build(const BSONObj& doc, KeyElements* out) {
        _best = out;
        _best->assign(_parts.size(), BSONElement());
        _haveBest = false;
        PendingList pending;
        for (size_t i = 0; i < _parts.size(); ++i) {
            if (!_parts[i].metaName.empty()) {
                _current[i] = nullHolder().firstElement();
                continue;
            }
            resolve(i, doc, 0, &pending);
        }
        expand(pending);
    }

private:
    /** A part waiting for the elements of `array`; `nextComp` is where its path goes on. */
    struct Pending {
        size_t part;
        BSONElement array;
        size_t nextComp;
        bool leaf;
    };
    using PendingList = absl::InlinedVector<Pending, 2>;

    /** Follows part `i`'s path from component `comp` in `obj`: sets the value or defers. */
    void resolve(size_t i, const BSONObj& obj, size_t comp, PendingList* pending) {
        const FieldPath& path = _parts[i].path;
        const size_t n = path.numParts();
        BSONObj cur = obj;
        for (size_t c = comp; c < n; ++c) {
            BSONElement e = cur.getField(path.part(c));
            if (e.eoo())
                break;
            if (c == n - 1) {
                if (e.type() != BSONType::kArray)
                    _current[i] = e;
                else  // also when empty: it still counts as an array for parallel arrays
                    pending->push_back({i, e, n, true});
                return;
            }
            if (e.type() == BSONType::kObject) {
                cur = e.Obj();
                continue;
            }
            if (e.type() != BSONType::kArray)
                break;
            if (!isArrayIndexComponent(path.part(c + 1))) {
                pending->push_back({i, e, c + 1, false});
                return;
            }
            // A positional component takes that element as it is.
            BSONElement x = e.Obj().getField(path.part(c + 1));
            ++c;
            if (x.eoo())
                break;
            if (c == n - 1) {
                _current[i] = x;
                return;
            }
            if (x.type() != BSONType::kObject)
                break;
            cur = x.Obj();
        }
        _current[i] = nullHolder().firstElement();
    }

    void expand(const PendingList& pending) {
        if (pending.empty()) {
            consider();
            return;
        }
        const char* array = pending[0].array.rawdata();
        for (const auto& p : pending)
            uassert(ErrorCodes::BadValue, "cannot sort with keys that are parallel arrays",
                    p.array.rawdata() == array);
        BSONObj elements = pending[0].array.Obj();
        if (elements.isEmpty()) {
            for (const auto& p : pending)
                _current[p.part] = (p.leaf ? undefinedHolder() : nullHolder()).firstElement();
            consider();
            return;
        }
        for (BSONElement el : elements) {
            PendingList next;
            for (const auto& p : pending) {
                if (p.leaf)
                    _current[p.part] = el;
                else if (el.type() == BSONType::kObject)
                    resolve(p.part, el.Obj(), p.nextComp, &next);
                else
                    _current[p.part] = nullHolder().firstElement();
            }
            expand(next);
        }
    }

    /** Keeps `_current` when it sorts before the best key so far. */
    void consider() {
        if (_haveBest) {
            int c = 0;
            for (size_t i = 0; i < _parts.size() && c == 0; ++i) {
                if (!_parts[i].metaName.empty())
                    continue;
                c = compareElementValues(_current[i], (*_best)[i], _strings);
                if (!_parts[i].ascending)
                    c = -c;
            }
            if (c >= 0)
                return;
        }
        *_best = _current;
        _haveBest = true;
    }

    const std::vector<SortPattern::Part>& _parts;
    const StringComparator* _strings;
    KeyElements _current;
    KeyElements* _best = nullptr;
    bool _haveBest = false;
};

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
    KeyElements ka, kb;
    SortKeyBuilder(_parts, _collator).build(a, &ka);
    SortKeyBuilder(_parts, _collator).build(b, &kb);
    for (size_t i = 0; i < _parts.size(); ++i) {
        if (!_parts[i].metaName.empty())
            continue;
        int c = compareElementValues(ka[i], kb[i], _collator);
        if (c != 0)
            return _parts[i].ascending ? c : -c;
    }
    return 0;
}

BSONObj SortPattern::getSortKey(const BSONObj& doc, std::optional<double> textScore) const {
    KeyElements key;
    SortKeyBuilder(_parts, _collator).build(doc, &key);
    BSONObjBuilder b;
    for (size_t i = 0; i < key.size(); ++i) {
        if (textScore && _parts[i].metaName == kTextScoreMeta)
            b.append("", *textScore);
        else
            b.appendAs(key[i], "");
    }
    return b.obj();
}

int SortPattern::compareSortKeys(const BSONObj& ka, const BSONObj& kb) const {
    auto ia = ka.begin(), ib = kb.begin();
    for (const Part& p : _parts) {
        if (!ia.more() || !ib.more())
            break;
        BSONElement x = ia.next(), y = ib.next();
        if (!p.metaName.empty() && p.metaName != kTextScoreMeta)
            continue;
        int c = compareElementValues(x, y, _collator);
        if (c != 0)
            return p.ascending ? c : -c;
    }
    return 0;
}

}  // namespace mongo
