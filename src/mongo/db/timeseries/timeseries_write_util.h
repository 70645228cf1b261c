// The storage writes of the time-series insert path (README.md "Bucket schema",
// spec bsoncolumn-and-docdiff.md B.6): the first commit of a bucket inserts the whole
// compressed document; later commits update it with a DocDiff whose `b` sections carry
// only the new BSONColumn bytes (BSONColumnBuilder::intermediate()) and whose `scontrol`
// moves control.count/min/max (and version 2 -> 3 when the batch is out of order).
//
// prepareBucketWrite() is called by bucket_catalog::prepareCommit under the stripe lock;
// the other functions are pure.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/oid.h"
#include "mongo/db/timeseries/bucket_catalog/bucket.h"
#include "mongo/db/timeseries/bucket_catalog/write_batch.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries {

struct ColumnSet;

/** (field name, BSONColumn bytes) in data order. */
using ColumnBytes = std::vector<std::pair<std::string, std::string>>;

/** finalize() of every column (the builders are unchanged). */
ColumnBytes finalizeColumns(const ColumnSet& columns);

/**
 * {_id, control: {version, min, max, count (v2/v3 only)}, meta? (when `meta` is not EOO),
 * data: {<field>: BinData(7)}}. count is an int32.
 */
BSONObj makeBucketDocument(const OID& id, const BSONElement& meta, int version, const BSONObj& min,
                           const BSONObj& max, uint32_t count, const ColumnBytes& columns);
BSONObj makeBucketDocument(const OID& id, const BSONElement& meta, int version, const BSONObj& min,
                           const BSONObj& max, uint32_t count, const ColumnSet& columns);

/** `min` with its time field's value replaced by `minTime` (the rounded bucket start). */
BSONObj replaceMinTime(const BSONObj& min, StringData timeField, Date_t minTime);

/**
 * Turns a batch into its storage write and moves the bucket's committed state forward:
 * sorts the batch on time, appends it to the bucket's columns, updates min/max and the
 * version (v3 when the batch starts before the bucket's latest time). Returns kInsert for
 * a bucket not yet on disk, kReplace for a reopened v1 bucket, else kUpdate with the
 * DocDiff. Error: BSONObjectTooLarge when a new document exceeds 16 MB.
 * REQUIRES: the bucket's stripe lock; `batch` is the bucket's prepared batch.
 */
StatusWith<bucket_catalog::BucketWrite> prepareBucketWrite(bucket_catalog::Bucket& bucket,
                                                           bucket_catalog::WriteBatch& batch,
                                                           const TimeseriesOptions& options);

/** The `o` field of the update: {$v: 2, diff: <diff>}. */
BSONObj makeUpdateOplogObject(const BSONObj& diff);

}  // namespace mongo::timeseries
