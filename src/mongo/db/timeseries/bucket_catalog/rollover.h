// Rollover: whether a measurement fits in the open bucket of its series, and if not, what
// happens to that bucket (spec timeseries-semantics.md §3.5, evaluated in this order):
//   time forward (>= span after the bucket start) -> soft close   (reopenable)
//   time backward (before the bucket start)       -> archive      (reopenable)
//   count == timeseriesBucketMaxCount             -> hard close
//   size above the effective limit (large-measurement rule below) -> hard close
//   shape of a field changed                      -> hard close
// Large measurements: while the bucket holds fewer than timeseriesBucketMinCount
// measurements it may grow up to min(12 MiB, cache-derived limit) instead.
// Pure functions; the catalog calls them under the stripe lock.
#pragma once

#include <cstdint>

#include "mongo/util/time_support.h"

namespace mongo::timeseries::bucket_catalog {

enum class RolloverAction { kNone, kArchive, kSoftClose, kHardClose };

enum class RolloverReason {
    kNone,
    kTimeForward,
    kTimeBackward,
    kCount,
    kSchemaChange,
    kCachePressure,
    kSize,
};

/** The limits that apply to buckets (server parameters, §3.2). */
struct BucketLimits {
    int32_t maxCount = 1000;
    int32_t maxSize = 128000;
    int32_t minCount = 10;
    int32_t minSize = 5120;
    int64_t storageCacheBytes = 0;  // 0: no cache-derived limit
    int64_t idleExpiryMemoryThresholdBytes = 0;
    int32_t idleExpiryMaxCountPerAttempt = 3;

    /** Current values of the timeseries* server parameters (threshold resolved to bytes). */
    static BucketLimits fromServerParameters();
};

/** 16 MiB - 4 MiB: the hard ceiling for buckets holding large measurements. */
inline constexpr int64_t kLargeMeasurementsMaxBucketSize = 12 * 1024 * 1024;

/** The idle-expiry threshold in bytes for a parameter value (§3.2): <=0 5% of RAM, 1..100 %, else
 * bytes. */
int64_t resolveIdleBucketExpiryThreshold(int64_t parameterValue);

/** What the open bucket needs to know about itself. */
struct RolloverBucketState {
    Date_t minTime;  // rounded bucket start
    uint32_t numMeasurements = 0;
    int64_t size = 0;  // uncompressed estimate
    bool keptOpenDueToLargeMeasurements = false;
};

struct RolloverDecision {
    RolloverAction action = RolloverAction::kNone;
    RolloverReason reason = RolloverReason::kNone;
    /** True the first time a bucket is kept open by the large-measurement rule. */
    bool keptOpenDueToLargeMeasurements = false;
};

/**
 * Decides for a measurement at `time` adding `sizeToAdd` bytes; `schemaCompatible` is the
 * result of the bucket's Schema check; `numActiveBuckets` feeds the cache-derived limit.
 */
RolloverDecision determineRolloverAction(const RolloverBucketState& bucket, Date_t time,
                                         int64_t sizeToAdd, bool schemaCompatible,
                                         int32_t maxSpanSeconds, const BucketLimits& limits,
                                         uint64_t numActiveBuckets);

}  // namespace mongo::timeseries::bucket_catalog
