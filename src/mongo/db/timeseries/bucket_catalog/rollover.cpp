#include "mongo/db/timeseries/bucket_catalog/rollover.h"

#include <unistd.h>
#include <algorithm>
#include <limits>

#include "mongo/idl/server_parameters_gen.h"

namespace mongo::timeseries::bucket_catalog {

int64_t resolveIdleBucketExpiryThreshold(int64_t value) {
    if (value > 100)
        return value;
    // sysconf(_SC_PHYS_PAGES) is a system call: read the machine's memory once.
    static const int64_t memMB = [] {
        const int64_t pages = sysconf(_SC_PHYS_PAGES);
        const int64_t pageSize = sysconf(_SC_PAGE_SIZE);
        return pages > 0 && pageSize > 0 ? pages * pageSize / (1024 * 1024) : int64_t{1024};
    }();
    const int64_t pct = value <= 0 ? 5 : value;
    return memMB * pct * 10485;
}

BucketLimits BucketLimits::fromServerParameters() {
    BucketLimits l;
    l.maxCount = gTimeseriesBucketMaxCount.load();
    l.maxSize = gTimeseriesBucketMaxSize.load();
    l.minCount = gTimeseriesBucketMinCount.load();
    l.minSize = gTimeseriesBucketMinSize.load();
    l.idleExpiryMemoryThresholdBytes =
        resolveIdleBucketExpiryThreshold(gTimeseriesIdleBucketExpiryMemoryUsageThreshold.load());
    l.idleExpiryMaxCountPerAttempt = gTimeseriesIdleBucketExpiryMaxCountPerAttempt.load();
    return l;
}

RolloverDecision determineRolloverAction(const RolloverBucketState& bucket, Date_t time,
                                         int64_t sizeToAdd, bool schemaCompatible,
                                         int32_t maxSpanSeconds, const BucketLimits& limits,
                                         uint64_t numActiveBuckets) {
    RolloverDecision d;
    const long long deltaMs = time.toMillisSinceEpoch() - bucket.minTime.toMillisSinceEpoch();
    if (time >= bucket.minTime && deltaMs >= static_cast<long long>(maxSpanSeconds) * 1000)
        return {RolloverAction::kSoftClose, RolloverReason::kTimeForward, false};
    if (time < bucket.minTime)
        return {RolloverAction::kArchive, RolloverReason::kTimeBackward, false};
    if (bucket.numMeasurements >= static_cast<uint32_t>(limits.maxCount))
        return {RolloverAction::kHardClose, RolloverReason::kCount, false};

    int64_t cacheDerived = std::numeric_limits<int64_t>::max();
    if (limits.storageCacheBytes > 0 && numActiveBuckets > 0) {
        cacheDerived = std::max<int64_t>(
            limits.storageCacheBytes / (2 * static_cast<int64_t>(numActiveBuckets)),
            limits.minSize);
    }
    const int64_t effectiveMax = std::min<int64_t>(limits.maxSize, cacheDerived);
    if (bucket.size + sizeToAdd > effectiveMax) {
        if (bucket.numMeasurements < static_cast<uint32_t>(limits.minCount)) {
            const int64_t absoluteMax = std::min(kLargeMeasurementsMaxBucketSize, cacheDerived);
            if (bucket.size + sizeToAdd > absoluteMax) {
                const bool fromCache = cacheDerived < kLargeMeasurementsMaxBucketSize;
                return {RolloverAction::kHardClose,
                        fromCache ? RolloverReason::kCachePressure : RolloverReason::kSize, false};
            }
            d.keptOpenDueToLargeMeasurements = !bucket.keptOpenDueToLargeMeasurements;
        } else {
            const bool bySize = effectiveMax == limits.maxSize;
            return {RolloverAction::kHardClose,
                    bySize ? RolloverReason::kSize : RolloverReason::kCachePressure, false};
        }
    }
    if (!schemaCompatible)
        return {RolloverAction::kHardClose, RolloverReason::kSchemaChange, false};
    return d;
}

}  // namespace mongo::timeseries::bucket_catalog
