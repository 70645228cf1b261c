// A small query planner: picks an index from the filter's top-level equality, range,
// `$in` and regex predicates (or the hint), and builds the stage tree for a find:
// (COLLSCAN | IXSCAN+FETCH) -> SORT -> SKIP -> LIMIT -> PROJECTION.
// Index bounds may be wider than the predicates; FETCH re-applies the whole
// filter, so results are always exact. `$in` values and regexes (their literal prefix,
// index_selection::regexPrefix, and the regex values themselves) give several intervals
// per key field; fields pinned to points combine with the next field as a product. A
// $geoWithin/$geoIntersects (or bucket-level
// $_internalBucketGeoWithin) predicate on a 2dsphere(_bucket) index field is scanned over
// the S2 cell ranges of its region (geo_index_bounds.h), and such a plan is preferred over
// any other. An index whose key order gives the sort is
// scanned in that direction and the SORT stage is dropped. Partial and sparse
// indexes are used only when the filter proves they hold every match
// (index_selection.h); hidden indexes never. Collation rules: see
// FindPlanParams::collator. One-sided comparisons are bracketed by type ({$gt: 5} scans
// (5, inf.0]). A plan is covered (IXSCAN -> PROJECTION_COVERED, no FETCH) when an inclusion
// projection reads only key fields of an index without a collation that is not multikey on
// them and the filter reads only key fields (checked on the keys, unless the bounds decide it);
// among indexes bounding as much, a covering one wins. Otherwise the plan FETCHes, so index
// keys that hold collation comparison keys never reach results. A `$or` of equalities on one
// field bounds like the `$in` it equals. A find of one `_id` value takes upstream 8.0's express
// path (EXPRESS_IXSCAN, FindPlanParams::allowExpress).
#pragma once

#include <memory>
#include <optional>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/plan_stage.h"

namespace mongo {

class Collection;
class CollatorInterface;
class MatchExpression;
class SortPattern;
class OperationContext;

/** The current value of the internalQueryMaxBlockingSortMemoryUsageBytes server parameter. */
long long defaultMaxSortMemoryBytes();

struct FindPlanParams {
    BSONObj filter;
    std::shared_ptr<MatchExpression> matcher;  // parsed filter (null: match all)
    BSONObj sort;                              // empty: none ({$natural: ±1} allowed)
    std::shared_ptr<SortPattern> sortPattern;  // parsed sort, null if none
    ProjectionFn projection;                   // null: none
    BSONObj projectionSpec;
    bool simpleProjection = false;
    long long skip = 0;
    long long limit = 0;  // 0: none
    BSONObj hint;         // {} none; {$natural: 1}; key pattern; {"$hint": "name"}
    std::string hintName;
    bool allowDiskUse = false;
    /** apiStrict: indexes outside API Version 1 (sparse, text) are not used nor hintable. */
    bool apiStrict = false;
    /** Blocking SORT budget; defaults to internalQueryMaxBlockingSortMemoryUsageBytes. */
    long long maxSortMemoryBytes = defaultMaxSortMemoryBytes();
    /**
     * The query's collation (null: simple): the operation's, else the collection's default
     * (Collection::getDefaultCollator()); the matcher and sort must use the same one. Read
     * only during buildFindPlan (it must stay alive for that call, not longer). Indexes of
     * another collation get no bounds from string/object/array values and give no sort;
     * string bounds on an index of this collation are built from comparison keys.
     */
    const CollatorInterface* collator = nullptr;
    /** $_resumeAfter: a collection scan ({$natural} hint) starts after this record. */
    std::optional<RecordId> resumeAfter;
    /** find's `min` / `max` (empty: none): the hinted index from min to max (min_max_bounds.h). */
    BSONObj min;
    BSONObj max;
    /**
     * find's `returnKey`: each result is the key of the index the plan reads, under the key
     * pattern's field names ({} for a collection scan), instead of the document and its
     * projection.
     */
    bool returnKey = false;
    /** A find command's plan: an `_id` point lookup may take the express path (EXPRESS_IXSCAN). */
    bool allowExpress = false;
    /**
     * Whether something reads the text score of a $text query's documents. False (a find whose
     * projection and sort do not name it): the $text plan streams its index scans (FETCH <- OR)
     * instead of scoring every candidate first (TEXT_OR), as upstream.
     */
    bool needsTextScore = true;
};

/**
 * Builds the executor for `params` over `coll` (which may be null: an empty result).
 * BadValue 2 when the hint names no index (or a hidden one). With `min`/`max`: 51173 without a
 * hint, NoQueryExecutionPlans 291 with a $natural one, and the errors of minMaxBounds(). A hinted
 * partial or sparse index is used as asked, like upstream (it may miss documents outside the
 * index). The SORT stage throws QueryExceededMemoryLimitNoDiskUseAllowed 292 past
 * maxSortMemoryBytes unless allowDiskUse.
 */
std::unique_ptr<PlanExecutor> buildFindPlan(OperationContext* opCtx,
                                            std::shared_ptr<Collection> coll,
                                            const FindPlanParams& params);

struct IndexBounds;
struct IndexEntry;

/**
 * The single-interval bounds buildFindPlan would scan `index` with for `filter` (start/end
 * keys over every key field, explain form in `forward` scan order); nullopt when the filter
 * needs several intervals (`$in`, regexes) or bounds nothing. Values `collator` cannot bound
 * on this index are left unbounded.
 */
std::optional<IndexBounds> singleIntervalBounds(const IndexEntry& index, const BSONObj& filter,
                                                const CollatorInterface* collator, bool forward);

/**
 * Whether `predicate` (one top-level field of a filter: a value, or an object of operators)
 * matches exactly the keys inside the bounds made for it, on an index that is not multikey and
 * holds no collation keys: an equality or comparisons ($eq, one of $gt/$gte, one of $lt/$lte)
 * with values of one bracketed type (numbers but NaN, strings, BinData, ObjectId, bool, Date,
 * Timestamp). Then no filter needs to re-check what the scan returns.
 */
bool boundsAreExactFor(const BSONElement& predicate);

}  // namespace mongo
