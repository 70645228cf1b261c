// Answering aggregations on a time-series view from a rollup level (README.md, "Queries"):
// a pipeline [$match on time and meta]? [$sort on time]? $group ... whose $group is exact on
// a level is rewritten into a pipeline over that level's collection. Pure analysis of the
// stages' BSON, plus a catch-up of the levels before the answer. Thread safety: as catchUp().
#pragma once

#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {
class OperationContext;
}  // namespace mongo

namespace mongo::timeseries::rollups {

struct RollupRewrite {
    NamespaceString levelNss;     // the collection the new stages read
    std::vector<BSONObj> stages;  // replace the request's whole pipeline
    /** explain's `rollups`: {servedBy: [{bucketSpanSeconds, ns, from, to}], rawPath: false}. */
    BSONObj explain;
};

/**
 * The rewrite of `stages` (an aggregate on `viewNss`) onto the coarsest rollup level that
 * gives the same result, or nullopt (the raw path). Exact means: the leading $match (if
 * any) only bounds the time field with $gte/$lt at bin starts of the level and tests meta
 * paths; an optional $sort on the time field alone; then a $group whose _id is made of
 * constants, meta paths and $dateTrunc of the time field (UTC) to a multiple of the level's
 * span (calendar units: a span dividing a day), with accumulators $min, $max, $sum of a
 * field or of 1, $count, $avg, and $first/$last after the $sort, on fields the level keeps
 * the needed accumulators of ($min/$max of the time field: always). Sums and averages of
 * doubles may differ from the raw path in the last bits (partial sums). Only with the
 * simple collation (`simpleCollation`: the request's; the collection's is checked here).
 * Brings the levels up to date (catchUp) before returning a rewrite.
 */
std::optional<RollupRewrite> rewriteForRollups(OperationContext* opCtx,
                                               const NamespaceString& viewNss,
                                               const std::vector<BSONObj>& stages,
                                               bool simpleCollation);

/** `nss` is a time-series view with rollup levels. */
bool hasRollups(OperationContext* opCtx, const NamespaceString& nss);

}  // namespace mongo::timeseries::rollups
