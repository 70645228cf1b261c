// Leaf match expressions: one operator applied to the values a path reaches
// ($eq $lt $lte $gt $gte $in $regex $mod $exists $type $size $elemMatch).
// Each keeps its own copy of its operand, so it outlives the filter document.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/db/matcher/expression.h"

struct pcre2_real_code_8;

namespace mongo {

/** $eq $lt $lte $gt $gte with MongoDB's type bracketing and null/missing rules. */
class ComparisonMatchExpression : public PathMatchExpression {
public:
    ComparisonMatchExpression(MatchType t, StringData path, const BSONElement& rhs);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    /** The operand (named after the path). */
    BSONElement getData() const {
        return _holder.firstElement();
    }
    /**
     * True when `e` compares with `rhs` under `op` (shared with $in and $all). Strings
     * compare with `strings` (null: binary order).
     */
    static bool compareWith(MatchType op, const BSONElement& e, const BSONElement& rhs,
                            const StringComparator* strings = nullptr);

private:
    BSONObj _holder;
};

/**
 * $_internalExprEq/$_internalExprGt/$_internalExprGte/$_internalExprLt/$_internalExprLte:
 * the comparisons of $expr's $eq/$gt/... written as path predicates (upstream writes them
 * into rewritten filters and explain). Unlike $eq/$gt: no type bracketing (null < 2 <
 * objects; a missing field sorts below null), and a document with an array anywhere on
 * the path matches (a superset of what the aggregation comparison would accept).
 */
class InternalExprComparisonMatchExpression final : public MatchExpression {
public:
    /** Null when `name` is not one of the five operators. */
    static std::optional<MatchType> typeFor(StringData name);
    /** BadValue 2 when `rhs` is an array or undefined. */
    static StatusWith<std::unique_ptr<MatchExpression>> make(MatchType t, StringData path,
                                                             const BSONElement& rhs);
    bool matches(const BSONObj& doc, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    const std::string& path() const override {
        return _path.dotted();
    }
    BSONElement getData() const {
        return _holder.firstElement();
    }

private:
    InternalExprComparisonMatchExpression(MatchType t, StringData path, const BSONElement& rhs);
    FieldPath _path;
    BSONObj _holder;
};

/** A compiled PCRE2 pattern with MongoDB's options (i m s x). Shared by $regex and $in. */
class RegexMatcher {
public:
    /** BadValue/51091 for a pattern that does not compile, 51108 for an unknown flag. */
    static StatusWith<std::shared_ptr<RegexMatcher>> compile(StringData pattern, StringData flags);
    ~RegexMatcher();
    bool matchesString(StringData s) const;
    const std::string& pattern() const {
        return _pattern;
    }
    const std::string& flags() const {
        return _flags;
    }

private:
    RegexMatcher() = default;
    std::string _pattern;
    std::string _flags;
    pcre2_real_code_8* _code = nullptr;
};

/** $regex: matches strings and symbols by pattern, and regex values by equality. */
class RegexMatchExpression : public PathMatchExpression {
public:
    RegexMatchExpression(StringData path, std::shared_ptr<RegexMatcher> re);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    static bool matchesWith(const RegexMatcher& re, const BSONElement& e);

private:
    std::shared_ptr<RegexMatcher> _re;
};

/** $in: equality with any listed value, or a match with any listed regex. */
class InMatchExpression : public PathMatchExpression {
public:
    InMatchExpression(StringData path, const BSONElement& arrayOperand,
                      std::vector<std::shared_ptr<RegexMatcher>> regexes);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    /** The equality operands (not the regexes), in the order of the collation in force. */
    std::vector<BSONElement> equalities() const {
        return _sorted;
    }
    /** Also re-sorts the equalities under the new collation. */
    void setCollator(const CollatorInterface* collator) override;

private:
    void sortEqualities();

    BSONObj _holder;                   // {"": [values...]}
    std::vector<BSONElement> _sorted;  // views into _holder, ordered by the collation
    std::vector<std::shared_ptr<RegexMatcher>> _regexes;
    bool _hasNull = false;
};

class ModMatchExpression : public PathMatchExpression {
public:
    ModMatchExpression(StringData path, long long divisor, long long remainder);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;

private:
    long long _divisor;
    long long _remainder;
};

/** $exists: true. ($exists: false is NOT of this.) */
class ExistsMatchExpression : public PathMatchExpression {
public:
    explicit ExistsMatchExpression(StringData path);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
};

/** $type with type codes; `allNumbers` is the "number" alias. */
class TypeMatchExpression : public PathMatchExpression {
public:
    TypeMatchExpression(StringData path, std::vector<BSONType> types, bool allNumbers);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;

private:
    std::vector<BSONType> _types;
    bool _allNumbers;
};

/** $size: arrays of exactly n elements (leaf arrays are not traversed). */
class SizeMatchExpression : public PathMatchExpression {
public:
    SizeMatchExpression(StringData path, long long n);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;

private:
    long long _n;
};

/** $elemMatch {<filter>}: some element (object or array) matches the sub-filter. */
class ElemMatchObjectMatchExpression : public PathMatchExpression {
public:
    ElemMatchObjectMatchExpression(StringData path, std::unique_ptr<MatchExpression> sub,
                                   BSONObj spec);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    size_t numChildren() const override {
        return 1;
    }
    const MatchExpression* getChild(size_t) const override {
        return _sub.get();
    }
    void setCollator(const CollatorInterface* collator) override {
        PathMatchExpression::setCollator(collator);
        _sub->setCollator(collator);
    }

private:
    std::unique_ptr<MatchExpression> _sub;
    BSONObj _spec;
};

/** $elemMatch {$op: ...}: some element satisfies every operator. */
class ElemMatchValueMatchExpression : public PathMatchExpression {
public:
    ElemMatchValueMatchExpression(StringData path, std::unique_ptr<MatchExpression> sub,
                                  BSONObj spec);
    bool matchesSingleElement(const BSONElement& e, MatchDetails* details) const override;
    void serialize(BSONObjBuilder* out) const override;
    void setCollator(const CollatorInterface* collator) override {
        PathMatchExpression::setCollator(collator);
        _sub->setCollator(collator);
    }

private:
    std::unique_ptr<MatchExpression> _sub;  // path-less operators, tested per element
    BSONObj _spec;
};

}  // namespace mongo
