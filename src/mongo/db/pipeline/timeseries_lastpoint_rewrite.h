// The time-series "last-point" rewrite (spec §5.4): a $group that keeps, per series,
// the latest (or earliest) measurement is answered by unpacking only the candidate
// buckets of each series instead of all of them. Pure BSON -> BSON: the unpack stage
// (document_source_internal_unpack_bucket.cpp) inserts the returned bucket-level stages
// before itself and keeps the user's $sort and $group after it, so the result is the
// unrewritten pipeline's result computed over fewer buckets.
#pragma once

#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/pipeline/bucket_unpacker.h"

namespace mongo::timeseries_rewrite {

/** Bucket-level stages ({$stage: spec} objects) to run before unpacking, in order. */
struct LastPointRewrite {
    std::vector<BSONObj> bucketStages;
    bool latest = true;  // false: the earliest measurement per group
};

/**
 * Recognises `[$sort: {<meta paths>...: ±1, <time>: ±1}, $group: {_id: <key>, f: {$first|$last:
 * <expr>}...}]` (`sortSpec` non-empty, `sortLimit` 0) and `$group: {_id: <key>, f: {$top|$bottom:
 * {sortBy: {<time>: ±1}, output: <expr>}}}` or the same with $topN/$bottomN and `n: 1` (one
 * accumulator; `sortSpec` empty), where <key> is "$<meta path>" and every meta sort key is the
 * group key path or below it. All accumulators must select the same end of the time order.
 * These are the shapes upstream rewrites (no null or compound key, no two $top/$bottom).
 *
 * Latest: {$sort: {<meta keys>, control.max.<t>: ∓1}}, {$group: {_id: <key on meta>, bucket:
 * {$first|$last: "$$ROOT"}}}, {$replaceRoot: {newRoot: "$bucket"}} — exact because
 * control.max.<t> is the bucket's true maximum (kept exact by inserts, updates and deletes).
 * Earliest: control.min.<t> is only a lower bound (rounded down, not lowered by deletes), so
 * every bucket whose control.min.<t> is at most the smallest control.max.<t> of its group
 * stays a candidate ($setWindowFields + $match + $project).
 *
 * With a buckets index ordered by the meta group paths then control.max.<t>, the latest
 * form's $sort + $group run as DISTINCT_SCAN + $groupByDistinctScan
 * (document_source_group_by_distinct_scan.h).
 *
 * nullopt when the shape does not match or the meta field is absent, excluded or recomputed.
 * REQUIRES: the unpack stage has no eventFilter.
 */
std::optional<LastPointRewrite> rewriteLastPoint(const BSONObj& sortSpec, long long sortLimit,
                                                 const BSONObj& groupSpec, const BucketSpec& spec);

}  // namespace mongo::timeseries_rewrite
