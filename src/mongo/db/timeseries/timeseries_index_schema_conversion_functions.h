// Index specs on a time-series view <-> index specs on its buckets collection (spec
// timeseries-semantics.md §4.1-§4.3):
//   <time>: 1 / -1          -> control.min.<time>, control.max.<time> (order by direction)
//   <meta>[.path]: any      -> meta[.path]: same value (hashed, 2d, 2dsphere, wildcard...)
//   <field>: 1 / -1         -> control.min.<field>, control.max.<field> (order by direction)
//   <field>: "2dsphere"     -> data.<field>: "2dsphere_bucket"
// Full specs also check options (unique, text, sparse, TTL, partial filter, collation) and
// keep the user's spec as `originalSpec` when the key is not reversible.
//
// Callers: createIndexes / listIndexes / dropIndexes / collMod / hint translation on a
// time-series view. Pure functions; thread-safe.
#pragma once

#include <optional>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries {

/**
 * User key pattern -> bucket key pattern. BadValue (with upstream's message) for an empty
 * key, a `$hint`/`$natural` first field, a non-numeric time direction, or a measurement
 * field whose value is neither a number nor "2dsphere". The command layer reports it as
 * CannotCreateIndex (createIndexes) or IndexNotFound (dropIndexes, collMod, hint).
 */
StatusWith<BSONObj> createBucketsIndexSpecFromTimeseriesIndexSpec(const TimeseriesOptions& options,
                                                                  const BSONObj& timeseriesKey);

/** Shard-key form: only control.min.<time> for the time field. */
StatusWith<BSONObj> createBucketsShardKeySpecFromTimeseriesShardKeySpec(
    const TimeseriesOptions& options, const BSONObj& timeseriesKey);

/** Bucket key pattern -> user key pattern; nullopt when the key does not fit the mapping. */
std::optional<BSONObj> createTimeseriesIndexSpecFromBucketsIndexSpec(
    const TimeseriesOptions& options, const BSONObj& bucketsKey);

/**
 * A full user index spec {key, name, ...options} -> the bucket index spec to build.
 * Errors: CannotCreateIndex (key conversion failure, compound TTL), InvalidOptions
 * (unique, text, sparse on measurements, TTL on a non-time field or without a meta-only
 * partial filter, untranslatable partial filter), IndexOptionsConflict (partial filter
 * with collation).
 */
StatusWith<BSONObj> createBucketsIndexFromTimeseriesIndex(const TimeseriesOptions& options,
                                                          const BSONObj& timeseriesIndexSpec);

/**
 * A bucket index spec -> what listIndexes on the view shows: `originalSpec` verbatim when
 * present, else the spec with its key reverse-mapped; nullopt when it does not map.
 */
std::optional<BSONObj> createTimeseriesIndexFromBucketsIndex(const TimeseriesOptions& options,
                                                             const BSONObj& bucketsIndexSpec);

/** Whether a bucket index created from `timeseriesIndexSpec` must store `originalSpec`. */
bool shouldIncludeOriginalSpec(const TimeseriesOptions& options,
                               const BSONObj& timeseriesIndexSpec);

/**
 * The partial filter of a time-series index translated to buckets: meta predicates
 * renamed to `meta`, time and measurement comparisons turned into control.min/max
 * bounds ($_internalExpr* operators). InvalidOptions for anything else.
 */
StatusWith<BSONObj> translatePartialFilterExpression(const TimeseriesOptions& options,
                                                     const BSONObj& filter);

/** True when a bucket index (non-partial) allows query-based reopening (§3.8). */
bool isReopeningIndex(const TimeseriesOptions& options, const BSONObj& bucketsIndexSpec);

}  // namespace mongo::timeseries
