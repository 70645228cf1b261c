#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"

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

// One slot of control.min or control.max: unset, a scalar, or an object/array of slots.
struct MinMax::Node {
    enum class Kind { kUnset, kScalar, kObject, kArray };
    Kind kind = Kind::kUnset;
    BSONObj value;  // {"": scalar} when kScalar
    std::vector<std::pair<std::string, Node>> children;

    BSONElement scalar() const {
        return value.firstElement();
    }
    int rank() const {
        if (kind == Kind::kObject)
            return canonicalizeBSONType(BSONType::kObject);
        if (kind == Kind::kArray)
            return canonicalizeBSONType(BSONType::kArray);
        return canonicalizeBSONType(scalar().type());
    }
    Node& child(StringData name) {
        for (auto& [n, c] : children)
            if (n == name)
                return c;
        children.emplace_back(std::string(name), Node());
        return children.back().second;
    }
    void setScalar(const BSONElement& e) {
        BSONObjBuilder b;
        b.appendAs(e, "");
        value = b.obj();
        kind = Kind::kScalar;
        children.clear();
    }
    void becomeContainer(Kind k) {
        if (kind != k) {
            kind = k;
            value = BSONObj();
            children.clear();
        }
    }

    // sign = -1 for min, +1 for max.
    void update(const BSONElement& e, int sign) {
        const bool container = e.type() == BSONType::kObject || e.type() == BSONType::kArray;
        if (container) {
            const Kind k = e.type() == BSONType::kObject ? Kind::kObject : Kind::kArray;
            const int r = canonicalizeBSONType(e.type());
            // Take the container shape when unset, same shape, or the current value is
            // "worse" (higher rank for min, lower rank for max).
            if (kind == Kind::kUnset || kind == k || (rank() - r) * sign < 0) {
                becomeContainer(k);
                for (auto&& sub : e.Obj())
                    child(sub.fieldNameStringData()).update(sub, sign);
            }
            return;
        }
        if (kind == Kind::kUnset) {
            setScalar(e);
            return;
        }
        int cmp;
        if (kind == Kind::kScalar)
            cmp = compareElementValues(e, scalar());
        else
            cmp = canonicalizeBSONType(e.type()) - rank();
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

MinMax::MinMax() : _min(std::make_unique<Node>()), _max(std::make_unique<Node>()) {
    _min->kind = Node::Kind::kObject;
    _max->kind = Node::Kind::kObject;
}
MinMax::~MinMax() = default;
MinMax::MinMax(const MinMax& o)
    : _min(std::make_unique<Node>(*o._min)), _max(std::make_unique<Node>(*o._max)) {}
MinMax& MinMax::operator=(const MinMax& o) {
    if (this != &o) {
        _min = std::make_unique<Node>(*o._min);
        _max = std::make_unique<Node>(*o._max);
    }
    return *this;
}
MinMax::MinMax(MinMax&&) noexcept = default;
MinMax& MinMax::operator=(MinMax&&) noexcept = default;

MinMax MinMax::parseFromBSON(const BSONObj& min, const BSONObj& max) {
    MinMax mm;
    for (auto&& e : min)
        mm._min->child(e.fieldNameStringData()).update(e, -1);
    for (auto&& e : max)
        mm._max->child(e.fieldNameStringData()).update(e, +1);
    return mm;
}

void MinMax::update(const BSONObj& doc, std::optional<StringData> metaField) {
    for (auto&& e : doc) {
        StringData name = e.fieldNameStringData();
        if (metaField && name == *metaField)
            continue;
        _min->child(name).update(e, -1);
        _max->child(name).update(e, +1);
    }
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

using ShapeMap = std::unordered_map<std::string, int>;

// Collects path -> shape of `obj`; false when a path has two shapes in `known` or `obj`.
bool collectShapes(const BSONObj& obj, const std::string& prefix, const ShapeMap& known,
                   std::optional<StringData> skip, ShapeMap* out) {
    for (auto&& e : obj) {
        StringData name = e.fieldNameStringData();
        if (skip && prefix.empty() && name == *skip)
            continue;
        std::string path = prefix.empty() ? std::string(name) : prefix + "." + std::string(name);
        const int shape = shapeOf(e);
        if (auto it = known.find(path); it != known.end() && it->second != shape)
            return false;
        auto [it, inserted] = out->emplace(path, shape);
        if (!inserted && it->second != shape)
            return false;
        if (shape == kObjectShape || shape == kArrayShape) {
            if (!collectShapes(e.Obj(), path, known, std::nullopt, out))
                return false;
        }
    }
    return true;
}

}  // namespace

StatusWith<Schema> Schema::parseFromBSON(const BSONObj& min, const BSONObj& max) {
    ShapeMap fromMin, fromMax;
    if (!collectShapes(min, "", {}, std::nullopt, &fromMin) ||
        !collectShapes(max, "", fromMin, std::nullopt, &fromMax)) {
        return Status(ErrorCodes::BadValue, "control.min and control.max have mixed schema");
    }
    Schema s;
    s._shapes = std::move(fromMin);
    s._shapes.insert(fromMax.begin(), fromMax.end());
    return s;
}

bool Schema::compatible(const BSONObj& doc, std::optional<StringData> metaField) const {
    ShapeMap seen;
    return collectShapes(doc, "", _shapes, metaField, &seen);
}

Schema::UpdateStatus Schema::update(const BSONObj& doc, std::optional<StringData> metaField) {
    ShapeMap seen;
    if (!collectShapes(doc, "", _shapes, metaField, &seen))
        return UpdateStatus::kFailed;
    _shapes.insert(seen.begin(), seen.end());
    return UpdateStatus::kUpdated;
}

}  // namespace mongo::timeseries::bucket_catalog
