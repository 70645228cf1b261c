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
// $or needs all of them. Anything else maps to "no constraint".
#pragma once

#include "mongo/bson/bsonobj.h"
#include "mongo/db/pipeline/bucket_unpacker.h"

namespace mongo {

struct BucketLevelPredicates {
    BSONObj loose;  // empty: no constraint
    BSONObj tight;  // empty: none
};

struct BucketPredicateOptions {
    int bucketMaxSpanSeconds = 3600;
    bool assumeNoMixedSchemaData = false;
    bool usesExtendedRange = false;
};

BucketLevelPredicates makeBucketLevelPredicates(const BSONObj& eventFilter, const BucketSpec& spec,
                                                const BucketPredicateOptions& options);

}  // namespace mongo
