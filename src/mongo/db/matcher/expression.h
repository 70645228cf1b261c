// MatchExpression: the parsed form of a query filter ({a: {$gt: 1}, $or: [...]}).
// Trees are built by parseMatchExpression() (expression_parser.h) and are
// immutable afterwards (except for setCollator(), called once before use);
// matchesBSON() may be called from any thread.
//
//   auto swExpr = parseMatchExpression(fromjson(R"({"a": {"$gt": 1}})"));
//   bool m = swExpr.getValue()->matchesBSON(doc);
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/string_comparator.h"
#include "mongo/db/matcher/path.h"

namespace mongo {

class CollatorInterface;

/** Filled in by matchesBSON(): which array element made the match (positional `$`). */
class MatchDetails {
public:
    /** Asks the matcher to record the array position (off by default). */
    void requestElemMatchKey() {
        _wanted = true;
    }
    bool needRecord() const {
        return _wanted;
    }
    bool hasElemMatchKey() const {
        return _key.has_value();
    }
    /** The index, as a decimal string, of the matching element of the first array crossed. */
    const std::string& elemMatchKey() const {
        return *_key;
    }
    void setElemMatchKey(std::string key) {
        if (_wanted)
            _key = std::move(key);
    }
    void resetOutput() {
        _key.reset();
    }

private:
    bool _wanted = false;
    std::optional<std::string> _key;
};

class MatchExpression {
public:
    enum class MatchType {
        kAnd,
        kOr,
        kNor,
        kNot,
        kAlwaysTrue,
        kAlwaysFalse,
        kEq,
        kLt,
        kLte,
        kGt,
        kGte,
        kRegex,
        kMod,
        kExists,
        kIn,
        kType,
        kSize,
        kElemMatchObject,
        kElemMatchValue,
        kInternalExpr,
        kGeo,                      // $geoWithin / $geoIntersects (expression_geo.h)
        kInternalBucketGeoWithin,  // $_internalBucketGeoWithin on time-series buckets
        // $_internalExprEq/Gt/Gte/Lt/Lte (expression_leaf.h)
        kInternalExprEq,
        kInternalExprGt,
        kInternalExprGte,
        kInternalExprLt,
        kInternalExprLte,
        // $bitsAllSet / $bitsAllClear / $bitsAnySet / $bitsAnyClear (expression_bits.h)
        kBitsAllSet,
        kBitsAllClear,
        kBitsAnySet,
        kBitsAnyClear,
        kText,  // $text (expression_text.h)
    };

    explicit MatchExpression(MatchType t) : _type(t) {}
    virtual ~MatchExpression() = default;
    MatchExpression(const MatchExpression&) = delete;
    MatchExpression& operator=(const MatchExpression&) = delete;

    MatchType matchType() const {
        return _type;
    }

    /** True when `doc` satisfies the expression. `details` may be null. */
    virtual bool matches(const BSONObj& doc, MatchDetails* details) const = 0;
    bool matchesBSON(const BSONObj& doc, MatchDetails* details = nullptr) const {
        return matches(doc, details);
    }

    /** For path expressions: tests one value reached by the path. */
    virtual bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const {
        return false;
    }

    /** The dotted path of a leaf expression, empty for logical ones. */
    virtual const std::string& path() const;

    virtual size_t numChildren() const {
        return 0;
    }
    virtual const MatchExpression* getChild(size_t i) const {
        return nullptr;
    }

    /** Appends this expression in filter syntax (e.g. `a: {$gt: 1}`) to `out`. */
    virtual void serialize(BSONObjBuilder* out) const = 0;
    BSONObj serialize() const;

    /**
     * Sets the collation string comparisons use, in this node and all below it
     * (null: the simple binary order). Affects $eq $ne $lt $lte $gt $gte $in $nin
     * and equality to arrays/objects holding strings; not $regex, $type, $exists,
     * $size or field names. `collator` is not owned and must outlive every match.
     * Call before the tree is shared between threads.
     */
    virtual void setCollator(const CollatorInterface* collator) {
        _collator = collator;
    }
    /** The collator set by setCollator() (null: simple). */
    const CollatorInterface* getCollator() const {
        return _collator;
    }

protected:
    /** The collator as the BSON comparison functions take it. */
    const StringComparator* stringComparator() const;

private:
    MatchType _type;
    const CollatorInterface* _collator = nullptr;
};

/** $and / $or / $nor. An empty $and matches everything. */
class ListOfMatchExpression : public MatchExpression {
public:
    explicit ListOfMatchExpression(MatchType t) : MatchExpression(t) {}
    void add(std::unique_ptr<MatchExpression> e) {
        _children.push_back(std::move(e));
    }
    size_t numChildren() const override {
        return _children.size();
    }
    const MatchExpression* getChild(size_t i) const override {
        return _children[i].get();
    }
    /** Moves child `i` out (the list keeps a null slot; used while building). */
    std::unique_ptr<MatchExpression> releaseChild(size_t i) {
        return std::move(_children[i]);
    }
    MatchExpression* mutableChild(size_t i) {
        return _children[i].get();
    }
    /** Reorders the children by `less` (stable; see expression_sort.h). */
    template <typename Less>
    void sortChildren(Less less) {
        std::stable_sort(_children.begin(), _children.end(),
                         [&](const auto& a, const auto& b) { return less(*a, *b); });
    }
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    void setCollator(const CollatorInterface* collator) override;

private:
    std::vector<std::unique_ptr<MatchExpression>> _children;
};

class NotMatchExpression : public MatchExpression {
public:
    explicit NotMatchExpression(std::unique_ptr<MatchExpression> child)
        : MatchExpression(MatchType::kNot), _child(std::move(child)) {}
    size_t numChildren() const override {
        return 1;
    }
    const MatchExpression* getChild(size_t) const override {
        return _child.get();
    }
    /** Moves the operand out (this node is then unusable; used while rebuilding a tree). */
    std::unique_ptr<MatchExpression> releaseChild() {
        return std::move(_child);
    }
    bool matches(const BSONObj& doc, MatchDetails*) const override {
        return !_child->matches(doc, nullptr);
    }
    bool matchesSingleElement(const BSONElement& e, MatchDetails*) const override {
        return !_child->matchesSingleElement(e, nullptr);
    }
    void serialize(BSONObjBuilder* out) const override;
    void setCollator(const CollatorInterface* collator) override {
        MatchExpression::setCollator(collator);
        _child->setCollator(collator);
    }

private:
    std::unique_ptr<MatchExpression> _child;
};

/** $alwaysTrue / $alwaysFalse. */
class ConstantMatchExpression : public MatchExpression {
public:
    explicit ConstantMatchExpression(bool value)
        : MatchExpression(value ? MatchType::kAlwaysTrue : MatchType::kAlwaysFalse),
          _value(value) {}
    bool matches(const BSONObj&, MatchDetails*) const override {
        return _value;
    }
    bool matchesSingleElement(const BSONElement&, MatchDetails*) const override {
        return _value;
    }
    void serialize(BSONObjBuilder* out) const override {
        out->append(_value ? "$alwaysTrue" : "$alwaysFalse", 1);
    }

private:
    bool _value;
};

/**
 * Base of expressions over one path: walks the path (path.h) and matches when any
 * value reached satisfies matchesSingleElement(). An empty path (inside a value
 * $elemMatch) tests the element itself.
 */
class PathMatchExpression : public MatchExpression {
public:
    PathMatchExpression(MatchType t, StringData path, LeafArrayBehavior leaf)
        : MatchExpression(t), _path(path), _fieldPath(path), _leaf(leaf) {}
    const std::string& path() const override {
        return _path;
    }
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    LeafArrayBehavior leafArrayBehavior() const {
        return _leaf;
    }

private:
    std::string _path;
    FieldPath _fieldPath;
    LeafArrayBehavior _leaf;
};

}  // namespace mongo
