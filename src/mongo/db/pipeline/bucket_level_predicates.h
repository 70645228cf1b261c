// Bucket-level predicates for time-series queries (spec §5.3): from a filter on
// measurements, a `loose` filter on bucket documents that every bucket holding a
// matching measurement satisfies (so it may be evaluated before unpacking, and
// through the buckets' indexes), and a `tight` filter that a bucket satisfies
// only when every one of its measurements matches (wholeBucketFilter).
//
// Mapped: comparisons ($eq, $gt, $gte, $lt, $lte, $in) on the time field (Date
// operands), on top-level measurement fields (scalar operands; buckets whose
// control.min/max types differ are always kept), and any predicate on the meta
// field or below it (renamed to `meta`). $and keeps the children it can map;
// $or needs all of them. Anything else maps to "no constraint". control.min/max are
// compared with $_internalExpr{Gt,Gte,Lt,Lte} (§5.3.1, §5.3.2: all types in one order, an
// array matches), `_id` with plain comparisons; the planner bounds a buckets index with
// them when it is not multikey.
//
// Collation (§5.3.1): control.min/max order strings by the collection's default
// collation, so a string operand is mapped only when the query's collation is that one.
#pragma once

#include "mongo/bson/bsonobj.h"
#include "mongo/db/pipeline/bucket_unpacker.h"

namespace mongo {

class ExpressionContext;

struct BucketLevelPredicates {
    BSONObj loose;  // empty: no constraint
    BSONObj tight;  // empty: none
};

struct BucketPredicateOptions {
    int bucketMaxSpanSeconds = 3600;
    bool assumeNoMixedSchemaData = false;
    bool usesExtendedRange = false;
    /**
     * The query's collation is the buckets collection's default one (both simple counts).
     * False: comparisons with string operands on measurement fields are not mapped.
     */
    bool collationMatchesDefault = true;
};

/**
 * Whether `expCtx`'s collator matches the default collation of the collection
 * `expCtx.ns` (the buckets collection of a time-series query); a missing collection
 * counts as simple. Costs a catalog lookup.
 */
bool collationMatchesCollectionDefault(const ExpressionContext& expCtx);

BucketLevelPredicates makeBucketLevelPredicates(const BSONObj& eventFilter, const BucketSpec& spec,
                                                const BucketPredicateOptions& options);

}  // namespace mongo
