// WriteBatch: measurements staged for one bucket that are committed together. Concurrent
// inserts into the same series share the open batch of the bucket ("group commit"): the
// first writer to claim commit rights commits for everyone; the others wait for the
// result (spec timeseries-semantics.md §3.10).
//
// Life cycle (caller = the time-series insert path):
//   auto r = tryInsert(...);                          // bucket_catalog.h
//   if (claimWriteBatchCommitRights(*r.batch)) {
//       uassertStatusOK(prepareCommit(catalog, r.batch));   // builds batch->write
//       Status s = <write batch->write to the buckets collection>;
//       s.isOK() ? finish(catalog, r.batch) : abort(catalog, r.batch, s);
//   }
//   Status s = getWriteBatchStatus(*r.batch);          // waits when someone else commits
//
// Thread safety: `measurements` and the fields below it are written under the bucket's
// stripe lock until commit rights are claimed, then only by the committer; the result is
// published through the shared future.
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_identifiers.h"
#include "mongo/db/timeseries/bucket_catalog/execution_stats.h"

namespace mongo::timeseries::bucket_catalog {

/** The storage write a prepared batch turns into (see timeseries_write_util.h). */
struct BucketWrite {
    enum class Kind { kInsert, kUpdate, kReplace };
    Kind kind = Kind::kInsert;
    BSONObj document;  // kInsert / kReplace: the whole bucket document
    BSONObj diff;      // kUpdate: the DocDiff ({scontrol, sdata}); o = {$v: 2, diff}
};

/**
 * The stored bucket that a moved bucket replaces (bucket_catalog.cpp, moveEarlier): the
 * moved bucket's first commit inserts it with these measurements and deletes this one.
 */
struct MovedFrom {
    OID oid;
    int64_t recordId = 0;           // of the stored document, 0 = unknown
    uint32_t count = 0;             // its measurements, all staged in the first batch
    uint64_t directWriteEpoch = 0;  // BucketCatalog::directWriteEpoch when it was moved
};

struct WriteBatch {
    WriteBatch(BucketId id, BucketKey key, ExecutionStatsController stats)
        : bucketId(std::move(id)),
          bucketKey(std::move(key)),
          stats(std::move(stats)),
          future(promise.get_future().share()) {}

    BucketId bucketId;  // changes with the bucket's while the batch is open (moveEarlier)
    const BucketKey bucketKey;
    const ExecutionStatsController stats;

    /** Staged measurements, in arrival order (sorted on time at prepare). */
    std::vector<BSONObj> measurements;
    /** Index in `measurements` -> opaque caller tag (e.g. index in the user's insert). */
    std::vector<int64_t> userIndices;
    bool openedDueToMetadata = false;

    // Filled by prepareCommit():
    uint32_t numPreviouslyCommittedMeasurements = 0;
    /**
     * The bucket document's record id in the buckets collection when known (0 = unknown),
     * so the committer reads the stored bucket without a query; the committer sets it
     * after inserting the document, and finish() remembers it in the bucket.
     */
    int64_t recordId = 0;
    BucketWrite write;
    bool convertedToUnsorted = false;
    /** Set on the first batch of a moved bucket: the stored bucket its commit replaces. */
    std::optional<MovedFrom> movedFrom;

    std::atomic<bool> commitRights{false};
    std::promise<Status> promise;
    std::shared_future<Status> future;
};

/** True for exactly one caller per batch: that caller must prepare and finish/abort it. */
bool claimWriteBatchCommitRights(WriteBatch& batch);

/** Blocks until the batch is finished or aborted; its status (TimeseriesBucketCleared...). */
Status getWriteBatchStatus(WriteBatch& batch);

/** True once finish() or abort() ran. */
bool isWriteBatchFinished(const WriteBatch& batch);

}  // namespace mongo::timeseries::bucket_catalog
