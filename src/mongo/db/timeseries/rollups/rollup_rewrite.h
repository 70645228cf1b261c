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
    /**
     * explain's `rollups`: {servedBy: [{bucketSpanSeconds, ns, from, to} or {raw: true, from,
     * to}, ...], rawPath: false}.
     */
    BSONObj explain;
};

/**
 * The rewrite of `stages` (an aggregate on `viewNss`) onto the rollup levels, or nullopt (the
 * raw path). It applies when the leading $match (if any) only bounds the time field ($gte,
 * $gt, $lt, $lte) and tests meta paths; an optional $sort on the time field alone; then a
 * $group whose _id is made of constants, meta paths and $dateTrunc of the time field (UTC),
 * with accumulators $min, $max, $sum of a field or of 1, $count, $avg, and $first/$last after
 * the $sort ($min/$max of the time field too). The time range is covered by the coarsest
 * usable levels (those keeping the accumulators, with spans dividing the $dateTrunc widths),
 * edges going to finer levels and then to the raw data, joined with $unionWith (README.md,
 * "Queries"). Sums and averages of doubles may differ from the raw path in the last bits
 * (partial sums). Only with the simple collation (`simpleCollation`: the request's; the
 * collection's is checked here). Brings the levels up to date (catchUp) before returning.
 */
std::optional<RollupRewrite> rewriteForRollups(OperationContext* opCtx,
                                               const NamespaceString& viewNss,
                                               const std::vector<BSONObj>& stages,
                                               bool simpleCollation);

/** `nss` is a time-series view with rollup levels. */
bool hasRollups(OperationContext* opCtx, const NamespaceString& nss);

}  // namespace mongo::timeseries::rollups
