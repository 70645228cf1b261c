// Compressed bucket data (README.md "Bucket schema"; spec timeseries-semantics.md §3.1,
// §3.6): the per-field BSONColumns of a bucket, turning measurements into columns and
// back, and whole-bucket conversions (v1 -> v2 compression, measurement extraction).
//
// Used by the bucket catalog (columns of open buckets), reopening, and the raw-bucket
// paths (direct inserts into system.buckets.*, deletes rewriting a bucket).
// Thread safety: stateless functions; a ColumnSet has one owner.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"
#include "mongo/bson/oid.h"
#include "mongo/bson/string_comparator.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries::bucket_catalog {
class MinMax;
}  // namespace mongo::timeseries::bucket_catalog

namespace mongo::timeseries {

/** One BSONColumn per data field, all with the same number of positions. */
struct ColumnSet {
    std::vector<std::pair<std::string, BSONColumnBuilder>> columns;  // first-appearance order
    std::map<std::string, size_t, std::less<>> index;
    uint32_t positions = 0;

    /**
     * Appends every measurement (metaField skipped); a field missing from a measurement
     * gets a missing position, a new field a column starting with `positions` skips.
     * Returns the names of the columns created by this call. Cost O(fields x measurements).
     */
    std::vector<std::string> append(const std::vector<BSONObj>& measurements,
                                    const std::optional<std::string>& metaField,
                                    bucket_catalog::MinMax* minmax = nullptr);

    /** Rebuilds builders from a v2/v3 `data` object. Errors: BadValue, InvalidBSONColumn. */
    static StatusWith<ColumnSet> fromDataObject(const BSONObj& data, StringData timeField);
};

/** Stable sort on the (date) time field. */
void sortMeasurementsOnTime(std::vector<BSONObj>& measurements, StringData timeField);

/**
 * The measurements of a bucket of any version, in stored order, each with its data
 * fields in column order and, when `metaField` is given and the bucket has `meta`, the
 * meta value appended under that name. Errors: BadValue for a malformed bucket,
 * InvalidBSONColumn for an undecodable column.
 */
StatusWith<std::vector<BSONObj>> extractMeasurements(const BSONObj& bucket, StringData timeField,
                                                     std::optional<StringData> metaField);

/**
 * A v2 bucket {_id, control: {version: 2, min, max, count}, meta?, data} holding
 * `measurements` sorted on time; control.min.<time> is rounded down to the bucket
 * rounding. `meta` is the normalised meta element (EOO: no meta). Strings in
 * control.min/max are ordered by `strings` (the collection's default collation; null:
 * simple). Errors: BadValue for a measurement without a date time field;
 * BSONObjectTooLarge above 16 MB.
 */
StatusWith<BSONObj> makeNewCompressedBucket(const OID& id, const BSONElement& meta,
                                            std::vector<BSONObj> measurements,
                                            const TimeseriesOptions& options,
                                            const StringComparator* strings = nullptr);

/**
 * A compressed (v2, sorted) copy of a v1 bucket, same _id, meta and control.min/max;
 * v2/v3 buckets are returned unchanged. Error: TimeseriesBucketCompressionFailed (409).
 */
StatusWith<BSONObj> compressBucket(const BSONObj& bucket, StringData timeField);

}  // namespace mongo::timeseries
