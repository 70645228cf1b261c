#include "mongo/db/exec/planner.h"

#include <cctype>
#include <cmath>
#include <cstring>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/api_parameters.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/exec/field_predicates.h"
#include "mongo/db/exec/geo_index_bounds.h"
#include "mongo/db/exec/index_selection.h"
#include "mongo/db/exec/min_max_bounds.h"
#include "mongo/db/exec/stages.h"
#include "mongo/db/exec/text_stages.h"
#include "mongo/db/matcher/expression_text.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

int compareValue(const BSONObj& a, const BSONObj& b) {
    return compareElementValues(a.firstElement(), b.firstElement());
}

/** `intervals` sorted on their low ends and merged where they overlap or touch. */
std::vector<ValueInterval> unionOfIntervals(std::vector<ValueInterval> intervals) {
    std::sort(intervals.begin(), intervals.end(),
              [](const ValueInterval& a, const ValueInterval& b) {
                  int c = compareValue(a.low, b.low);
                  return c < 0 || (c == 0 && a.lowInclusive && !b.lowInclusive);
              });
    std::vector<ValueInterval> out;
    for (auto& iv : intervals) {
        if (!out.empty()) {
            ValueInterval& last = out.back();
            int c = compareValue(iv.low, last.high);
            if (c < 0 || (c == 0 && (iv.lowInclusive || last.highInclusive))) {
                int h = compareValue(iv.high, last.high);
                if (h > 0 || (h == 0 && iv.highInclusive)) {
                    last.high = iv.high;
                    last.highInclusive = iv.highInclusive || (h == 0 && last.highInclusive);
                }
                continue;
            }
        }
        out.push_back(std::move(iv));
    }
    return out;
}

/** The parts of `intervals` inside the range of `p` (its low and high ends, where set). */
std::vector<ValueInterval> intersectWithRange(const std::vector<ValueInterval>& intervals,
                                              const FieldPredicate& p) {
    std::vector<ValueInterval> out;
    for (ValueInterval iv : intervals) {
        if (p.low) {
            int c = compareValue(*p.low, iv.low);
            if (c > 0 || (c == 0 && !p.lowInclusive)) {
                iv.low = *p.low;
                iv.lowInclusive = p.lowInclusive;
            }
        }
        if (p.high) {
            int c = compareValue(*p.high, iv.high);
            if (c < 0 || (c == 0 && !p.highInclusive)) {
                iv.high = *p.high;
                iv.highInclusive = p.highInclusive;
            }
        }
        int c = compareValue(iv.low, iv.high);
        if (c < 0 || (c == 0 && iv.lowInclusive && iv.highInclusive))
            out.push_back(std::move(iv));
    }
    return out;
}

/**
 * The predicate on one key field of `index` as the index can use it: values the index's
 * collation cannot bound for this query are dropped (index_selection::valueUsableForBounds);
 * the others are translated to the index's key form (strings as comparison keys).
 */
FieldPredicate predicateForIndex(const FieldPredicate& p, const IndexEntry& index,
                                 const CollatorInterface* queryCollator) {
    const CollatorInterface* ic = index.desc.collator();
    auto adapt = [&](const std::optional<BSONObj>& v) -> std::optional<BSONObj> {
        if (!v)
            return std::nullopt;
        if (!index_selection::valueUsableForBounds(v->firstElement(), ic, queryCollator))
            return std::nullopt;
        return collationAwareKey(*v, ic);
    };
    FieldPredicate out;
    const bool multikey = index.multikey || index.desc.multikey;
    out.eq = adapt(p.eq);
    out.low = p.lowFromExpr && multikey ? std::nullopt : adapt(p.low);
    out.lowInclusive = p.lowInclusive;
    out.high = p.highFromExpr && multikey ? std::nullopt : adapt(p.high);
    out.highInclusive = p.highInclusive;
    if (p.hasUnion()) {
        std::vector<ValueInterval> intervals;
        bool usable = true;
        for (const BSONObj& v : *p.inValues) {
            auto key = adapt(v);
            if (!key) {
                usable = false;
                break;
            }
            intervals.push_back({*key, true, *key, true});
        }
        for (const BSONObj& r : p.regexes) {
            // Strings the regex may match: those starting with its literal prefix; all
            // strings when it has none, or when the index holds collation keys. Then the
            // regex values themselves ({a: /x/} also matches a stored /x/).
            BSONElement re = r.firstElement();
            std::string prefix =
                ic ? std::string() : index_selection::regexPrefix(re.regex(), re.regexFlags());
            std::string upper = index_selection::regexPrefixUpperBound(prefix);
            BSONObj high = upper.empty() ? BSON("" << BSONObj()) : BSON("" << upper);
            intervals.push_back({BSON("" << prefix), true, high, false});
            intervals.push_back({r, true, r, true});
        }
        if (usable) {
            out.intervals = unionOfIntervals(std::move(intervals));
            // On a multikey index different elements of one array may meet the union and
            // the range ({a: [1, 6]} matches {$in: [1], $gt: 5}): the union alone bounds it.
            if ((out.low || out.high) && !index.multikey && !index.desc.multikey)
                out.intervals = intersectWithRange(*out.intervals, out);
        }
    }
    return out;
}

/** A bound of one key field: the value ({"": v}) and whether it is included. */
struct BoundEnd {
    BSONObj value;
    bool inclusive;
};

/**
 * The end of the type class of `v` on one side (`above`: the end above v, else the one below),
 * as upstream brackets a comparison by type: {$gt: 5} is (5.0, inf.0], {$lt: "m"} is ["", "m"),
 * {$gte: ObjectId(...)} runs to ObjectId('ff...ff')]. Unset where no bracket is used (null,
 * NaN, MinKey/MaxKey, and types without a range here): the scan runs to MinKey/MaxKey and the
 * filter checks the type.
 */
std::optional<BoundEnd> typeBracketEnd(const BSONElement& v, bool above) {
    BSONObjBuilder b;
    bool inclusive = true;
    switch (v.type()) {
        case BSONType::kNumberDouble:
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kNumberDecimal: {
            const bool nan =
                v.type() == BSONType::kNumberDecimal
                    ? v.numberDecimal().isNaN()
                    : (v.type() == BSONType::kNumberDouble && std::isnan(v.numberDouble()));
            if (nan)
                return std::nullopt;
            b.append("", above ? std::numeric_limits<double>::infinity()
                               : -std::numeric_limits<double>::infinity());
            break;
        }
        case BSONType::kString:
        case BSONType::kSymbol:
            if (above) {
                b.append("", BSONObj());  // the first object: just past every string
                inclusive = false;
            } else {
                b.append("", "");
            }
            break;
        case BSONType::kBinData:
            if (above) {
                b.append("", OID());  // the first ObjectId: just past every BinData
                inclusive = false;
            } else {
                b.appendBinData("", 0, BinDataType::BinDataGeneral, "");
            }
            break;
        case BSONType::kOid: {
            unsigned char bytes[OID::kOIDSize];
            std::memset(bytes, above ? 0xff : 0, sizeof(bytes));
            b.append("", OID(bytes));
            break;
        }
        case BSONType::kBool:
            b.appendBool("", above);
            break;
        case BSONType::kDate:
            b.appendDate(
                "", Date_t::fromMillisSinceEpoch(above ? std::numeric_limits<long long>::max()
                                                       : std::numeric_limits<long long>::min()));
            break;
        case BSONType::kTimestamp:
            b.appendTimestamp("", above ? std::numeric_limits<unsigned long long>::max() : 0);
            break;
        default:
            return std::nullopt;
    }
    return BoundEnd{b.obj(), inclusive};
}

/**
 * The interval of a range predicate `p` (in the index's key form; `source` is the predicate as
 * the filter gave it). On a multikey index the two ends may be met by different elements of one
 * array ({a: [1, 10]} matches {a: {$gt: 5, $lt: 3}}): one side only bounds it, and the filter
 * checks the other. A one-sided comparison stops at the end of its value's type class; the
 * $_internalExpr ones, which compare across types, run to MinKey/MaxKey.
 */
ValueInterval rangeInterval(const FieldPredicate& p, const FieldPredicate& source,
                            const IndexEntry& index) {
    ValueInterval iv{BSON("" << MINKEY), true, BSON("" << MAXKEY), true};
    if (p.low) {
        iv.low = *p.low;
        iv.lowInclusive = p.lowInclusive;
    }
    const bool useHigh = p.high && !((index.multikey || index.desc.multikey) && p.low);
    if (useHigh) {
        iv.high = *p.high;
        iv.highInclusive = p.highInclusive;
    }
    if (p.low && !useHigh && !source.lowFromExpr) {
        if (auto end = typeBracketEnd(iv.low.firstElement(), true)) {
            iv.high = end->value;
            iv.highInclusive = end->inclusive;
        }
    } else if (useHigh && !p.low && !source.highFromExpr) {
        if (auto end = typeBracketEnd(iv.high.firstElement(), false)) {
            iv.low = end->value;
            iv.lowInclusive = end->inclusive;
        }
    }
    return iv;
}

std::string boundString(const BSONObj& low, bool lowInc, const BSONObj& high, bool highInc) {
    return std::string(lowInc ? "[" : "(") + low.firstElement().toString(false) + ", " +
           high.firstElement().toString(false) + (highInc ? "]" : ")");
}

/** At most this many intervals from the product of several key fields' unions. */
constexpr size_t kMaxUnionIntervals = 4096;

/**
 * Whether the key fields of `index` that bounds would use (those pinned by equality, then the
 * first other one with a predicate) include a union (`$in`, regex): makeUnionBounds then.
 */
bool boundsNeedUnion(const IndexEntry& index, const std::map<std::string, FieldPredicate>& preds) {
    for (auto kf : index.desc.keyPattern) {
        if (kf.type() == BSONType::kString && !isHashedKeyType(kf))
            return false;  // geo key
        auto it = preds.find(std::string(kf.fieldNameStringData()));
        if (it == preds.end())
            return false;
        if (it->second.eq)
            continue;
        return it->second.hasUnion();
    }
    return false;
}

/**
 * Multi-interval bounds, the product of each key field's intervals: fields pinned to a set of
 * points (equality, `$in`) combine with the next, up to and including the first field with a
 * range or regex; the fields after it are not bounded (FETCH re-checks the filter). The
 * product stops before a field that would make it exceed kMaxUnionIntervals.
 */
int makeUnionBounds(const IndexEntry& index, const std::map<std::string, FieldPredicate>& preds,
                    const CollatorInterface* queryCollator, IndexBounds* bounds,
                    std::set<std::string>* points, bool forward) {
    static const BSONObj kMin = BSON("" << MINKEY);
    static const BSONObj kMax = BSON("" << MAXKEY);
    struct Field {
        std::string name;
        bool desc;
        std::vector<ValueInterval> intervals;  // ascending values
    };
    std::vector<Field> fields;
    size_t product = 1;
    int used = 0;
    for (auto kf : index.desc.keyPattern) {
        std::string name(kf.fieldNameStringData());
        auto it = preds.find(name);
        if (it == preds.end() || (kf.type() == BSONType::kString && !isHashedKeyType(kf)))
            break;
        FieldPredicate p = predicateForIndex(it->second, index, queryCollator);
        std::vector<ValueInterval> intervals;
        if (isHashedKeyType(kf)) {
            // Digests are unordered: only points have keys (the digests of the values).
            std::vector<BSONObj> values;
            if (p.eq)
                values.push_back(*p.eq);
            else if (p.intervals && std::all_of(p.intervals->begin(), p.intervals->end(),
                                                [](auto& iv) { return iv.isPoint(); }))
                for (auto& iv : *p.intervals)
                    values.push_back(iv.low);
            for (auto& v : values) {
                BSONObj h = BSON("" << hashIndexValue(v.firstElement()));
                intervals.push_back({h, true, h, true});
            }
            intervals = unionOfIntervals(std::move(intervals));
        } else if (p.eq) {
            intervals.push_back({*p.eq, true, *p.eq, true});
        } else if (p.intervals) {
            intervals = *p.intervals;
        } else if (p.low || p.high) {
            intervals.push_back(rangeInterval(p, it->second, index));
        }
        if (intervals.empty() || product * intervals.size() > kMaxUnionIntervals)
            break;
        product *= intervals.size();
        ++used;
        const bool allPoints =
            std::all_of(intervals.begin(), intervals.end(), [](auto& iv) { return iv.isPoint(); });
        if (points && intervals.size() == 1 && allPoints)
            points->insert(name);
        fields.push_back({name, kf.numberDouble() < 0, std::move(intervals)});
        if (!allPoints)
            break;
    }

    // The intervals of each field in index order (descending fields reversed).
    std::vector<std::vector<ValueInterval>> ordered;
    for (auto& f : fields) {
        std::vector<ValueInterval> v = f.intervals;
        if (f.desc) {
            std::reverse(v.begin(), v.end());
            for (auto& iv : v) {
                std::swap(iv.low, iv.high);
                std::swap(iv.lowInclusive, iv.highInclusive);
            }
        }
        ordered.push_back(std::move(v));
    }
    // Their product, in index order: the start and end keys are prefixes over the bounded
    // fields (the cursor treats a prefix as covering every key that starts with it).
    std::vector<size_t> pos(ordered.size(), 0);
    bounds->intervals.clear();
    while (!ordered.empty()) {
        BSONObjBuilder start, end;
        for (size_t i = 0; i < ordered.size(); ++i) {
            start.appendAs(ordered[i][pos[i]].low.firstElement(), "");
            end.appendAs(ordered[i][pos[i]].high.firstElement(), "");
        }
        const ValueInterval& last = ordered.back()[pos.back()];
        bounds->intervals.push_back(
            {start.obj(), end.obj(), last.lowInclusive, last.highInclusive});
        size_t i = ordered.size();
        while (i > 0 && ++pos[i - 1] == ordered[i - 1].size())
            pos[--i] = 0;
        if (i == 0)
            break;
    }
    if (bounds->intervals.empty()) {
        // No field bounded (the union cannot bound this index): the whole index.
        bounds->start = BSONObj();
        bounds->end = BSONObj();
        bounds->startInclusive = bounds->endInclusive = true;
    } else {
        bounds->start = bounds->intervals.front().start;
        bounds->end = bounds->intervals.back().end;
    }

    // Explain: each key field's intervals in scan order.
    BSONObjBuilder explain;
    size_t k = 0;
    for (auto kf : index.desc.keyPattern) {
        std::string name(kf.fieldNameStringData());
        BSONArrayBuilder arr(explain.subarrayStart(name));
        if (k < ordered.size()) {
            std::vector<ValueInterval> v = ordered[k];
            if (!forward)
                std::reverse(v.begin(), v.end());
            for (auto& iv : v)
                arr.append(forward
                               ? boundString(iv.low, iv.lowInclusive, iv.high, iv.highInclusive)
                               : boundString(iv.high, iv.highInclusive, iv.low, iv.lowInclusive));
        } else {
            bool desc = kf.isNumber() && kf.numberDouble() < 0;
            arr.append(desc == forward ? boundString(kMax, true, kMin, true)
                                       : boundString(kMin, true, kMax, true));
        }
        arr.done();
        ++k;
    }
    bounds->explain = explain.obj();
    return used;
}

/**
 * Bounds for `index` from `preds`; returns the number of fields with a usable predicate.
 * `points` (optional) receives the leading key fields bound to a single value. The
 * explain form lists each interval in scan order (`forward` false: reversed).
 */
int makeBounds(const IndexEntry& index, const std::map<std::string, FieldPredicate>& preds,
               const CollatorInterface* queryCollator, IndexBounds* bounds,
               std::set<std::string>* points = nullptr, bool forward = true) {
    if (boundsNeedUnion(index, preds))
        return makeUnionBounds(index, preds, queryCollator, bounds, points, forward);
    static const BSONObj kMin = BSON("" << MINKEY);
    static const BSONObj kMax = BSON("" << MAXKEY);
    BSONObjBuilder start, end, explain;
    bool startInc = true, endInc = true;
    bool open = false;  // after a range field, the rest are unbounded
    bool afterExclusiveStart = false, afterExclusiveEnd = false;
    int used = 0;
    for (auto kf : index.desc.keyPattern) {
        std::string field(kf.fieldNameStringData());
        bool desc = kf.numberDouble() < 0;
        BSONObj lo = kMin, hi = kMax;
        bool loInc = true, hiInc = true;
        auto it = preds.find(field);
        const bool hashed = isHashedKeyType(kf);
        if (kf.type() == BSONType::kString && !hashed)  // geo key (S2 cell ids): scanned whole
            open = true;
        if (!open && it != preds.end()) {
            FieldPredicate p = predicateForIndex(it->second, index, queryCollator);
            if (hashed) {
                // Only an equality has a key here: the digest of the (key-form) value; a
                // range is unbounded (digests are unordered). The filter re-checks matches.
                if (p.eq)
                    p.eq = BSON("" << hashIndexValue(p.eq->firstElement()));
                p.low.reset();
                p.high.reset();
            }
            if (p.eq) {
                lo = hi = *p.eq;
                ++used;
                if (points)
                    points->insert(field);
            } else if (p.low || p.high) {
                ValueInterval iv = rangeInterval(p, it->second, index);
                lo = iv.low;
                loInc = iv.lowInclusive;
                hi = iv.high;
                hiInc = iv.highInclusive;
                ++used;
                open = true;
            } else {
                open = true;
            }
        } else {
            open = true;
        }
        BSONArrayBuilder arr(explain.subarrayStart(field));
        if (desc == forward)
            arr.append(boundString(hi, hiInc, lo, loInc));
        else
            arr.append(boundString(lo, loInc, hi, hiInc));
        arr.done();
        const BSONObj* s = desc ? &hi : &lo;
        const BSONObj* en = desc ? &lo : &hi;
        // After a range field whose start (end) is exclusive, the unbounded fields that
        // follow take their end-most (start-most) values: keys equal to the excluded value
        // on the range field then fall outside the interval whatever follows.
        if (afterExclusiveStart)
            s = desc ? &kMin : &kMax;
        if (afterExclusiveEnd)
            en = desc ? &kMax : &kMin;
        start.appendAs(s->firstElement(), "");
        end.appendAs(en->firstElement(), "");
        const bool isRange =
            !(lo.binaryEqual(hi)) && (lo.firstElement().type() != BSONType::kMinKey ||
                                      hi.firstElement().type() != BSONType::kMaxKey);
        if (isRange) {
            afterExclusiveStart = desc ? (!hiInc && hi.firstElement().type() != BSONType::kMaxKey)
                                       : (!loInc && lo.firstElement().type() != BSONType::kMinKey);
            afterExclusiveEnd = desc ? (!loInc && lo.firstElement().type() != BSONType::kMinKey)
                                     : (!hiInc && hi.firstElement().type() != BSONType::kMaxKey);
        }
        if (lo.firstElement().type() != BSONType::kMinKey && !loInc && !desc)
            startInc = false;
        if (hi.firstElement().type() != BSONType::kMaxKey && !hiInc && !desc)
            endInc = false;
        if (desc && hi.firstElement().type() != BSONType::kMaxKey && !hiInc)
            startInc = false;
        if (desc && lo.firstElement().type() != BSONType::kMinKey && !loInc)
            endInc = false;
    }
    bounds->start = start.obj();
    bounds->end = end.obj();
    bounds->startInclusive = startInc;
    bounds->endInclusive = endInc;
    bounds->explain = explain.obj();
    return used;
}

/**
 * Under apiStrict, sparse and text indexes are outside API Version 1: for the planner they do
 * not exist (as upstream; a hint of one is refused like a hint of no index).
 */
bool isOutsideAPIVersion1(const IndexEntry& index, const FindPlanParams& params) {
    if (!params.apiStrict)
        return false;
    if (index.desc.sparse)
        return true;
    for (auto k : index.desc.keyPattern)
        if (k.type() == BSONType::kString && k.valueStringData() == "text")
            return true;
    return false;
}

IndexEntry* findHintedIndex(const Collection& coll, const FindPlanParams& params) {
    IndexEntry* found = nullptr;
    if (!params.hintName.empty()) {
        found = coll.findIndexByName(params.hintName);
    } else {
        for (IndexEntry* i : coll.findIndexesByKeyPattern(params.hint)) {
            if (!i->desc.hidden) {
                found = i;
                break;
            }
        }
    }
    // A hidden index cannot be hinted: it does not exist for the planner.
    uassert(ErrorCodes::BadValue,
            "error processing query: ns=" + coll.ns().ns() +
                " planner returned error :: caused by :: hint provided does not correspond to an "
                "existing index",
            found && !found->desc.hidden && !isOutsideAPIVersion1(*found, params));
    return found;
}

/** An index the planner may scan, with what it does for the query. */
struct IndexChoice {
    IndexEntry* index = nullptr;
    int fieldsBounded = 0;  // key fields with an equality or range predicate
    int sortDirection = 0;  // 1/-1: scanning in that direction yields the sort; 0: it does not
    bool covers = false;    // the plan needs no FETCH (coveredProjectionPaths)
};

std::optional<std::vector<std::string>> coveredProjectionPaths(const IndexEntry& index,
                                                               const FindPlanParams& params,
                                                               bool needsSortStage);

/** Whether an index may provide a sort: not multikey and with the query's collation. */
bool canProvideSort(const IndexEntry& index, const CollatorInterface* queryCollator) {
    if (index.multikey || index.desc.multikey)
        return false;
    return index_selection::collationAllowsSort(index.desc.collator(), queryCollator);
}

/**
 * Whether the planner may use `index` unhinted: never a hidden one; a partial one only when
 * the filter implies its partial filter; a sparse one only when the filter guarantees that
 * every match has one of its key fields (so the index holds every match).
 */
bool isEligible(const IndexEntry& index, const FindPlanParams& params) {
    if (index.desc.hidden || index.desc.isGeoIndex() || index.desc.isTextIndex() ||
        isOutsideAPIVersion1(index, params))
        return false;
    if (!index.desc.partialFilterExpression.isEmpty() &&
        !index_selection::filterImpliesPartialFilter(params.filter,
                                                     index.desc.partialFilterExpression))
        return false;
    if (index.desc.sparse) {
        for (auto k : index.desc.keyPattern)
            if (index_selection::filterRequiresPath(params.filter, k.fieldNameStringData()))
                return true;
        return false;
    }
    return true;
}

IndexChoice evaluateIndex(IndexEntry* index, const std::map<std::string, FieldPredicate>& preds,
                          const FindPlanParams& params, bool wantsSort) {
    IndexChoice c;
    c.index = index;
    IndexBounds bounds;
    std::set<std::string> points;
    c.fieldsBounded = makeBounds(*index, preds, params.collator, &bounds, &points);
    // A key field the filter pins by equality is constant in every document returned, also
    // after a range on an earlier key field (where our scan only filters it): the sort may skip
    // it. As upstream, whose bounds (and so its sort analysis) cover the key fields up to the
    // first one without a predicate, and no further.
    for (auto k : index->desc.keyPattern) {
        auto pred = preds.find(std::string(k.fieldNameStringData()));
        if (pred == preds.end())
            break;
        if (pred->second.eq)
            points.insert(pred->first);
    }
    if (wantsSort && canProvideSort(*index, params.collator))
        c.sortDirection =
            index_selection::providedSortDirection(index->desc.keyPattern, points, params.sort);
    c.covers =
        coveredProjectionPaths(*index, params, wantsSort && c.sortDirection == 0).has_value();
    return c;
}

/**
 * The index with the most bounded key fields; among equals, one that provides the sort, then a
 * partial one, then one that covers the query.
 * With no bounded field at all, an index that provides the sort (a full scan in sort order
 * replaces a blocking SORT, and a limit stops it early). No index: COLLSCAN.
 */
IndexChoice chooseIndex(const Collection& coll, const std::map<std::string, FieldPredicate>& preds,
                        const FindPlanParams& params, bool wantsSort) {
    IndexChoice best;
    for (const auto& idx : coll.indexes()) {
        if (!isEligible(*idx, params))
            continue;
        IndexChoice c = evaluateIndex(idx.get(), preds, params, wantsSort);
        if (c.fieldsBounded == 0 && c.sortDirection == 0)
            continue;
        // Among equals, a partial index (eligible: the filter implies its filter) holds a subset
        // of the others' entries for the same matches, so it scans no more keys.
        const auto isPartial = [](const IndexChoice& x) {
            return !x.index->desc.partialFilterExpression.isEmpty();
        };
        const bool sameSort = (c.sortDirection != 0) == (best.sortDirection != 0);
        bool better = !best.index || c.fieldsBounded > best.fieldsBounded ||
                      (c.fieldsBounded == best.fieldsBounded && c.sortDirection != 0 &&
                       best.sortDirection == 0) ||
                      (c.fieldsBounded == best.fieldsBounded && sameSort && isPartial(c) &&
                       !isPartial(best)) ||
                      // As upstream's plan ranker, which favours a plan without a FETCH.
                      (c.fieldsBounded == best.fieldsBounded && sameSort && c.covers &&
                       !best.covers && isPartial(c) == isPartial(best));
        if (better)
            best = c;
    }
    return best;
}

/**
 * Multi-interval bounds of the geo index `index` for the filter's geo predicates `geo`
 * (geo_index_bounds.h); key fields before the geo field need equality predicates.
 */
std::optional<IndexBounds> geoBoundsFor(const IndexEntry& index,
                                        const std::vector<geo_index_bounds::GeoPredicate>& geo,
                                        const std::map<std::string, FieldPredicate>& preds,
                                        const FindPlanParams& params) {
    if (geo.empty() || !index.desc.isGeoIndex())
        return std::nullopt;
    return geo_index_bounds::boundsForIndex(
        index, geo, [&](const std::string& field) -> std::optional<BSONObj> {
            auto it = preds.find(field);
            if (it == preds.end())
                return std::nullopt;
            return predicateForIndex(it->second, index, params.collator).eq;
        });
}

/**
 * The first geo index that bounds a geo predicate of the filter (not hidden; a partial one
 * only when the filter implies its filter). Geo plans are preferred over every other plan,
 * as upstream's nearly always win its plan ranking.
 */
IndexEntry* chooseGeoIndex(const Collection& coll,
                           const std::vector<geo_index_bounds::GeoPredicate>& geo,
                           const std::map<std::string, FieldPredicate>& preds,
                           const FindPlanParams& params, std::optional<IndexBounds>* bounds) {
    if (geo.empty())
        return nullptr;
    for (const auto& idx : coll.indexes()) {
        if (idx->desc.hidden || !idx->desc.isGeoIndex())
            continue;
        if (!idx->desc.partialFilterExpression.isEmpty() &&
            !index_selection::filterImpliesPartialFilter(params.filter,
                                                         idx->desc.partialFilterExpression))
            continue;
        if ((*bounds = geoBoundsFor(*idx, geo, preds, params)))
            return idx.get();
    }
    return nullptr;
}

/** The eligible index that gives the sort with the most bounded key fields (none: null). */
IndexChoice chooseSortProvidingIndex(const Collection& coll,
                                     const std::map<std::string, FieldPredicate>& preds,
                                     const FindPlanParams& params) {
    IndexChoice best;
    for (const auto& idx : coll.indexes()) {
        if (!isEligible(*idx, params))
            continue;
        IndexChoice c = evaluateIndex(idx.get(), preds, params, true);
        if (c.sortDirection != 0 && (!best.index || c.fieldsBounded > best.fieldsBounded))
            best = c;
    }
    return best;
}

/** The stages above the data access: SORT (when `needsSort`), SKIP, LIMIT, PROJECTION. */
/**
 * Whether `filter` can be decided on the key fields `keyFields` of an index that is not
 * multikey on them and keeps no collation keys, as the document the key makes: each predicate
 * on one key field, with operators that treat a missing field as null ($eq, $ne, comparisons,
 * $in, $nin, $regex, $mod) and no array or undefined operands; $and of such.
 */
bool decidedOnKeyFields(const BSONObj& filter, const std::set<std::string>& keyFields) {
    const auto scalar = [](const BSONElement& v) {
        return v.type() != BSONType::kArray && v.type() != BSONType::kUndefined;
    };
    for (auto e : filter) {
        StringData name = e.fieldNameStringData();
        if (name == "$and" && e.type() == BSONType::kArray) {
            for (auto sub : e.embeddedObject())
                if (sub.type() != BSONType::kObject ||
                    !decidedOnKeyFields(sub.embeddedObject(), keyFields))
                    return false;
            continue;
        }
        if (!keyFields.count(std::string(name)))
            return false;  // also every other top-level operator
        if (e.type() != BSONType::kObject ||
            !e.embeddedObject().firstElementFieldNameStringData().starts_with("$")) {
            if (!scalar(e))
                return false;
            continue;
        }
        for (auto op : e.embeddedObject()) {
            StringData o = op.fieldNameStringData();
            if (o == "$in" || o == "$nin" || o == "$mod") {
                if (op.type() != BSONType::kArray)
                    return false;
                for (auto v : op.embeddedObject())
                    if (!scalar(v))
                        return false;
                continue;
            }
            if (o != "$eq" && o != "$ne" && o != "$gt" && o != "$gte" && o != "$lt" &&
                o != "$lte" && o != "$regex" && o != "$options")
                return false;
            if (!scalar(op))
                return false;
        }
    }
    return true;
}

/**
 * The paths a covered plan over `index` projects for `params` (PROJECTION_COVERED, no FETCH),
 * or nullopt. As upstream: an inclusion projection of plain paths that are all key fields
 * (`_id` too unless excluded), a btree index without a collation that is not multikey on the
 * projected and filtered fields, a filter decided on key fields, no SORT stage to run over
 * documents, no returnKey.
 */
std::optional<std::vector<std::string>> coveredProjectionPaths(const IndexEntry& index,
                                                               const FindPlanParams& params,
                                                               bool needsSortStage) {
    if (!params.projection || params.returnKey || needsSortStage ||
        params.projectionSpec.isEmpty() || index.desc.collator() ||
        params.resumeAfter.has_value() || index.desc.spec["clustered"].trueValue() || !index.sdi)
        return std::nullopt;
    std::vector<std::string> keyFields;
    for (auto k : index.desc.keyPattern) {
        if (!k.isNumber())
            return std::nullopt;  // hashed, geo, text: the key is not the value
        keyFields.emplace_back(k.fieldNameStringData());
    }
    bool withId = true;
    std::vector<std::string> paths;
    for (auto e : params.projectionSpec) {
        StringData name = e.fieldNameStringData();
        if ((!e.isNumber() && !e.isBoolean()) || name.starts_with("$") ||
            name.find(".$") != StringData::npos)
            return std::nullopt;
        if (name == "_id") {
            withId = e.trueValue();
            continue;
        }
        if (!e.trueValue())
            return std::nullopt;  // an exclusion projection
        paths.emplace_back(name);
    }
    if (paths.empty())
        return std::nullopt;
    if (withId)
        paths.insert(paths.begin(), "_id");
    std::set<std::string> used(paths.begin(), paths.end());
    std::set<std::string> keySet(keyFields.begin(), keyFields.end());
    for (const auto& p : paths)
        if (!keySet.count(p))
            return std::nullopt;
    if (!decidedOnKeyFields(params.filter, keySet))
        return std::nullopt;
    std::map<std::string, FieldPredicate> filtered;
    analyzeFieldPredicates(params.filter, &filtered);
    for (const auto& f : filtered)
        used.insert(f.first);
    if (index.multikey || index.desc.multikey) {
        std::lock_guard<std::mutex> lk(index.multikeyPathsMutex);
        if (index.multikeyPaths.size() != keyFields.size())
            return std::nullopt;
        for (size_t i = 0; i < keyFields.size(); ++i)
            if (used.count(keyFields[i]) && !index.multikeyPaths[i].empty())
                return std::nullopt;
    }
    return paths;
}

/**
 * Whether the bounds makeBounds gives `index` for `filter` hold exactly its matches (no
 * filter needs to re-check the keys): every predicate bounds-exact (boundsAreExactFor) on a
 * key field that the bounds use (the leading equalities, then one range), on an index that is
 * not multikey, without a collation for the query.
 */
bool boundsDecideFilter(const IndexEntry& index, const BSONObj& filter,
                        const CollatorInterface* queryCollator) {
    if (queryCollator || index.multikey || index.desc.multikey)
        return false;
    int decided = 0;
    for (auto k : index.desc.keyPattern) {
        BSONElement p = filter[k.fieldNameStringData()];
        if (p.eoo() || !boundsAreExactFor(p))
            break;
        ++decided;
        const bool equality =
            p.type() != BSONType::kObject ||
            !p.embeddedObject().firstElementFieldNameStringData().starts_with("$") ||
            p.embeddedObject().firstElementFieldNameStringData() == "$eq";
        if (!equality)
            break;
    }
    return decided == filter.nFields();
}

/**
 * The express path of an `_id` point lookup (upstream 8.0's EXPRESS_IXSCAN): a filter
 * {_id: v} or {_id: {$eq: v}}, v a scalar the _id index bounds to one point (under the query's
 * collation), no sort, hint, skip, min/max, returnKey or resume token. nullptr otherwise.
 */
std::unique_ptr<PlanStage> expressIdLookup(const std::shared_ptr<Collection>& coll,
                                           const FindPlanParams& params,
                                           const std::map<std::string, FieldPredicate>& preds) {
    if (!params.allowExpress || params.filter.nFields() != 1 || !params.sort.isEmpty() ||
        !params.hint.isEmpty() || !params.hintName.empty() || params.skip > 0 ||
        !params.min.isEmpty() || !params.max.isEmpty() || params.returnKey || params.resumeAfter)
        return nullptr;
    BSONElement v = params.filter["_id"];
    if (v.type() == BSONType::kObject) {
        BSONObj ops = v.embeddedObject();
        if (ops.nFields() != 1 || ops.firstElementFieldNameStringData() != "$eq")
            return nullptr;
        v = ops.firstElement();
    }
    switch (v.type()) {
        case BSONType::kEOO:
        case BSONType::kObject:
        case BSONType::kArray:
        case BSONType::kRegEx:
        case BSONType::kUndefined:
        case BSONType::kNull:
        case BSONType::kMinKey:
        case BSONType::kMaxKey:
            return nullptr;
        default:
            break;
    }
    IndexEntry* index = coll->findIndexByName(IndexDescriptor::kIdIndexName);
    if (!index || !index->sdi || index->desc.hidden || index->desc.spec["clustered"].trueValue())
        return nullptr;
    IndexBounds bounds;
    std::set<std::string> points;
    makeBounds(*index, preds, params.collator, &bounds, &points);
    if (!points.count("_id"))
        return nullptr;
    auto ixscan = std::make_unique<IndexScanStage>(coll, index, bounds, true);
    return std::make_unique<ExpressIndexScanStage>(
        std::make_unique<FetchStage>(coll, std::move(ixscan), params.matcher), "{ _id: 1 }",
        std::string(IndexDescriptor::kIdIndexName));
}

std::unique_ptr<PlanStage> finishPlan(std::unique_ptr<PlanStage> root, const FindPlanParams& params,
                                      bool needsSort,
                                      const std::vector<std::string>* coveredPaths = nullptr) {
    const bool naturalSort = params.sort.firstElementFieldNameStringData() == "$natural";
    if (params.sortPattern && !naturalSort && needsSort) {
        long long topK = params.limit > 0 ? params.limit + params.skip : 0;
        root = std::make_unique<SortStage>(std::move(root), params.sortPattern, params.sort, topK,
                                           params.maxSortMemoryBytes, params.allowDiskUse);
    }
    if (params.skip > 0)
        root = std::make_unique<SkipStage>(std::move(root), params.skip);
    if (params.limit > 0)
        root = std::make_unique<LimitStage>(std::move(root), params.limit);
    if (coveredPaths) {
        root = std::make_unique<ProjectionCoveredStage>(std::move(root), *coveredPaths);
    } else if (params.projection) {
        auto projection = std::make_unique<ProjectionStage>(
            std::move(root), params.projection, params.projectionSpec, params.simpleProjection);
        if (params.returnKey)
            projection->useIndexKey();  // the key the IXSCAN found the record at
        root = std::move(projection);
    }
    return root;
}

}  // namespace

long long defaultMaxSortMemoryBytes() {
    return gInternalQueryMaxBlockingSortMemoryUsageBytes.load();
}

namespace {
/** BadValue unless a `$natural` in `spec` (a sort or a hint) is its only field, with 1 or -1. */
void checkNaturalParam(const BSONObj& spec, StringData what) {
    BSONElement natural = spec["$natural"];
    if (natural.eoo())
        return;
    uassert(ErrorCodes::BadValue,
            "$natural " + std::string(what) + " cannot be set to a value other than -1 or 1.",
            spec.nFields() == 1 && natural.isNumber() &&
                (natural.numberDouble() == 1 || natural.numberDouble() == -1));
}
/**
 * returnKey's projection where the scan gives no key: the document's first key in `index` ({}
 * without an index). An IXSCAN's results carry the key they were found at, used instead.
 */
ProjectionFn returnKeyProjection(const IndexEntry* index) {
    if (!index)
        return [](const WorkingMember&) { return BSONObj(); };
    BSONObj keyPattern = index->desc.keyPattern.getOwned();
    return [keyPattern](const WorkingMember& m) {
        IndexKeys keys;
        if (!getIndexKeys(keyPattern, m.doc, false, &keys).isOK() || keys.keys.empty())
            return BSONObj();
        BSONObjBuilder b;
        auto names = keyPattern.begin();
        for (BSONElement v : keys.keys.front())
            b.appendAs(v, names.next().fieldNameStringData());
        return b.obj();
    };
}

}  // namespace

std::unique_ptr<PlanExecutor> buildFindPlan(OperationContext* opCtx,
                                            std::shared_ptr<Collection> coll,
                                            const FindPlanParams& params) {
    if (isAPIStrict(opCtx) && !params.apiStrict) {
        FindPlanParams strict = params;
        strict.apiStrict = true;
        return buildFindPlan(opCtx, std::move(coll), strict);
    }
    checkNaturalParam(params.sort, "sort");
    // A textScore sort needs the scores of a $text query.
    if (params.sortPattern)
        for (const auto& part : params.sortPattern->parts())
            uassert(40218, "query requires text score metadata, but it is not available",
                    part.metaName != SortPattern::kTextScoreMeta ||
                        findTextExpression(params.matcher.get()));
    checkNaturalParam(params.hint, "hint");
    uassert(ErrorCodes::BadValue, "a $natural sort cannot be used with an index hint",
            !(params.sort.hasField("$natural") && !params.hint.isEmpty() &&
              !params.hint.hasField("$natural")));
    std::unique_ptr<PlanStage> root;
    if (!coll) {
        // A missing collection behaves as an empty one: EOF.
        class EofStage : public PlanStage {
        public:
            std::optional<WorkingMember> next(OperationContext*) override {
                return std::nullopt;
            }
            std::string stageName() const override {
                return "EOF";
            }
        };
        root = std::make_unique<EofStage>();
        return std::make_unique<PlanExecutor>(std::move(root));
    }

    bool naturalHint = params.hint.firstElementFieldNameStringData() == "$natural";
    bool naturalSort = params.sort.firstElementFieldNameStringData() == "$natural";
    bool wantsSort = params.sortPattern && !naturalSort;
    std::map<std::string, FieldPredicate> preds;
    analyzeFieldPredicates(params.filter, &preds);
    // $text: the text index answers it (text_stages.h), whatever else the filter says.
    if (const TextMatchExpression* text = topLevelTextExpression(params.matcher.get()))
        return std::make_unique<PlanExecutor>(
            finishPlan(buildTextPlan(coll, *text, params.matcher, params.filter, preds,
                                     params.apiStrict, params.needsTextScore),
                       params, true));
    if (const TextMatchExpression* text = findTextExpression(params.matcher.get()))
        return std::make_unique<PlanExecutor>(
            finishPlan(buildTextUnderOrPlan(coll, *text, params.matcher, params.filter, preds,
                                            params.apiStrict),
                       params, true));
    if (!naturalHint && !naturalSort)
        if (auto express = expressIdLookup(coll, params, preds))
            return std::make_unique<PlanExecutor>(finishPlan(std::move(express), params, false));
    IndexChoice choice;
    std::optional<IndexBounds> geoBounds;  // set when the chosen index is scanned by geo cells
    const auto geo = geo_index_bounds::findGeoPredicates(params.matcher.get());
    std::optional<IndexBounds> minMax;  // set when min/max give the bounds of the hinted index
    if (!params.min.isEmpty() || !params.max.isEmpty()) {
        uassert(51173, "When using min()/max() a hint of which index to use must be provided",
                !params.hint.isEmpty());
        uassert(ErrorCodes::NoQueryExecutionPlans,
                "error processing query: planner returned error :: caused by :: min/max cannot "
                "be used with a $natural hint",
                !naturalHint);
        IndexEntry* hinted = findHintedIndex(*coll, params);
        minMax = minMaxBounds(*hinted, params.min, params.max);
        choice = evaluateIndex(hinted, {}, params, wantsSort);  // for the sort it may give
    } else if (!params.hint.isEmpty() && !naturalHint) {
        IndexEntry* hinted = findHintedIndex(*coll, params);
        geoBounds = geoBoundsFor(*hinted, geo, preds, params);
        if (geoBounds)
            choice.index = hinted;
        else
            choice = evaluateIndex(hinted, preds, params, wantsSort);
    } else if (!naturalHint && !naturalSort) {
        choice.index = chooseGeoIndex(*coll, geo, preds, params, &geoBounds);
        if (!choice.index)
            choice = chooseIndex(*coll, preds, params, wantsSort);
    }

    // A plan whose blocking SORT may outgrow its memory gets, as upstream's multi-planner
    // would find, the best index that gives the sort as a backup (PlanExecutor::setBackupPlan).
    IndexChoice backup;
    if (wantsSort && !geoBounds && !minMax && !params.returnKey && choice.sortDirection == 0 &&
        !params.allowDiskUse && params.hint.isEmpty())
        backup = chooseSortProvidingIndex(*coll, preds, params);

    bool sortProvided = false;
    std::optional<std::vector<std::string>> coveredPaths;
    if (geoBounds) {
        auto ixscan = std::make_unique<IndexScanStage>(coll, choice.index, *geoBounds, true);
        ixscan->setReturnKeys(params.returnKey);
        root = std::make_unique<FetchStage>(coll, std::move(ixscan), params.matcher);
    } else if (choice.index) {
        bool forward = choice.sortDirection >= 0;
        sortProvided = wantsSort && choice.sortDirection != 0;
        IndexBounds bounds;
        if (minMax)
            bounds = *minMax;
        else
            makeBounds(*choice.index, preds, params.collator, &bounds, nullptr, forward);
        auto ixscan = std::make_unique<IndexScanStage>(coll, choice.index, bounds, forward);
        ixscan->setReturnKeys(params.returnKey);
        coveredPaths = coveredProjectionPaths(*choice.index, params, wantsSort && !sortProvided);
        if (coveredPaths) {
            // Covered: the keys answer the filter and the projection; no document is read.
            ixscan->setReturnKeys(true);
            if (!params.filter.isEmpty() && params.matcher &&
                (minMax || !boundsDecideFilter(*choice.index, params.filter, params.collator)))
                ixscan->setKeyFilter(params.matcher);
            root = std::move(ixscan);
        } else {
            root = std::make_unique<FetchStage>(coll, std::move(ixscan), params.matcher);
        }
    } else {
        bool forward = true;
        if (naturalHint)
            forward = params.hint.firstElement().numberDouble() >= 0;
        if (naturalSort)
            forward = params.sort.firstElement().numberDouble() >= 0;
        root = std::make_unique<CollectionScanStage>(coll, forward, params.matcher,
                                                     params.resumeAfter);
    }
    FindPlanParams finishing = params;
    if (params.returnKey) {
        finishing.projection = returnKeyProjection(choice.index);
        finishing.projectionSpec = BSONObj();
        finishing.simpleProjection = false;
    }
    auto exec = std::make_unique<PlanExecutor>(finishPlan(std::move(root), finishing, !sortProvided,
                                                          coveredPaths ? &*coveredPaths : nullptr));
    if (backup.index) {
        IndexBounds bounds;
        const bool forward = backup.sortDirection > 0;
        makeBounds(*backup.index, preds, params.collator, &bounds, nullptr, forward);
        // Built when used only (an index scan counts as an access of its index). The
        // parameters it keeps (matcher, sort, projection) are shared or copied; the collator
        // is not read after this call.
        exec->setBackupPlan([coll, index = backup.index, bounds, forward, params] {
            auto ixscan = std::make_unique<IndexScanStage>(coll, index, bounds, forward);
            return finishPlan(std::make_unique<FetchStage>(coll, std::move(ixscan), params.matcher),
                              params, false);
        });
    }
    return exec;
}

std::optional<IndexBounds> singleIntervalBounds(const IndexEntry& index, const BSONObj& filter,
                                                const CollatorInterface* collator, bool forward) {
    std::map<std::string, FieldPredicate> preds;
    analyzeFieldPredicates(filter, &preds);
    if (boundsNeedUnion(index, preds))
        return std::nullopt;
    IndexBounds bounds;
    if (makeBounds(index, preds, collator, &bounds, nullptr, forward) == 0)
        return std::nullopt;
    return bounds;
}

bool boundsAreExactFor(const BSONElement& predicate) {
    if (predicate.type() != BSONType::kObject ||
        !predicate.embeddedObject().firstElementFieldNameStringData().starts_with("$"))
        return typeBracketEnd(predicate, true).has_value();  // equality with a bracketed value
    int lows = 0, highs = 0, eqs = 0;
    std::optional<int> typeClass;
    for (auto op : predicate.embeddedObject()) {
        StringData name = op.fieldNameStringData();
        if (name == "$gt" || name == "$gte")
            ++lows;
        else if (name == "$lt" || name == "$lte")
            ++highs;
        else if (name == "$eq")
            ++eqs;
        else
            return false;
        if (!typeBracketEnd(op, true))
            return false;
        const int c = canonicalizeBSONType(op.type());
        if (typeClass && *typeClass != c)
            return false;  // {$gt: 5, $lt: "z"}: the interval would run across types
        typeClass = c;
    }
    return eqs ? (eqs == 1 && lows == 0 && highs == 0) : (lows <= 1 && highs <= 1);
}

}  // namespace mongo
