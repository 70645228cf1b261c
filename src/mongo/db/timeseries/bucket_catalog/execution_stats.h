// Counters of the time-series write path with upstream's names (spec
// timeseries-semantics.md §3.11). Each collection has one ExecutionStats and the catalog
// one global set; ExecutionStatsController bumps both at once.
//
// Thread safety: counters are atomics; any thread may increment or read them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::timeseries::bucket_catalog {

struct ExecutionStats {
    std::atomic<int64_t> numBucketInserts{0};
    std::atomic<int64_t> numBucketUpdates{0};
    std::atomic<int64_t> numBucketsOpenedDueToMetadata{0};
    std::atomic<int64_t> numBucketsClosedDueToCount{0};
    std::atomic<int64_t> numBucketsClosedDueToSchemaChange{0};
    std::atomic<int64_t> numBucketsClosedDueToSize{0};
    std::atomic<int64_t> numBucketsClosedDueToCachePressure{0};
    std::atomic<int64_t> numBucketsClosedDueToTimeForward{0};
    std::atomic<int64_t> numBucketsClosedDueToTimeBackward{0};
    std::atomic<int64_t> numBucketsClosedDueToMemoryThreshold{0};
    std::atomic<int64_t> numCommits{0};
    std::atomic<int64_t> numMeasurementsGroupCommitted{0};
    std::atomic<int64_t> numWaits{0};
    std::atomic<int64_t> numMeasurementsCommitted{0};
    std::atomic<int64_t> numBucketsClosedDueToReopening{0};
    std::atomic<int64_t> numBucketsArchivedDueToMemoryThreshold{0};
    std::atomic<int64_t> numBucketsArchivedDueToTimeBackward{0};
    std::atomic<int64_t> numBucketsReopened{0};
    std::atomic<int64_t> numBucketsKeptOpenDueToLargeMeasurements{0};
    std::atomic<int64_t> numBucketsFrozen{0};
    std::atomic<int64_t> numCompressedBucketsConvertedToUnsorted{0};
    std::atomic<int64_t> numBucketsFetched{0};
    std::atomic<int64_t> numBucketsQueried{0};
    std::atomic<int64_t> numBucketFetchesFailed{0};
    std::atomic<int64_t> numBucketQueriesFailed{0};
    std::atomic<int64_t> numBucketReopeningsFailed{0};
    std::atomic<int64_t> numDuplicateBucketsReopened{0};
};

/** Increments a collection's counters and the global ones together. */
class ExecutionStatsController {
public:
    ExecutionStatsController(std::shared_ptr<ExecutionStats> collection, ExecutionStats* global)
        : _collection(std::move(collection)), _global(global) {}

    /** Adds `n` to the counter `field` of both sets, e.g. inc(&ExecutionStats::numCommits). */
    void inc(std::atomic<int64_t> ExecutionStats::*field, int64_t n = 1) const {
        ((*_collection).*field).fetch_add(n, std::memory_order_relaxed);
        ((*_global).*field).fetch_add(n, std::memory_order_relaxed);
    }
    const std::shared_ptr<ExecutionStats>& collection() const {
        return _collection;
    }

private:
    std::shared_ptr<ExecutionStats> _collection;
    ExecutionStats* _global;
};

/**
 * Appends the counters in upstream's 8.0 order (avgNumMeasurementsPerCommit only when
 * numCommits > 0). Used by collStats' `timeseries` section and serverStatus.bucketCatalog.
 */
void appendExecutionStatsToBuilder(const ExecutionStats& stats, BSONObjBuilder& builder);

}  // namespace mongo::timeseries::bucket_catalog
