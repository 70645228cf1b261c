// TTL monitor: a background thread that wakes every ttlMonitorSleepSecs
// (default 60) and, while ttlMonitorEnabled, deletes the documents whose
// TTL-indexed date field is older than the index's expireAfterSeconds (for an
// array of dates, the earliest counts; non-dates never expire).
//
// Extension point: other collection kinds (time-series buckets, issue 6 §7)
// register a TTLCollectionHandler; handlers are asked first for every
// collection and may take it over.
//
// Thread safety: counters are atomics; handlers must be registered before start().
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>

#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/oid.h"

#include "mongo/util/periodic_thread.h"
#include "mongo/util/time_support.h"

namespace mongo {

class Collection;
struct IndexEntry;
class OperationContext;
class ServiceContext;

/**
 * Handles one collection in a TTL pass: returns the number of documents deleted,
 * or nullopt to leave the collection to the default (TTL index) handling.
 */
using TTLCollectionHandler = std::function<std::optional<long long>(
    OperationContext* opCtx, const std::shared_ptr<Collection>& coll, Date_t now)>;
void registerTTLCollectionHandler(TTLCollectionHandler handler);

/**
 * Deletes the documents of `coll` that `index` (a single-field index with
 * expireAfterSeconds) says have expired at `now`. Returns how many were deleted.
 * Throws on storage errors. REQUIRES: no unit of work open on opCtx.
 */
/**
 * Deletes the documents of `coll` matching `filter`, in batches of 1,000 (each
 * document re-checked and deleted in its own unit of work, write conflicts retried).
 * Returns the number deleted.
 */
long long deleteMatchingInBatches(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                                  const BSONObj& filter);

long long deleteExpiredDocuments(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                                 const IndexEntry& index, Date_t now);

/** The largest ObjectId whose timestamp is `secs` (every _id generated up to that second). */
OID maxOidForSeconds(long long secs);

/**
 * Collection-level TTL of a collection clustered by _id ({clusteredIndex, expireAfterSeconds},
 * not time-series buckets): deletes the documents whose _id is an ObjectId with a timestamp
 * at or before now - expireAfterSeconds, or a date at or before it (a range on the clustered
 * key; other _id types never expire). Returns how many were deleted (0 when not such a
 * collection). REQUIRES: no unit of work open on opCtx.
 */
long long deleteExpiredClusteredDocuments(OperationContext* opCtx,
                                          const std::shared_ptr<Collection>& coll, Date_t now);

/** One pass over every collection of every database. Returns documents deleted. */
long long doTTLPass(OperationContext* opCtx, Date_t now);

/** serverStatus metrics.ttl: {deletedDocuments, passes}. */
struct TTLMetrics {
    std::atomic<long long> deletedDocuments{0};
    std::atomic<long long> passes{0};
};
TTLMetrics& ttlMetrics();

class TTLMonitor {
public:
    explicit TTLMonitor(ServiceContext* sc);
    void start() {
        _thread.start();
    }
    /** Stops the thread and waits for it. */
    void shutdown() {
        _thread.shutdown();
    }

private:
    void _pass();

    ServiceContext* _sc;
    long long _opId = 0;
    PeriodicThread _thread;
};

}  // namespace mongo
