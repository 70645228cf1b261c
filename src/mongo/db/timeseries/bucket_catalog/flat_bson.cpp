#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "mongo/bson/bson_comparator.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries::bucket_catalog {

namespace {
constexpr int kObjectShape = -100;
constexpr int kArrayShape = -101;

int shapeOf(const BSONElement& e) {
    if (e.type() == BSONType::kObject)
        return kObjectShape;
    if (e.type() == BSONType::kArray)
        return kArrayShape;
    return canonicalizeBSONType(e.type());
}
}  // namespace

/**
 * Canonical comparison of `e` with a stored value of the same type (double, date, long or
 * int) whose value bytes start at `stored`. Doubles follow the canonical order (NaN lowest,
 * -0 == 0).
 */
inline int compareSameTypeScalar(const BSONElement& e, const char* stored) {
    switch (e.type()) {
        case BSONType::kNumberDouble: {
            double r;
            std::memcpy(&r, stored, sizeof(r));
            return compareDoubles(e.numberDouble(), r);
        }
        case BSONType::kNumberInt: {
            int32_t l = e.numberInt(), r;
            std::memcpy(&r, stored, sizeof(r));
            return l < r ? -1 : (l > r ? 1 : 0);
        }
        default: {  // date, long
            int64_t l, r;
            std::memcpy(&l, e.value(), sizeof(l));
            std::memcpy(&r, stored, sizeof(r));
            return l < r ? -1 : (l > r ? 1 : 0);
        }
    }
}

// One slot of control.min or control.max: unset, a scalar, or an object/array of slots.
struct MinMax::Node {
    enum class Kind { kUnset, kScalar, kObject, kArray };
    Kind kind = Kind::kUnset;
    // kScalar: the element's bytes with an empty field name (type, NUL, value); short
    // scalars stay in the string's inline buffer, so most updates do not allocate.
    std::string value;
    std::vector<std::pair<std::string, Node>> children;

    BSONElement scalar() const {
        return BSONElement(value.data(), 1);
    }
    int rank() const {
        if (kind == Kind::kObject)
            return canonicalizeBSONType(BSONType::kObject);
        if (kind == Kind::kArray)
            return canonicalizeBSONType(BSONType::kArray);
        return canonicalizeBSONType(scalar().type());
    }
    /** The slot `name`, created last when new; `guess` is its likely position. */
    Node& child(StringData name, size_t guess = 0) {
        if (guess < children.size() && children[guess].first == name)
            return children[guess].second;
        for (auto& [n, c] : children)
            if (n == name)
                return c;
        children.emplace_back(std::string(name), Node());
        return children.back().second;
    }
    void setScalar(const BSONElement& e) {
        value.clear();
        value.push_back(static_cast<char>(e.type()));
        value.push_back('\0');
        value.append(e.value(), e.valuesize());
        kind = Kind::kScalar;
        children.clear();
    }
    void becomeContainer(Kind k) {
        if (kind != k) {
            kind = k;
            value.clear();
            children.clear();
        }
    }

    // sign = -1 for min, +1 for max; `strings` orders string values (null: binary).
    void update(const BSONElement& e, int sign, const StringComparator* strings) {
        const bool container = e.type() == BSONType::kObject || e.type() == BSONType::kArray;
        if (container) {
            const Kind k = e.type() == BSONType::kObject ? Kind::kObject : Kind::kArray;
            const int r = canonicalizeBSONType(e.type());
            // Take the container shape when unset, same shape, or the current value is
            // "worse" (higher rank for min, lower rank for max).
            if (kind == Kind::kUnset || kind == k || (rank() - r) * sign < 0) {
                becomeContainer(k);
                size_t i = 0;
                for (auto&& sub : e.Obj())
                    child(sub.fieldNameStringData(), i++).update(sub, sign, strings);
            }
            return;
        }
        if (kind == Kind::kUnset) {
            setScalar(e);
            return;
        }
        int cmp;
        if (kind == Kind::kScalar && e.type() == static_cast<BSONType>(value[0]) &&
            (e.type() == BSONType::kNumberDouble || e.type() == BSONType::kDate ||
             e.type() == BSONType::kNumberLong || e.type() == BSONType::kNumberInt)) {
            // The common case (a measurement field keeps its type): compare in place.
            cmp = compareSameTypeScalar(e, value.data() + 2);
        } else if (kind == Kind::kScalar) {
            cmp = compareElementValues(e, scalar(), strings);
        } else {
            cmp = canonicalizeBSONType(e.type()) - rank();
        }
        if (cmp * sign > 0)
            setScalar(e);
    }

    void appendTo(BSONObjBuilder& b, StringData name) const {
        switch (kind) {
            case Kind::kUnset:
                return;
            case Kind::kScalar:
                b.appendAs(scalar(), name);
                return;
            case Kind::kObject: {
                BSONObjBuilder sub(b.subobjStart(name));
                for (auto& [n, c] : children)
                    c.appendTo(sub, n);
                return;
            }
            case Kind::kArray: {
                BSONObjBuilder sub(b.subarrayStart(name));
                for (auto& [n, c] : children)
                    c.appendTo(sub, n);
                return;
            }
        }
    }
};

MinMax::MinMax(const StringComparator* strings)
    : _min(std::make_unique<Node>()), _max(std::make_unique<Node>()), _strings(strings) {
    _min->kind = Node::Kind::kObject;
    _max->kind = Node::Kind::kObject;
}
MinMax::~MinMax() = default;
MinMax::MinMax(const MinMax& o)
    : _min(std::make_unique<Node>(*o._min)),
      _max(std::make_unique<Node>(*o._max)),
      _strings(o._strings) {}
MinMax& MinMax::operator=(const MinMax& o) {
    if (this != &o) {
        _min = std::make_unique<Node>(*o._min);
        _max = std::make_unique<Node>(*o._max);
        _strings = o._strings;
    }
    return *this;
}
MinMax::MinMax(MinMax&&) noexcept = default;
MinMax& MinMax::operator=(MinMax&&) noexcept = default;

MinMax MinMax::parseFromBSON(const BSONObj& min, const BSONObj& max,
                             const StringComparator* strings) {
    MinMax mm(strings);
    for (auto&& e : min)
        mm._min->child(e.fieldNameStringData()).update(e, -1, strings);
    for (auto&& e : max)
        mm._max->child(e.fieldNameStringData()).update(e, +1, strings);
    return mm;
}

void MinMax::update(const BSONObj& doc, std::optional<StringData> metaField) {
    size_t i = 0;  // fields usually come in the same order in every measurement
    for (auto&& e : doc) {
        StringData name = e.fieldNameStringData();
        if (metaField && name == *metaField)
            continue;
        updateField(e, i);
        ++i;
    }
}

void MinMax::updateField(const BSONElement& e, size_t position) {
    StringData name = e.fieldNameStringData();
    _min->child(name, position).update(e, -1, _strings);
    _max->child(name, position).update(e, +1, _strings);
}

BSONObj MinMax::min() const {
    BSONObjBuilder b;
    for (auto& [n, c] : _min->children)
        c.appendTo(b, n);
    return b.obj();
}

BSONObj MinMax::max() const {
    BSONObjBuilder b;
    for (auto& [n, c] : _max->children)
        c.appendTo(b, n);
    return b.obj();
}

namespace {

using ShapeMap = Schema::ShapeMap;
using FreshShapes = std::vector<std::pair<std::string, int>>;

/**
 * Checks the shape of every path of `obj` (prefixed by `path`, a buffer reused across
 * calls) against `known`; paths not in `known` are collected once in `fresh`. False when a
 * path has two shapes. No allocation when every path is already known.
 */
bool checkShapes(const BSONObj& obj, std::string& path, const ShapeMap& known,
                 std::optional<StringData> skip, FreshShapes* fresh) {
    for (auto&& e : obj) {
        StringData name = e.fieldNameStringData();
        if (skip && path.empty() && name == *skip)
            continue;
        const size_t before = path.size();
        if (before)
            path += '.';
        path.append(name.data(), name.size());
        const int shape = shapeOf(e);
        if (auto it = known.find(std::string_view(path)); it != known.end()) {
            if (it->second != shape)
                return false;
        } else {
            auto f = std::find_if(fresh->begin(), fresh->end(),
                                  [&](const auto& p) { return p.first == path; });
            if (f == fresh->end())
                fresh->emplace_back(path, shape);
            else if (f->second != shape)
                return false;
        }
        if ((shape == kObjectShape || shape == kArrayShape) &&
            !checkShapes(e.Obj(), path, known, std::nullopt, fresh))
            return false;
        path.resize(before);
    }
    return true;
}

bool collectShapes(const BSONObj& obj, const ShapeMap& known, std::optional<StringData> skip,
                   FreshShapes* fresh) {
    std::string path;
    path.reserve(64);
    return checkShapes(obj, path, known, skip, fresh);
}

}  // namespace

StatusWith<Schema> Schema::parseFromBSON(const BSONObj& min, const BSONObj& max) {
    FreshShapes fromMin, fromMax;
    ShapeMap minShapes;
    if (collectShapes(min, {}, std::nullopt, &fromMin)) {
        minShapes.insert(fromMin.begin(), fromMin.end());
        if (collectShapes(max, minShapes, std::nullopt, &fromMax)) {
            Schema s;
            s._shapes = std::move(minShapes);
            s._shapes.insert(fromMax.begin(), fromMax.end());
            return s;
        }
    }
    return Status(ErrorCodes::BadValue, "control.min and control.max have mixed schema");
}

bool Schema::compatible(const BSONObj& doc, std::optional<StringData> metaField) const {
    FreshShapes fresh;
    return collectShapes(doc, _shapes, metaField, &fresh);
}

Schema::UpdateStatus Schema::update(const BSONObj& doc, std::optional<StringData> metaField) {
    FreshShapes fresh;
    if (!collectShapes(doc, _shapes, metaField, &fresh))
        return UpdateStatus::kFailed;
    _shapes.insert(fresh.begin(), fresh.end());
    return UpdateStatus::kUpdated;
}

}  // namespace mongo::timeseries::bucket_catalog
