// The time-series checks `validate` runs on each bucket of a buckets collection (spec
// timeseries-semantics.md §3): control.version and the data field types it implies, every
// BSONColumn decodes, the time field is present in every measurement (and sorted in a v2
// bucket), control.count and control.min/max agree with the data.
#pragma once

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo {
class StringComparator;
}

namespace mongo::timeseries {

/** The warning validate reports (once) when a bucket fails validateBucket(). */
constexpr StringData kTimeseriesValidationInconsistencyWarning =
    "Detected one or more documents in this collection incompatible with time-series "
    "specifications. For more info, see logs with log id 6698300.";

/**
 * OK, or the first inconsistency of `bucket` (BadValue; TypeMismatch for a data field of the
 * wrong type; InvalidBSONColumn for a column that does not decode). `strings` is the
 * collection's default collation (null: simple), with which control.min/max were computed.
 * Cost: decodes every field of the bucket.
 */
Status validateBucket(const BSONObj& bucket, const TimeseriesOptions& options,
                      const StringComparator* strings);

}  // namespace mongo::timeseries
