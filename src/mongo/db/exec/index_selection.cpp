#include "mongo/db/exec/index_selection.h"

#include <vector>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsontypes.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/query/collation/collator_interface.h"

namespace mongo::index_selection {

namespace {

/** One path predicate: `path op value`, where a plain `{path: v}` is op "$eq". */
struct PathPredicate {
    StringData path;
    StringData op;
    BSONElement value;
};

bool isOperatorObject(const BSONElement& e) {
    return e.type() == BSONType::kObject && !e.embeddedObject().isEmpty() &&
           e.embeddedObject().firstElementFieldNameStringData().substr(0, 1) == "$";
}

/** The conjuncts of `filter`: its top-level elements, with `$and` members flattened. */
void collectConjuncts(const BSONObj& filter, std::vector<BSONElement>* out) {
    for (auto e : filter) {
        if (e.fieldNameStringData() == "$and" && e.type() == BSONType::kArray) {
            for (auto sub : e.embeddedObject())
                if (sub.type() == BSONType::kObject)
                    collectConjuncts(sub.embeddedObject(), out);
            continue;
        }
        out->push_back(e);
    }
}

/** The path predicates of one conjunct (none for `$or`, `$expr`, ...). */
void splitConjunct(const BSONElement& e, std::vector<PathPredicate>* out) {
    StringData path = e.fieldNameStringData();
    if (path.empty() || path[0] == '$')
        return;
    if (!isOperatorObject(e)) {
        out->push_back({path, "$eq", e});
        return;
    }
    for (auto op : e.embeddedObject())
        out->push_back({path, op.fieldNameStringData(), op});
}

std::vector<PathPredicate> pathPredicates(const std::vector<BSONElement>& conjuncts) {
    std::vector<PathPredicate> out;
    for (const auto& c : conjuncts)
        splitConjunct(c, &out);
    return out;
}

bool isRangeOp(StringData op) {
    return op == "$eq" || op == "$gt" || op == "$gte" || op == "$lt" || op == "$lte";
}

/** A value that only matches present fields and compares within its own type bracket. */
bool isBracketedValue(const BSONElement& v) {
    switch (v.type()) {
        case BSONType::kNull:
        case BSONType::kUndefined:
        case BSONType::kMinKey:
        case BSONType::kMaxKey:
        case BSONType::kEOO:
            return false;
        default:
            return true;
    }
}

/** Whether a value can take part in range reasoning (arrays and regexes match elements). */
bool isOrderableValue(const BSONElement& v) {
    return isBracketedValue(v) && v.type() != BSONType::kArray && v.type() != BSONType::kRegEx;
}

/** Whether a predicate only matches documents that have the path. */
bool requiresPath(const PathPredicate& p) {
    if (p.op == "$exists")
        return p.value.trueValue();
    if (p.op == "$type" || p.op == "$elemMatch" || p.op == "$size" || p.op == "$regex")
        return true;
    if (isRangeOp(p.op))
        return isBracketedValue(p.value);
    if (p.op == "$in" && p.value.type() == BSONType::kArray) {
        bool any = false;
        for (auto v : p.value.embeddedObject()) {
            if (!isBracketedValue(v))
                return false;
            any = true;
        }
        return any;
    }
    return false;
}

/** Whether `{path: {fop: fv}}` matching implies `{path: {pop: pv}}` matching (pop a range op). */
bool valueImplies(StringData fop, const BSONElement& fv, StringData pop, const BSONElement& pv) {
    if (!isOrderableValue(fv) || !isOrderableValue(pv) ||
        canonicalizeBSONType(fv.type()) != canonicalizeBSONType(pv.type()))
        return false;
    int c = compareElementValues(fv, pv);
    if (pop == "$eq")
        return fop == "$eq" && c == 0;
    if (pop == "$gt")
        return (fop == "$eq" && c > 0) || (fop == "$gt" && c >= 0) || (fop == "$gte" && c > 0);
    if (pop == "$gte")
        return (fop == "$eq" || fop == "$gt" || fop == "$gte") && c >= 0;
    if (pop == "$lt")
        return (fop == "$eq" && c < 0) || (fop == "$lt" && c <= 0) || (fop == "$lte" && c < 0);
    if (pop == "$lte")
        return (fop == "$eq" || fop == "$lt" || fop == "$lte") && c <= 0;
    return false;
}

bool predicateImplies(const PathPredicate& f, const PathPredicate& p) {
    if (f.path != p.path)
        return false;
    if (f.op == p.op && f.value.type() == p.value.type() &&
        compareElementValues(f.value, p.value) == 0)
        return true;  // the same predicate
    if (p.op == "$exists")
        return p.value.trueValue() && requiresPath(f);
    if (!isRangeOp(p.op))
        return false;
    if (isRangeOp(f.op))
        return valueImplies(f.op, f.value, p.op, p.value);
    if (f.op == "$in" && f.value.type() == BSONType::kArray) {
        bool any = false;
        for (auto v : f.value.embeddedObject()) {
            if (!valueImplies("$eq", v, p.op, p.value))
                return false;
            any = true;
        }
        return any;
    }
    return false;
}

bool sameConjunct(const BSONElement& a, const BSONElement& b) {
    return a.fieldNameStringData() == b.fieldNameStringData() && a.type() == b.type() &&
           compareElementValues(a, b) == 0;
}

bool conjunctImplied(const BSONElement& pc, const std::vector<BSONElement>& filterConjuncts,
                     const std::vector<PathPredicate>& filterPreds) {
    for (const auto& fc : filterConjuncts)
        if (sameConjunct(fc, pc))
            return true;
    std::vector<PathPredicate> parts;
    splitConjunct(pc, &parts);
    if (parts.empty())
        return false;  // $or, $expr, ...: only the identical conjunct implies it
    for (const auto& p : parts) {
        bool implied = false;
        for (const auto& f : filterPreds)
            if (predicateImplies(f, p)) {
                implied = true;
                break;
            }
        if (!implied)
            return false;
    }
    return true;
}

}  // namespace

bool valueUsableForBounds(const BSONElement& value, const CollatorInterface* indexCollator,
                          const CollatorInterface* queryCollator) {
    return !isCollatableType(value) ||
           CollatorInterface::collatorsMatch(indexCollator, queryCollator);
}

bool collationAllowsSort(const CollatorInterface* indexCollator,
                         const CollatorInterface* queryCollator) {
    return CollatorInterface::collatorsMatch(indexCollator, queryCollator);
}

bool filterImpliesPartialFilter(const BSONObj& filter, const BSONObj& partialFilter) {
    std::vector<BSONElement> filterConjuncts, partialConjuncts;
    collectConjuncts(filter, &filterConjuncts);
    collectConjuncts(partialFilter, &partialConjuncts);
    auto filterPreds = pathPredicates(filterConjuncts);
    for (const auto& pc : partialConjuncts)
        if (!conjunctImplied(pc, filterConjuncts, filterPreds))
            return false;
    return true;
}

bool filterRequiresPath(const BSONObj& filter, StringData path) {
    std::vector<BSONElement> conjuncts;
    collectConjuncts(filter, &conjuncts);
    for (const auto& p : pathPredicates(conjuncts))
        if (p.path == path && requiresPath(p))
            return true;
    return false;
}

int providedSortDirection(const BSONObj& keyPattern, const std::set<std::string>& pointFields,
                          const BSONObj& sort) {
    for (auto k : keyPattern)
        if (!k.isNumber())
            return 0;
    auto key = keyPattern.begin();
    int direction = 0;
    for (auto s : sort) {
        if (!s.isNumber() || s.fieldNameStringData() == "$natural")
            return 0;
        std::string field(s.fieldNameStringData());
        if (pointFields.count(field))
            continue;  // constant over the scan
        // The next key field that is not a point must be this sort key.
        BSONElement k;
        while (key.more()) {
            k = key.next();
            if (!pointFields.count(std::string(k.fieldNameStringData())))
                break;
        }
        if (k.eoo() || k.fieldNameStringData() != field)
            return 0;
        int d = (s.numberDouble() < 0) == (k.numberDouble() < 0) ? 1 : -1;
        if (direction != 0 && d != direction)
            return 0;
        direction = d;
    }
    return direction == 0 ? 1 : direction;
}

namespace {

bool isAsciiAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

std::string regexPrefix(StringData pattern, StringData flags) {
    bool extended = false;
    bool multiline = false;
    for (char f : flags) {
        if (f == 'i')
            return "";
        if (f == 'm')
            multiline = true;
        if (f == 'x')
            extended = true;
    }
    size_t i;
    if (pattern.size() >= 1 && pattern[0] == '^') {
        if (multiline)
            return "";
        i = 1;
    } else if (pattern.size() >= 2 && pattern[0] == '\\' && pattern[1] == 'A') {
        i = 2;
    } else {
        return "";
    }
    // An alternation anywhere may match without the prefix (/^a|b/): be conservative.
    if (pattern.find('|') != std::string::npos)
        return "";
    std::string prefix;
    // Where the last literal character of `prefix` starts: a quantifier after it drops it.
    size_t lastStart = 0;
    while (i < pattern.size()) {
        char c = pattern[i];
        if (c == '\\') {
            if (i + 1 >= pattern.size())
                break;
            char n = pattern[i + 1];
            if (n == 'Q') {
                // \Q...\E: literal up to \E (or the end).
                size_t end = pattern.find("\\E", i + 2);
                size_t stop = end == std::string::npos ? pattern.size() : end;
                for (size_t q = i + 2; q < stop; ++q) {
                    if ((static_cast<unsigned char>(pattern[q]) & 0xC0) != 0x80)
                        lastStart = prefix.size();
                    prefix += pattern[q];
                }
                i = end == std::string::npos ? pattern.size() : end + 2;
                continue;
            }
            if (isAsciiAlnum(n))
                break;  // a class, anchor or back reference
            lastStart = prefix.size();
            prefix += n;
            i += 2;
            while (i < pattern.size() && (static_cast<unsigned char>(pattern[i]) & 0xC0) == 0x80)
                prefix += pattern[i++];
            continue;
        }
        if (extended &&
            (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) {
            ++i;
            continue;
        }
        if (extended && c == '#')
            break;
        if (c == '*' || c == '?' || c == '{') {
            prefix.resize(lastStart);
            break;
        }
        if (c == '^' || c == '$' || c == '.' || c == '[' || c == '(' || c == ')' || c == '+')
            break;
        // A literal character: one byte, or a whole UTF-8 sequence.
        lastStart = prefix.size();
        prefix += c;
        ++i;
        while (i < pattern.size() && (static_cast<unsigned char>(pattern[i]) & 0xC0) == 0x80)
            prefix += pattern[i++];
    }
    return prefix;
}

std::string regexPrefixUpperBound(const std::string& prefix) {
    std::string end = prefix;
    while (!end.empty()) {
        unsigned char last = static_cast<unsigned char>(end.back());
        if (last < 0xFF) {
            end.back() = static_cast<char>(last + 1);
            return end;
        }
        end.pop_back();
    }
    return "";
}

}  // namespace mongo::index_selection
