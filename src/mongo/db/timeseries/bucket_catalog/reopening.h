// Reopening: turning a bucket document back into an open in-memory Bucket (spec
// timeseries-semantics.md §3.8). Candidates are archived buckets (fetched by _id) or found
// by the query of generateReopeningPipeline() through a {meta, control.min.<time>} index.
// Pure functions; the catalog installs the result under the stripe lock.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/timeseries/bucket_catalog/bucket.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries::bucket_catalog {

/**
 * The aggregation pipeline over system.buckets.<coll> that finds a bucket of the series
 * `normalizedMeta` (EOO: no meta) able to take a measurement at `time`: not closed,
 * control.min.<time> in (time - span, time], no full v1 time column, BSON size below
 * `effectiveMaxSize`, limit 1.
 */
std::vector<BSONObj> generateReopeningPipeline(const TimeseriesOptions& options, Date_t time,
                                               const BSONElement& normalizedMeta, int32_t maxCount,
                                               int64_t effectiveMaxSize);

/**
 * Rebuilds an open bucket from its document. Errors (the reopening fails and a new bucket
 * is opened instead): BadValue for a missing/non-ObjectId _id, control.closed true, a meta
 * that is not the series `key`, unparsable or mixed-schema min/max, a bad version or an
 * undecodable time column (InvalidBSONColumn). v1 buckets are decompressed and marked
 * for rewrite as v2 at their next commit. `collator` (the collection's default collation,
 * null: simple) orders strings in the bucket's control.min/max from then on.
 */
StatusWith<std::unique_ptr<Bucket>> loadBucket(
    const BucketKey& key, const TimeseriesOptions& options, const BSONObj& bucketDoc,
    std::shared_ptr<const StringComparator> collator = nullptr);

}  // namespace mongo::timeseries::bucket_catalog
