// $geoNear on a time-series view (spec §5.4). The view's pipeline is
// [$_internalUnpackBucket]; a user pipeline starting with $geoNear becomes, on the buckets:
//
//   key on the meta field (index {meta.<p>: "2dsphere"}):
//     [$geoNearCursor {key: "meta.<p>", no query}          -- buckets in distance order
//      $_internalUnpackBucket {..., computedMetaProjFields: [<distanceField>, <includeLocs>]}
//      $match <query>]                                      -- order is kept
//   key on a measurement field f (index {data.f: "2dsphere_bucket"}, or none when `key` names f):
//     [$match {$_internalBucketGeoWithin: {intersectsRegion: {$centerSphere: [near, max]},
//              field: f}}                                   -- only with maxDistance
//      $_internalUnpackBucket
//      $_internalGeoNearDistance {key: f, query, ...}]      -- per-measurement distance + sort
//
// Index errors as for collections (IndexNotFound 27), except that a `key` naming a measurement
// field needs no index.
#pragma once

#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/pipeline/expression_context.h"

namespace mongo {

class OperationContext;

/**
 * The stages replacing `viewStages` + the leading $geoNear of `userStages` (not included in
 * the result: append userStages[1..]), or nullopt when the user pipeline does not start with
 * $geoNear or `viewStages` is not a time-series unpack. `expCtx` holds the `let` variables
 * minDistance/maxDistance may use (they are evaluated into the stages produced).
 */
std::optional<std::vector<BSONObj>> rewriteTimeseriesGeoNear(
    ExpressionContext* expCtx, const NamespaceString& bucketsNss,
    const std::vector<BSONObj>& viewStages, const std::vector<BSONObj>& userStages);

}  // namespace mongo
