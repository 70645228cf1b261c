// InterleavedSchema: flattened reference object and the one-pass compatibility walk (§A.8.6).
#include "mongo/bson/column/interleaved_schema.h"

#include "mongo/bson/bsonelement.h"

namespace mongo::bsoncolumn {
namespace {

inline bool isSubdocType(BSONType t) {
    return t == BSONType::kObject || t == BSONType::kArray;
}

// Size of the value bytes of the element at `p` whose name is `nameLen` bytes long.
inline size_t valueSize(BSONType t, const char* p, uint32_t nameLen) {
    switch (t) {
        case BSONType::kNumberInt:
            return 4;
        case BSONType::kNumberDouble:
        case BSONType::kNumberLong:
        case BSONType::kDate:
        case BSONType::kTimestamp:
            return 8;
        case BSONType::kBool:
            return 1;
        case BSONType::kOid:
            return 12;
        case BSONType::kNull:
        case BSONType::kUndefined:
        case BSONType::kMinKey:
        case BSONType::kMaxKey:
            return 0;
        case BSONType::kString:
            return 4 + size_t(readLE<int32_t>(p + 2 + nameLen));
        default:
            return size_t(BSONElement(p, int(nameLen) + 1).valuesize());
    }
}

// True if the element name at `name` (NUL terminated) equals the node's name.
inline bool sameName(const char* name, const char* ref, uint32_t len) {
    for (uint32_t k = 0; k < len; ++k) {
        if (name[k] != ref[k])
            return false;
    }
    return name[len] == '\0';
}

}  // namespace

void InterleavedSchema::clear() {
    _nodes.clear();
    _leafCount = 0;
    _anyEmpty = false;
}

void InterleavedSchema::build(const BSONObj& ref) {
    clear();
    _add(ref);
    for (const Node& n : _nodes)
        _anyEmpty = _anyEmpty || n.empty;
}

void InterleavedSchema::_add(const BSONObj& o) {
    for (BSONElement e : o) {
        const size_t idx = _nodes.size();
        Node n{};
        n.name = e.fieldName();
        n.nameLen = uint32_t(e.fieldNameStringData().size());
        n.type = e.type();
        n.subdoc = isSubdocType(n.type);
        n.leaf = uint32_t(_leafCount);
        _nodes.push_back(n);
        if (n.subdoc) {
            _nodes[idx].empty = readLE<int32_t>(e.value()) <= 5;
            _add(BSONObj(e.value()));
            bool containsEmpty = _nodes[idx].empty;
            for (size_t j = idx + 1; j < _nodes.size(); ++j)
                containsEmpty = containsEmpty || _nodes[j].empty;
            _nodes[idx].containsEmpty = containsEmpty;
        } else {
            ++_leafCount;
        }
        _nodes[idx].end = uint32_t(_nodes.size());
        _nodes[idx].leafEnd = uint32_t(_leafCount);
    }
}

bool InterleavedSchema::match(const BSONObj& obj, std::vector<Val>* leaves) const {
    leaves->resize(_leafCount);
    const char* p = obj.objdata() + 4;
    return _match(0, _nodes.size(), p, leaves->data());
}

bool InterleavedSchema::_match(size_t first, size_t last, const char*& p, Val* leaves) const {
    for (size_t i = first; i < last;) {
        const Node& n = _nodes[i];
        const bool same = *p != '\0' && sameName(p + 1, n.name, n.nameLen);
        if (n.subdoc) {
            if (same) {
                if (BSONType(int8_t(*p)) != n.type)
                    return false;
                const char* v = p + 2 + n.nameLen;
                const int32_t size = readLE<int32_t>(v);
                if ((size <= 5) != n.empty)
                    return false;
                const char* q = v + 4;
                if (!_match(i + 1, n.end, q, leaves))
                    return false;
                p = v + size;
            } else {
                if (n.containsEmpty)
                    return false;
                for (uint32_t l = n.leaf; l < n.leafEnd; ++l)
                    leaves[l] = Val{BSONType::kEOO, nullptr, 0};
            }
            i = n.end;
            continue;
        }
        if (same) {
            const BSONType t = BSONType(int8_t(*p));
            if (isSubdocType(t))
                return false;
            const char* v = p + 2 + n.nameLen;
            const size_t size = valueSize(t, p, n.nameLen);
            leaves[n.leaf] = Val{t, v, size};
            p = v + size;
        } else {
            leaves[n.leaf] = Val{BSONType::kEOO, nullptr, 0};
        }
        ++i;
    }
    return *p == '\0';
}

}  // namespace mongo::bsoncolumn
