// $groupByDistinctScan (upstream's explain name): a $group whose every group is the first
// document of a $sort, answered by a DISTINCT_SCAN (exec/distinct_scan.h) + FETCH that
// returns exactly one document per group; the $group becomes a per-document transformation
// {$groupByDistinctScan: {newRoot: {_id: <key>, <f>: <$first operand>...}}}.
//
// Applied to the time-series last-point rewrite (timeseries_lastpoint_rewrite.h): the
// bucket-level `$sort: {<meta keys>, control.max.<t>: ∓1}` + `$group: {_id: <meta key>,
// bucket: {$first|$last: "$$ROOT"}}` before `$replaceRoot` + `$_internalUnpackBucket`,
// over a buckets index whose key starts with the meta group paths followed by
// control.max.<t> (e.g. the conversion of a view index {<meta>: 1, <time>: -1}). Only
// control.max.<t> qualifies: it is every bucket's exact latest time, so the first index
// entry per meta is the bucket holding the series' latest measurement. The default
// {meta: 1, control.min.<t>: 1, control.max.<t>: 1} index does not: read backwards it
// yields the bucket with the latest control.min, which need not hold the latest measurement
// when buckets of a series overlap in time (a bucket rolled over by count or size, then
// out-of-order inserts); the "earliest" rewrite is not a $sort + $group and is never served.
#pragma once

#include <memory>

#include "mongo/db/exec/planner.h"
#include "mongo/db/pipeline/pipeline.h"

namespace mongo {

class Collection;
class OperationContext;

/**
 * When `pipeline` (after Pipeline::extractFindParams produced `params`) starts with the
 * last-point bucket $group described above and `coll` has an eligible index — not hidden,
 * sparse, partial or multikey, of the query's collation (params.collator) — returns the
 * FETCH + DISTINCT_SCAN executor and replaces the $group by $groupByDistinctScan. A $match
 * taken by the find layer is allowed when it reads only top-level fields that are group
 * paths (constant inside a group); FETCH applies it. nullptr (pipeline unchanged) otherwise,
 * including with a hint, skip or limit.
 */
std::unique_ptr<PlanExecutor> planGroupByDistinctScan(OperationContext* opCtx,
                                                      const std::shared_ptr<Collection>& coll,
                                                      Pipeline* pipeline,
                                                      const FindPlanParams& params);

}  // namespace mongo
