#include "mongo/db/matcher/path.h"

namespace mongo {

FieldPath::FieldPath(StringData dotted) : _dotted(dotted) {
    size_t start = 0;
    while (true) {
        size_t dot = dotted.find('.', start);
        if (dot == StringData::npos) {
            _parts.emplace_back(dotted.substr(start));
            break;
        }
        _parts.emplace_back(dotted.substr(start, dot - start));
        start = dot + 1;
    }
}

bool FieldPath::hasEmptyComponent() const {
    for (const auto& p : _parts)
        if (p.empty())
            return true;
    return false;
}

bool isArrayIndexComponent(StringData s) {
    if (s.empty())
        return false;
    for (char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}

namespace {

class Walker {
public:
    Walker(const FieldPath& path, LeafArrayBehavior leaf,
           const std::function<bool(const PathValue&)>& fn)
        : _path(path), _leaf(leaf), _fn(fn) {}

    bool walkObject(const BSONObj& obj, size_t i, int outer) {
        BSONElement e = obj.getField(_path.part(i));
        return walkElement(e, i, outer);
    }

private:
    // `e` is the value found for component i.
    bool walkElement(const BSONElement& e, size_t i, int outer) {
        if (e.eoo())
            return emit(BSONElement(), outer);
        if (i + 1 == _path.numParts())
            return emitLeaf(e, outer);
        if (e.type() == BSONType::kObject)
            return walkObject(e.Obj(), i + 1, outer);
        if (e.type() == BSONType::kArray)
            return walkArray(e, i + 1, outer);
        return emit(BSONElement(), outer);
    }

    // Applies components j.. to the elements of the array `arr`.
    bool walkArray(const BSONElement& arr, size_t j, int outer) {
        int pos = 0;
        for (BSONElement el : arr.Obj()) {
            int idx = outer < 0 ? pos : outer;
            ++pos;
            if (el.type() == BSONType::kObject && walkObject(el.Obj(), j, idx))
                return true;
        }
        StringData comp = _path.part(j);
        if (isArrayIndexComponent(comp)) {
            BSONElement sub = arr.Obj().getField(comp);
            if (!sub.eoo()) {
                // An element reached by its offset is not a position for `$` (only arrays
                // traversed implicitly give one): the outer index stays as it was.
                const int idx = outer;
                if (j + 1 == _path.numParts())
                    return emitLeaf(sub, idx);
                if (sub.type() == BSONType::kObject)
                    return walkObject(sub.Obj(), j + 1, idx);
                if (sub.type() == BSONType::kArray)
                    return walkArray(sub, j + 1, idx);
                return emit(BSONElement(), idx);
            }
        }
        return false;
    }

    bool emitLeaf(const BSONElement& e, int outer) {
        if (e.type() == BSONType::kArray && _leaf == LeafArrayBehavior::kTraverse) {
            int pos = 0;
            for (BSONElement el : e.Obj()) {
                if (emit(el, outer < 0 ? pos : outer))
                    return true;
                ++pos;
            }
            return _fn(PathValue{e, outer, true});
        }
        return emit(e, outer);
    }

    bool emit(const BSONElement& e, int outer) {
        return _fn(PathValue{e, outer, false});
    }

    const FieldPath& _path;
    LeafArrayBehavior _leaf;
    const std::function<bool(const PathValue&)>& _fn;
};

}  // namespace

bool walkPath(const BSONObj& doc, const FieldPath& path, LeafArrayBehavior leaf,
              const std::function<bool(const PathValue&)>& fn) {
    Walker w(path, leaf, fn);
    return w.walkObject(doc, 0, -1);
}

}  // namespace mongo
