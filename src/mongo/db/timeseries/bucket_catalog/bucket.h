// Bucket: the in-memory state of one open bucket (spec timeseries-semantics.md §3.5):
// its identity and time range, counts and size estimate, control min/max and field
// shapes, and one BSONColumnBuilder per data field that holds the committed columns so
// that each commit only ships the new bytes (intermediate()).
//
// Thread safety: owned by its stripe; every field is guarded by the stripe lock, except
// that the committer of the prepared batch uses `columns` between prepare and finish
// (no other batch of the bucket can be prepared meanwhile).
#pragma once

#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/db/timeseries/bucket_catalog/bucket_identifiers.h"
#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"
#include "mongo/db/timeseries/bucket_catalog/rollover.h"
#include "mongo/db/timeseries/bucket_catalog/write_batch.h"
#include "mongo/db/timeseries/bucket_compression.h"

namespace mongo::timeseries::bucket_catalog {

struct Bucket {
    /** `collator`: the collection's default collation for control.min/max (null: simple). */
    Bucket(BucketId id, BucketKey key, Date_t minTime,
           std::shared_ptr<const StringComparator> collator = nullptr)
        : bucketId(std::move(id)),
          key(std::move(key)),
          minTime(minTime),
          collator(std::move(collator)),
          minmax(this->collator.get()) {}

    BucketId bucketId;  // changes only before the first commit (moveEarlier)
    const BucketKey key;
    Date_t minTime;  // rounded start: control.min.<time>; changes as bucketId
    const std::shared_ptr<const StringComparator> collator;  // kept alive for `minmax`
    Date_t latestCommittedTime = Date_t::min();              // for v2 -> v3 detection

    uint32_t numMeasurements = 0;  // committed + staged
    uint32_t numCommittedMeasurements = 0;
    int64_t size = 0;  // uncompressed estimate, meta counted once
    bool keptOpenDueToLargeMeasurements = false;
    int version = 2;                    // control.version on disk (1, 2 or 3)
    bool existsOnDisk = false;          // false: the next commit inserts the document
    bool needsRewrite = false;          // reopened v1: the next commit replaces it
    int64_t recordId = 0;               // of the stored document, 0 = unknown
    uint64_t lastLayout = 0;            // of the last flat measurement staged, 0 = none
    Date_t latestTime = Date_t::min();  // of the measurements staged here
    // The series' measurements arrived out of time order (this bucket took one earlier than
    // another, or was opened for one earlier than its series' open bucket), or the bucket it
    // follows had: its successor starts where it ends (bucket_catalog.cpp, newBucketStart).
    bool disordered = false;
    // The writers (CollectionInfo::writerId) that staged measurements here, while few
    // (bucket_catalog.cpp, moveEarlier); `manyStagers`: more than kept.
    std::vector<int64_t> stagers;
    bool manyStagers = false;
    // Opened for a series the catalog knew no bucket of (or moved from such a bucket).
    bool newSeries = false;
    // Opened by moving a stored bucket to an earlier start (bucket_catalog.cpp, moveEarlier):
    // that bucket. Its measurements are staged here at the move, or when its last batch
    // finished (movedStaged()). Reset once the first commit, which replaces it, is done.
    std::optional<MovedFrom> movedFrom;
    // Moved while a batch of it was being committed: the bucket its measurements go to when
    // that batch finishes, and the field names to read them with.
    struct MoveTarget {
        BucketId id;
        std::string timeField;
        std::optional<std::string> metaField;
    };
    std::optional<MoveTarget> movedTo;

    RolloverAction rolloverAction = RolloverAction::kNone;  // deferred until batches finish
    Schema schema;                       // shapes of staged + committed measurements
    MinMax minmax;                       // committed measurements only
    BSONObj committedMin, committedMax;  // as on disk (control.min/max)

    /** Committed data columns (each with `numCommittedMeasurements` positions). */
    ColumnSet columns;
    /** Field names seen in staged + committed measurements (size estimate of new fields). */
    std::map<std::string, bool, std::less<>> fieldNames;

    std::shared_ptr<WriteBatch> activeBatch;    // accepting measurements
    std::shared_ptr<WriteBatch> preparedBatch;  // being committed
    std::optional<std::list<Bucket*>::iterator> idlePosition;

    /** The measurements of the bucket this one was moved from are staged here (movedFrom). */
    bool movedStaged() const {
        return movedFrom && movedFrom->count > 0;
    }

    RolloverBucketState rolloverState() const {
        return {minTime, numMeasurements, size, keptOpenDueToLargeMeasurements};
    }
    bool hasUncommitted() const {
        return numMeasurements > numCommittedMeasurements || preparedBatch != nullptr;
    }
    /** Estimated memory held by this bucket (for the idle-expiry threshold). */
    int64_t memoryUsage() const {
        return static_cast<int64_t>(sizeof(Bucket)) + key.metadata.objsize() + size;
    }
};

}  // namespace mongo::timeseries::bucket_catalog
