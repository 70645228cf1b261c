// Building bucket documents for deletes and updates of measurements (spec
// timeseries-semantics.md §6.3, §6.4): the in-place rewrite of a bucket that keeps only
// some of its measurements, and fresh buckets for modified or upserted measurements
// (never appended to an existing bucket). Both produce compressed v2 buckets like the
// insert path (bucket_compression.h).
//
// Pure functions; thread-safe, except generateBucketOID's process-wide counter (atomic).
#pragma once

#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/string_comparator.h"
#include "mongo/db/timeseries/bucket_catalog/rollover.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries {

/** Measurements in a stored bucket: control.count (v2/v3) or the time column's size (v1). */
long long storedMeasurementCount(const BSONObj& bucket, StringData timeField);

/**
 * `bucket` (any version) holding only `survivors` (measurements as extractMeasurements
 * returns them; the metaField value is ignored): same _id and meta, v2 sorted columns,
 * control.min/max recomputed except control.min.<time>, which keeps the stored (rounded)
 * bucket start. `strings` is the collection's default collation (null: simple) for the
 * string values of control.min/max. Errors: BadValue (a survivor without a date time, no
 * survivor), BSONObjectTooLarge.
 */
StatusWith<BSONObj> rewriteBucketWithMeasurements(const BSONObj& bucket,
                                                  std::vector<BSONObj> survivors,
                                                  const TimeseriesOptions& options,
                                                  const StringComparator* strings = nullptr);

/**
 * New v2 buckets holding `measurements` (each carrying its meta value under the metaField):
 * grouped by normalised meta, sorted on time, cut where the span, count or size limit or a
 * field's shape change (§3.5) would close a bucket; each gets a fresh _id
 * (generateBucketOID of its rounded start). Errors: BadValue when a time is missing or not
 * a date, BSONObjectTooLarge. `strings` as for rewriteBucketWithMeasurements().
 */
StatusWith<std::vector<BSONObj>> makeBucketsForMeasurements(
    std::vector<BSONObj> measurements, const TimeseriesOptions& options,
    const bucket_catalog::BucketLimits& limits, const StringComparator* strings = nullptr);

}  // namespace mongo::timeseries
