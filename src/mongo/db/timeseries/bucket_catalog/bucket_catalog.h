// BucketCatalog: the process-wide in-memory catalog of open time-series buckets (spec
// timeseries-semantics.md §3.5-§3.8, §3.11; rules in ../README.md).
//
// Series are spread over stripes by the hash of their BucketKey; each stripe has its own
// mutex, open buckets (by key and by id), an LRU list of idle buckets and the archived
// buckets (reopenable by _id). Memory usage is tracked over all stripes; when it exceeds
// timeseriesIdleBucketExpiryMemoryUsageThreshold, idle buckets are archived, then archived
// entries dropped.
//
// Callers: the time-series insert path (tryInsert / insertWithReopeningContext, then the
// WriteBatch protocol of write_batch.h), the op observer on direct writes to
// system.buckets.* (directWriteStart/Finish), drop/rename (clear), collStats and
// serverStatus (append*).
//
// Thread safety: every function may be called concurrently; stripe state is guarded by
// the stripe mutex (functions taking `WithLock` require it held).
#pragma once

#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/timeseries/bucket_catalog/bucket.h"
#include "mongo/db/timeseries/bucket_catalog/execution_stats.h"
#include "mongo/db/timeseries/bucket_catalog/rollover.h"
#include "mongo/db/timeseries/bucket_catalog/write_batch.h"
#include "mongo/idl/timeseries_gen.h"

namespace mongo::timeseries::bucket_catalog {

/** Witness that the caller holds a stripe's mutex. */
class WithLock {
public:
    WithLock(const std::unique_lock<std::mutex>& lk) {}  // NOLINT
};

/** What the catalog needs to know about a time-series collection. */
struct CollectionInfo {
    std::string uuid;  // of system.buckets.<coll>
    TimeseriesOptions options;
    /** True when a ready, non-partial index allows query-based reopening (§3.8). */
    bool hasReopeningIndex = false;
    /**
     * The buckets collection's default collation (null: simple): control.min/max compare
     * strings with it (§3.6). Shared so that open buckets keep it alive.
     */
    std::shared_ptr<const StringComparator> collator;
    /**
     * Measurement paths under a buckets index on control.min/max ("x.y" for
     * {"control.min.x.y": 1}): a measurement meeting an array on one is refused (5930501).
     */
    std::vector<std::string> indexedMeasurementPaths;
    /**
     * The writer staging: the id of the inserting command's connection; 0 (none) stages as
     * 8.0 does. A measurement earlier than its series' open bucket, which only other writers
     * staged into, may move that bucket to an earlier start instead of opening another
     * (moveEarlier in bucket_catalog.cpp; ../README.md).
     */
    int64_t writerId = 0;
};

/** An archived bucket: enough to fetch it again by _id. */
struct ArchivedBucket {
    OID oid;
    Date_t minTime;
    bool disordered = false;  // Bucket::disordered when it was archived
};

struct Stripe {
    std::mutex mutex;
    std::unordered_map<BucketKey, Bucket*, BucketKeyHasher> openBucketsByKey;
    std::map<BucketId, std::unique_ptr<Bucket>> openBucketsById;
    /**
     * Buckets rolled over by time (archive or soft close) while a batch of theirs was still
     * being committed: they stay in openBucketsById until it finishes, and a measurement of
     * their series and span that arrives meanwhile goes back into them (reopening from memory).
     */
    std::unordered_multimap<BucketKey, Bucket*, BucketKeyHasher> rolledOverByKey;
    std::list<Bucket*> idleBuckets;  // front = most recently used
    // key hash -> (minTime -> archived bucket), per collection uuid inside the map key.
    std::map<std::pair<std::string, std::size_t>, std::map<Date_t, ArchivedBucket>> archived;
    std::size_t numArchived = 0;
};

class BucketCatalog {
public:
    /** Limits are read from the server parameters on every insert. */
    explicit BucketCatalog(std::size_t numStripes = 32);
    /** Fixed limits (tests). */
    BucketCatalog(std::size_t numStripes, BucketLimits limits);
    BucketCatalog(const BucketCatalog&) = delete;
    BucketCatalog& operator=(const BucketCatalog&) = delete;

    /** The process-wide catalog used by the server. */
    static BucketCatalog& get();

    BucketLimits limits() const {
        return _limits ? *_limits : BucketLimits::fromServerParameters();
    }

    std::vector<std::unique_ptr<Stripe>> stripes;
    std::atomic<int64_t> memoryUsage{0};
    std::atomic<int64_t> numOpenBuckets{0};
    ExecutionStats globalStats;
    std::mutex statsMutex;
    std::map<std::string, std::shared_ptr<ExecutionStats>> collectionStats;

    /**
     * Buckets written directly whose unit of work has not finished, with the number of such
     * writes: never reopened meanwhile. Thread safety: directWritesMutex (taken after a
     * stripe mutex, never before one).
     */
    std::mutex directWritesMutex;
    std::map<BucketId, int> directWrites;
    /**
     * Moves at every directWriteStart and directWriteFinish: a reopening candidate fetched
     * across a move may predate a direct write and is refused.
     */
    std::atomic<uint64_t> directWriteEpoch{0};

private:
    std::optional<BucketLimits> _limits;
};

/** Ask the caller to fetch a candidate bucket, then call insertWithReopeningContext. */
/** The open bucket of a series that a measurement's time rolled over (bucket_catalog.cpp). */
struct RolledOutBucket {
    bool valid = false;
    bool forward = false;  // the measurement is later than the bucket's span, else earlier
    Date_t minTime;
    bool disordered = false;  // Bucket::disordered
};

struct ReopeningRequest {
    /** An archived bucket's _id to fetch, or an aggregation pipeline over system.buckets. */
    std::variant<OID, std::vector<BSONObj>> candidate;
    /** BucketCatalog::directWriteEpoch when the request was made (before the fetch). */
    uint64_t directWriteEpoch = 0;
    /** The bucket whose rollover led to this request, for the bucket opened after it. */
    RolledOutBucket rolledOut;
};

struct InsertResult {
    std::shared_ptr<WriteBatch> batch;          // set when the measurement was staged
    std::optional<ReopeningRequest> reopening;  // set instead when a candidate should be fetched
};

/**
 * The series keys of one insert command, by the raw bytes of each measurement's meta value:
 * a batch usually holds many measurements of few series, and normalising (sorting) a meta
 * object is the costly part of finding a measurement's series. The raw bytes must stay
 * alive as long as the cache (they are the command's own documents).
 */
class BucketKeyCache {
public:
    /**
     * The key of `rawMeta` (EOO: no meta) in the collection `collUUID`. The reference stays
     * valid, and the key the same, as long as the cache serves the same collection (callers
     * group measurements by its address).
     */
    const BucketKey& get(const std::string& collUUID, const BSONElement& rawMeta);

private:
    /** A meta value by type and value bytes: null and a missing meta share empty bytes. */
    struct RawMeta {
        int type;
        std::string_view bytes;
        bool operator==(const RawMeta&) const = default;
    };
    struct RawMetaHash {
        size_t operator()(const RawMeta& m) const {
            return std::hash<std::string_view>{}(m.bytes) * 31 + static_cast<size_t>(m.type);
        }
    };
    std::unordered_map<RawMeta, BucketKey, RawMetaHash> _keys;
    std::string _lastUUID;
};

/**
 * Stages `doc` in the open bucket of its series, opening or rolling over buckets as
 * needed. Errors: BadValue when the time field is missing or not a date;
 * 6130900 when no unique bucket _id could be generated. `keys` (optional) caches
 * normalised series keys across the measurements of one command; `known` (optional) gives
 * the time and key when the caller already read them (its time must be a valid date).
 */
/** A measurement's valid time and its series key (from a BucketKeyCache), found earlier. */
struct KnownSeries {
    Date_t time;
    const BucketKey* key;
};

StatusWith<InsertResult> tryInsert(BucketCatalog& catalog, const CollectionInfo& coll,
                                   const BSONObj& doc, int64_t userIndex = 0,
                                   BucketKeyCache* keys = nullptr,
                                   const KnownSeries* known = nullptr);

/**
 * Second step after a ReopeningRequest: `fetched` is the bucket document the caller found
 * (empty when none). The bucket is reopened when valid (else counted as a failed
 * reopening) and the measurement staged; never returns another request. A bucket being
 * written directly is not reopened, nor one fetched for a `request` across a direct write
 * (its epoch moved); `request` null (tests) skips that second check.
 */
StatusWith<InsertResult> insertWithReopeningContext(BucketCatalog& catalog,
                                                    const CollectionInfo& coll, const BSONObj& doc,
                                                    const BSONObj& fetched, int64_t userIndex = 0,
                                                    BucketKeyCache* keys = nullptr,
                                                    const KnownSeries* known = nullptr,
                                                    const ReopeningRequest* request = nullptr);

/**
 * Prepares a batch whose commit rights the caller holds: waits for any other prepared
 * batch of the bucket, sorts the measurements on time, appends them to the bucket's
 * columns and fills batch->write. Errors: TimeseriesBucketCleared (bucket cleared by a
 * direct write or drop; retry the insert), TimeseriesBucketFrozen, BSONObjectTooLarge.
 */
Status prepareCommit(BucketCatalog& catalog, const CollectionInfo& coll,
                     const std::shared_ptr<WriteBatch>& batch);

/**
 * Like prepareCommit(), but returns false (with nothing changed) instead of waiting when
 * another batch of the bucket is being committed: a caller holding prepared batches of
 * its own must commit those before it may wait (or two committers could wait on each
 * other). True when the batch was prepared or failed, `*status` saying which.
 */
bool tryPrepareCommit(BucketCatalog& catalog, const CollectionInfo& coll,
                      const std::shared_ptr<WriteBatch>& batch, Status* status);

/** Marks a prepared batch committed (stats, deferred rollover) and wakes its waiters. */
void finish(BucketCatalog& catalog, const std::shared_ptr<WriteBatch>& batch);

/** Fails a batch with `status`; its bucket is dropped from memory (it may be reopened). */
void abort(BucketCatalog& catalog, const std::shared_ptr<WriteBatch>& batch, Status status);

/**
 * Freezes a bucket whose compression failed: it is dropped and never reopened; later
 * writes to it fail with TimeseriesBucketFrozen (410), surfaced as
 * TimeseriesBucketCompressionFailed (409) by the write path.
 */
void freeze(BucketCatalog& catalog, const BucketId& bucketId);
bool isFrozen(BucketCatalog& catalog, const BucketId& bucketId);

/**
 * A write to the bucket document `oid` that does not come from the catalog's own commits
 * (the TimeseriesOpObserver calls these): directWriteStart drops its in-memory copy (open
 * or archived; pending batches fail with TimeseriesBucketCleared) and keeps it from being
 * reopened until the matching directWriteFinish, called once the write's unit of work
 * committed or rolled back. Calls pair up; several writes may overlap on one bucket.
 * Cost: a pass over every stripe and its archived buckets.
 */
void directWriteStart(BucketCatalog& catalog, const std::string& collUUID, const OID& oid);
void directWriteFinish(BucketCatalog& catalog, const std::string& collUUID, const OID& oid);
/** True between a directWriteStart on the bucket and its directWriteFinish. */
bool isBeingDirectlyWritten(BucketCatalog& catalog, const BucketId& bucketId);

/**
 * The catalog's own commit path, inside its unit of work, before writing `batch`:
 * TimeseriesBucketCleared when the batch's bucket no longer holds it prepared (a direct
 * write or drop cleared it since prepareCommit), so that a write prepared against an
 * older copy of the bucket is not applied to what the direct write left.
 */
Status checkStillPrepared(BucketCatalog& catalog, const WriteBatch& batch);

/** Drops every bucket of a collection and its counters (drop, rename). */
void clear(BucketCatalog& catalog, const std::string& collUUID);
/** Drops every in-memory bucket of a collection but keeps its counters. */
void clearBuckets(BucketCatalog& catalog, const std::string& collUUID);

/** Appends the collection's execution counters (collStats `timeseries` section). */
void appendExecutionStats(BucketCatalog& catalog, const std::string& collUUID,
                          BSONObjBuilder& builder);

/** serverStatus().bucketCatalog; appends nothing before any collection has stats. */
void appendServerStatus(BucketCatalog& catalog, BSONObjBuilder& builder);

}  // namespace mongo::timeseries::bucket_catalog
