#include "mongo/db/matcher/expression_leaf.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "mongo/bson/bson_comparator.h"

namespace mongo {

namespace {
BSONObj holdElement(StringData name, const BSONElement& e) {
    BSONObjBuilder b;
    b.appendAs(e, name);
    return b.obj();
}

StringData opName(MatchExpression::MatchType t) {
    using MT = MatchExpression::MatchType;
    switch (t) {
        case MT::kEq:
            return "$eq";
        case MT::kLt:
            return "$lt";
        case MT::kLte:
            return "$lte";
        case MT::kGt:
            return "$gt";
        default:
            return "$gte";
    }
}

bool isNaNNumber(const BSONElement& e) {
    if (e.type() == BSONType::kNumberDouble)
        return std::isnan(e._numberDouble());
    if (e.type() == BSONType::kNumberDecimal)
        return e._numberDecimal().isNaN();
    return false;
}
}  // namespace

// ---- comparison ----

ComparisonMatchExpression::ComparisonMatchExpression(MatchType t, StringData path,
                                                     const BSONElement& rhs)
    : PathMatchExpression(t, path, LeafArrayBehavior::kTraverse), _holder(holdElement(path, rhs)) {}

bool ComparisonMatchExpression::compareWith(MatchType op, const BSONElement& e,
                                            const BSONElement& rhs,
                                            const StringComparator* strings) {
    if (rhs.type() == BSONType::kNull) {
        if (op == MatchType::kLt || op == MatchType::kGt)
            return false;
        return e.eoo() || e.type() == BSONType::kNull;
    }
    if (canonicalizeBSONType(e.type()) != canonicalizeBSONType(rhs.type()) || e.eoo()) {
        if (rhs.type() == BSONType::kMinKey)
            return op == MatchType::kGt || op == MatchType::kGte;
        if (rhs.type() == BSONType::kMaxKey)
            return op == MatchType::kLt || op == MatchType::kLte;
        return false;
    }
    if (e.isNumber() && (isNaNNumber(e) || isNaNNumber(rhs))) {
        bool both = isNaNNumber(e) && isNaNNumber(rhs);
        return both && op != MatchType::kLt && op != MatchType::kGt;
    }
    int c = compareElementValues(e, rhs, strings);
    switch (op) {
        case MatchType::kEq:
            return c == 0;
        case MatchType::kLt:
            return c < 0;
        case MatchType::kLte:
            return c <= 0;
        case MatchType::kGt:
            return c > 0;
        case MatchType::kGte:
            return c >= 0;
        default:
            return false;
    }
}

bool ComparisonMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    return compareWith(matchType(), e, getData(), stringComparator());
}

void ComparisonMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    sub.appendAs(getData(), opName(matchType()));
}

// ---- $_internalExpr comparisons ----

namespace {
struct InternalExprOp {
    StringData name;
    MatchExpression::MatchType type;
};
constexpr InternalExprOp kInternalExprOps[] = {
    {"$_internalExprEq", MatchExpression::MatchType::kInternalExprEq},
    {"$_internalExprGt", MatchExpression::MatchType::kInternalExprGt},
    {"$_internalExprGte", MatchExpression::MatchType::kInternalExprGte},
    {"$_internalExprLt", MatchExpression::MatchType::kInternalExprLt},
    {"$_internalExprLte", MatchExpression::MatchType::kInternalExprLte},
};
}  // namespace

std::optional<MatchExpression::MatchType> InternalExprComparisonMatchExpression::typeFor(
    StringData name) {
    for (const auto& op : kInternalExprOps)
        if (op.name == name)
            return op.type;
    return std::nullopt;
}

StatusWith<std::unique_ptr<MatchExpression>> InternalExprComparisonMatchExpression::make(
    MatchType t, StringData path, const BSONElement& rhs) {
    if (rhs.type() == BSONType::kArray || rhs.type() == BSONType::kUndefined) {
        StringData name;
        for (const auto& op : kInternalExprOps)
            if (op.type == t)
                name = op.name;
        return Status(ErrorCodes::BadValue, std::string(name) +
                                                " cannot be used to compare to type: " +
                                                std::string(typeName(rhs.type())));
    }
    return std::unique_ptr<MatchExpression>(
        new InternalExprComparisonMatchExpression(t, path, rhs));
}

InternalExprComparisonMatchExpression::InternalExprComparisonMatchExpression(MatchType t,
                                                                             StringData path,
                                                                             const BSONElement& rhs)
    : MatchExpression(t), _path(path), _holder(holdElement(path, rhs)) {}

bool InternalExprComparisonMatchExpression::matches(const BSONObj& doc, MatchDetails*) const {
    // Walks the path without entering arrays: meeting one anywhere is a match.
    BSONElement e;
    BSONObj current = doc;
    for (size_t i = 0; i < _path.numParts(); ++i) {
        e = current[_path.part(i)];
        if (e.type() == BSONType::kArray)
            return true;
        if (i + 1 < _path.numParts()) {
            if (e.type() != BSONType::kObject) {
                e = BSONElement();  // the path ends in a scalar: the value is missing
                break;
            }
            current = e.Obj();
        }
    }
    const BSONElement rhs = getData();
    int c;
    if (e.eoo())  // missing orders after MinKey and before everything else
        c = rhs.type() == BSONType::kMinKey ? 1 : -1;
    else
        c = compareElementValues(e, rhs, stringComparator());
    switch (matchType()) {
        case MatchType::kInternalExprEq:
            return c == 0;
        case MatchType::kInternalExprGt:
            return c > 0;
        case MatchType::kInternalExprGte:
            return c >= 0;
        case MatchType::kInternalExprLt:
            return c < 0;
        default:
            return c <= 0;
    }
}

void InternalExprComparisonMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    for (const auto& op : kInternalExprOps)
        if (op.type == matchType())
            sub.appendAs(getData(), op.name);
}

// ---- regex ----

StatusWith<std::shared_ptr<RegexMatcher>> RegexMatcher::compile(StringData pattern,
                                                                StringData flags) {
    uint32_t opts = PCRE2_UTF;
    std::string normalized;
    for (char c : flags) {
        switch (c) {
            case 'i':
                opts |= PCRE2_CASELESS;
                break;
            case 'm':
                opts |= PCRE2_MULTILINE;
                break;
            case 's':
                opts |= PCRE2_DOTALL;
                break;
            case 'x':
                opts |= PCRE2_EXTENDED;
                break;
            case 'u':
            case 'l':
                break;
            default:
                return Status(ErrorCodes::Error(51108),
                              std::string("invalid flag in regex options: ") + c);
        }
        normalized += c;
    }
    if (pattern.find('\0') != StringData::npos)
        return Status(ErrorCodes::BadValue,
                      "Regular expression cannot contain an embedded null byte");
    // Upstream's longest pattern: PCRE2 refuses longer ones ("pattern string is longer than
    // the limit set by the application").
    constexpr PCRE2_SIZE kMaxPatternLength = 32761;
    pcre2_compile_context* cctx = pcre2_compile_context_create(nullptr);
    if (cctx)
        pcre2_set_max_pattern_length(cctx, kMaxPatternLength);
    int err = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                     opts, &err, &offset, cctx);
    if (cctx)
        pcre2_compile_context_free(cctx);
    if (!code) {
        PCRE2_UCHAR buf[256];
        pcre2_get_error_message(err, buf, sizeof(buf));
        return Status(ErrorCodes::Error(51091), std::string("Regular expression is invalid: ") +
                                                    reinterpret_cast<const char*>(buf));
    }
    std::shared_ptr<RegexMatcher> re(new RegexMatcher());
    re->_pattern = std::string(pattern);
    re->_flags = std::string(flags);
    re->_code = code;
    return re;
}

RegexMatcher::~RegexMatcher() {
    if (_code)
        pcre2_code_free(_code);
}

bool RegexMatcher::matchesString(StringData s) const {
    pcre2_match_data* md = pcre2_match_data_create_from_pattern(_code, nullptr);
    int rc =
        pcre2_match(_code, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), 0, 0, md, nullptr);
    pcre2_match_data_free(md);
    return rc >= 0;
}

RegexMatchExpression::RegexMatchExpression(StringData path, std::shared_ptr<RegexMatcher> re)
    : PathMatchExpression(MatchType::kRegex, path, LeafArrayBehavior::kTraverse),
      _re(std::move(re)) {}

bool RegexMatchExpression::matchesWith(const RegexMatcher& re, const BSONElement& e) {
    switch (e.type()) {
        case BSONType::kString:
        case BSONType::kSymbol:
            return re.matchesString(e.valueStringData());
        case BSONType::kRegEx:
            return re.pattern() == e.regex() && re.flags() == e.regexFlags();
        default:
            return false;
    }
}

bool RegexMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    return matchesWith(*_re, e);
}

void RegexMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    sub.append("$regex", _re->pattern());
    if (!_re->flags().empty())
        sub.append("$options", _re->flags());
}

// ---- $in ----

InMatchExpression::InMatchExpression(StringData path, const BSONElement& arrayOperand,
                                     std::vector<std::shared_ptr<RegexMatcher>> regexes)
    : PathMatchExpression(MatchType::kIn, path, LeafArrayBehavior::kTraverse),
      _regexes(std::move(regexes)) {
    std::vector<BSONElement> vals;
    for (BSONElement v : arrayOperand.Obj()) {
        if (v.type() == BSONType::kRegEx)
            continue;
        if (v.type() == BSONType::kNull)
            _hasNull = true;
        vals.push_back(v);
    }
    BSONObjBuilder b;
    {
        BSONArrayBuilder arr(b.subarrayStart(""));
        for (const auto& v : vals)
            arr.append(v);
    }
    _holder = b.obj();
    sortEqualities();
}

void InMatchExpression::sortEqualities() {
    _sorted = _holder.firstElement().Array();
    std::stable_sort(_sorted.begin(), _sorted.end(), CollatedElementLess{stringComparator()});
}

void InMatchExpression::setCollator(const CollatorInterface* collator) {
    PathMatchExpression::setCollator(collator);
    sortEqualities();
}

bool InMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    if (_hasNull && (e.eoo() || e.type() == BSONType::kNull))
        return true;
    if (!e.eoo()) {
        const StringComparator* strings = stringComparator();
        auto it = std::lower_bound(_sorted.begin(), _sorted.end(), e, CollatedElementLess{strings});
        if (it != _sorted.end() && compareElementValues(*it, e, strings) == 0 &&
            canonicalizeBSONType(it->type()) == canonicalizeBSONType(e.type()))
            return true;
    }
    for (const auto& re : _regexes)
        if (RegexMatchExpression::matchesWith(*re, e))
            return true;
    return false;
}

void InMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    BSONArrayBuilder arr(sub.subarrayStart("$in"));
    for (const auto& v : equalities())
        arr.append(v);
    for (const auto& re : _regexes)
        arr.append(BSONRegEx{re->pattern(), re->flags()});
}

// ---- $mod ----

ModMatchExpression::ModMatchExpression(StringData path, long long divisor, long long remainder)
    : PathMatchExpression(MatchType::kMod, path, LeafArrayBehavior::kTraverse),
      _divisor(divisor),
      _remainder(remainder) {}

bool ModMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    if (!e.isNumber())
        return false;
    // As upstream: a dividend whose truncation is not an int64 (NaN, infinities, beyond
    // +-2^63) matches nothing.
    long long v;
    if (e.type() == BSONType::kNumberDecimal) {
        std::uint32_t flags = 0;
        v = e.numberDecimal().toLong(&flags, Decimal128::kRoundTowardZero);
        if (Decimal128::hasFlag(flags, Decimal128::kInvalid))
            return false;
    } else {
        double d = e.numberDouble();
        if (std::isnan(d) || std::isinf(d) || d < -9223372036854775808.0 ||
            d >= 9223372036854775808.0)
            return false;
        v = e.numberLong();
    }
    if (_divisor == -1)
        return _remainder == 0;
    return v % _divisor == _remainder;
}

void ModMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    BSONArrayBuilder arr(sub.subarrayStart("$mod"));
    arr.append(_divisor).append(_remainder);
}

// ---- $exists ----

ExistsMatchExpression::ExistsMatchExpression(StringData path)
    : PathMatchExpression(MatchType::kExists, path, LeafArrayBehavior::kTraverse) {}

bool ExistsMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    return !e.eoo();
}

void ExistsMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    sub.append("$exists", true);
}

// ---- $type ----

TypeMatchExpression::TypeMatchExpression(StringData path, std::vector<BSONType> types,
                                         bool allNumbers)
    : PathMatchExpression(MatchType::kType, path, LeafArrayBehavior::kTraverse),
      _types(std::move(types)),
      _allNumbers(allNumbers) {}

bool TypeMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    if (e.eoo())
        return false;
    if (_allNumbers && e.isNumber())
        return true;
    return std::find(_types.begin(), _types.end(), e.type()) != _types.end();
}

void TypeMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    BSONArrayBuilder arr(sub.subarrayStart("$type"));
    if (_allNumbers)
        arr.append("number");
    for (BSONType t : _types)
        arr.append(static_cast<int>(t));
}

// ---- $size ----

SizeMatchExpression::SizeMatchExpression(StringData path, long long n)
    : PathMatchExpression(MatchType::kSize, path, LeafArrayBehavior::kNoTraversal), _n(n) {}

bool SizeMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    return e.type() == BSONType::kArray && e.Obj().nFields() == _n;
}

void SizeMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    sub.append("$size", _n);
}

// ---- $elemMatch ----

ElemMatchObjectMatchExpression::ElemMatchObjectMatchExpression(StringData path,
                                                               std::unique_ptr<MatchExpression> sub,
                                                               BSONObj spec)
    : PathMatchExpression(MatchType::kElemMatchObject, path, LeafArrayBehavior::kNoTraversal),
      _sub(std::move(sub)),
      _spec(spec.getOwned()) {}

bool ElemMatchObjectMatchExpression::matchesSingleElement(const BSONElement& e,
                                                          MatchDetails* details) const {
    if (e.type() != BSONType::kArray)
        return false;
    int pos = 0;
    for (BSONElement el : e.Obj()) {
        if (el.isABSONObj() && _sub->matches(el.Obj(), nullptr)) {
            if (details)
                details->setElemMatchKey(std::to_string(pos));
            return true;
        }
        ++pos;
    }
    return false;
}

void ElemMatchObjectMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    sub.append("$elemMatch", _spec);
}

ElemMatchValueMatchExpression::ElemMatchValueMatchExpression(StringData path,
                                                             std::unique_ptr<MatchExpression> sub,
                                                             BSONObj spec)
    : PathMatchExpression(MatchType::kElemMatchValue, path, LeafArrayBehavior::kNoTraversal),
      _sub(std::move(sub)),
      _spec(spec.getOwned()) {}

bool ElemMatchValueMatchExpression::matchesSingleElement(const BSONElement& e,
                                                         MatchDetails* details) const {
    if (e.type() != BSONType::kArray)
        return false;
    int pos = 0;
    for (BSONElement el : e.Obj()) {
        if (_sub->matchesSingleElement(el, nullptr)) {
            if (details)
                details->setElemMatchKey(std::to_string(pos));
            return true;
        }
        ++pos;
    }
    return false;
}

void ElemMatchValueMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    sub.append("$elemMatch", _spec);
}

}  // namespace mongo
