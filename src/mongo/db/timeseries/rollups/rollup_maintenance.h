// Keeping the rollup levels of time-series collections equal to their raw data (README.md,
// "Maintenance"): every write to a buckets collection with rollups records the touched
// series and time range in the collection's pending list, in the same unit of work;
// catchUp() recomputes the touched bins of every level and then forgets the entries. A
// background monitor runs it for every collection with pending entries (after a restart
// too). Thread safety: all functions may run concurrently; one catch-up per collection runs
// at a time.
#pragma once

#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"
#include "mongo/idl/timeseries_gen.h"
#include "mongo/util/periodic_thread.h"

namespace mongo {
class Collection;
class OperationContext;
class ServiceContext;
}  // namespace mongo

namespace mongo::timeseries::rollups {

/** <db>.system.rollups.<coll>.pending: the writes not yet applied to the levels. */
NamespaceString makePendingNss(const NamespaceString& viewNss);

/**
 * The time-series view a system.rollups.<coll>.<span|pending> collection belongs to, or
 * nullopt for any other name.
 */
std::optional<NamespaceString> viewNssOfRollupNss(const NamespaceString& nss);

/**
 * Creates the pending list and every level collection of `options.rollups` that does not
 * exist yet (with its indexes). No-op without rollups. Errors of the catalog.
 */
void createRollupCollections(OperationContext* opCtx, const NamespaceString& viewNss,
                             const TimeseriesOptions& options);

/** Drops the pending list and every level collection of `viewNss` (whatever their spans). */
void dropRollupCollections(OperationContext* opCtx, const NamespaceString& viewNss);

/**
 * Records, in the caller's unit of work, that the bucket `before` (empty for an insert) was
 * replaced by `after` (empty for a delete) in `buckets`: the series and time range of each
 * go to the pending list. No-op unless `buckets` has rollups, and inside a RawExpiryScope.
 */
void noteBucketWrite(OperationContext* opCtx, const Collection& buckets, const BSONObj& before,
                     const BSONObj& after);

/**
 * Open while the calling thread deletes buckets because the raw data expired (TTL): those
 * deletes leave the levels alone, which keep their rows for their own retention.
 */
class RawExpiryScope {
public:
    RawExpiryScope();
    ~RawExpiryScope();
    RawExpiryScope(const RawExpiryScope&) = delete;
    RawExpiryScope& operator=(const RawExpiryScope&) = delete;

    static bool active();
};

/**
 * Asks for the levels of spans `spans` to be rebuilt from the raw data by the next
 * catch-up (a durable pending entry per span, written in its own unit of work): a level
 * whose span the options no longer list is dropped instead. Used by collMod before it
 * changes the levels, so that a crash at any later point leaves a rebuild to do.
 */
void requestRebuild(OperationContext* opCtx, const NamespaceString& viewNss,
                    const std::vector<long long>& spans);

/**
 * Brings every rollup level of the time-series collection `viewNss` up to date with the
 * writes committed before the call: afterwards each level's rows equal what
 * makeRowComputationPipeline() computes from the raw data (bins older than the raw data's
 * retention excepted, README.md). No-op when `viewNss` is not a time-series view with
 * rollups. Cost: proportional to the bins written since the last catch-up. Throws the
 * errors of the reads and writes it runs (Interrupted when killed).
 */
void catchUp(OperationContext* opCtx, const NamespaceString& viewNss);

/**
 * Makes the TTL index of each existing level collection agree with its level's
 * expireAfterSeconds (created, dropped or re-made). Errors of the catalog.
 */
void syncLevelRetention(OperationContext* opCtx, const NamespaceString& viewNss,
                        const TimeseriesOptions& options);

/**
 * collStats' `timeseries.rollups`: per level {bucketSpanSeconds, ns, rows, size,
 * storageSize, expireAfterSeconds (absent: forever), pendingWrites, lagSeconds}.
 */
void appendRollupStats(OperationContext* opCtx, const NamespaceString& viewNss,
                       const TimeseriesOptions& options, BSONObjBuilder& result);

/**
 * The background catch-up: every rollupCatchUpIntervalMillis it runs catchUp() for each
 * time-series collection whose pending list is not empty (first pass right after start:
 * the repair after a crash).
 */
class RollupCatchUpMonitor {
public:
    explicit RollupCatchUpMonitor(ServiceContext* sc);
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
    long long _opId = -(1LL << 40);  // apart from the TTL monitor's negative ids
    PeriodicThread _thread;
};

}  // namespace mongo::timeseries::rollups
