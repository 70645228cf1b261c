#include <gtest/gtest.h>

#include "mongo/db/timeseries/bucket_catalog/rollover.h"

namespace mongo::timeseries::bucket_catalog {
namespace {

Date_t at(long long s) {
    return Date_t::fromMillisSinceEpoch(s * 1000);
}

BucketLimits limits() {
    BucketLimits l;
    l.maxCount = 10;
    l.maxSize = 1000;
    l.minCount = 3;
    return l;
}

RolloverDecision decide(RolloverBucketState b, long long t, int64_t add, bool compatible = true,
                        BucketLimits l = limits()) {
    return determineRolloverAction(b, at(t), add, compatible, 3600, l, 1);
}

TEST(TimeseriesRollover, FitsWhenNothingIsExceeded) {
    auto d = decide({at(0), 5, 100, false}, 10, 10);
    EXPECT_EQ(d.action, RolloverAction::kNone);
}

TEST(TimeseriesRollover, TimeForwardSoftCloses) {
    auto d = decide({at(0), 5, 100, false}, 3600, 10);
    EXPECT_EQ(d.action, RolloverAction::kSoftClose);
    EXPECT_EQ(d.reason, RolloverReason::kTimeForward);
    EXPECT_EQ(decide({at(0), 5, 100, false}, 3599, 10).action, RolloverAction::kNone);
}

TEST(TimeseriesRollover, TimeBackwardArchives) {
    auto d = decide({at(100), 5, 100, false}, 99, 10);
    EXPECT_EQ(d.action, RolloverAction::kArchive);
    EXPECT_EQ(d.reason, RolloverReason::kTimeBackward);
}

TEST(TimeseriesRollover, CountHardCloses) {
    auto d = decide({at(0), 10, 100, false}, 1, 10);
    EXPECT_EQ(d.action, RolloverAction::kHardClose);
    EXPECT_EQ(d.reason, RolloverReason::kCount);
}

TEST(TimeseriesRollover, SizeHardClosesAboveMinCount) {
    auto d = decide({at(0), 5, 950, false}, 1, 100);
    EXPECT_EQ(d.action, RolloverAction::kHardClose);
    EXPECT_EQ(d.reason, RolloverReason::kSize);
}

TEST(TimeseriesRollover, LargeMeasurementsKeepSmallBucketsOpen) {
    auto d = decide({at(0), 2, 950, false}, 1, 100);
    EXPECT_EQ(d.action, RolloverAction::kNone);
    EXPECT_TRUE(d.keptOpenDueToLargeMeasurements);
    d = decide({at(0), 2, 950, true}, 1, 100);
    EXPECT_FALSE(d.keptOpenDueToLargeMeasurements);  // counted once per bucket
    d = decide({at(0), 2, 100, false}, 1, kLargeMeasurementsMaxBucketSize);
    EXPECT_EQ(d.action, RolloverAction::kHardClose);
    EXPECT_EQ(d.reason, RolloverReason::kSize);
}

TEST(TimeseriesRollover, CacheDerivedLimitReportsCachePressure) {
    BucketLimits l = limits();
    l.maxSize = 100000;
    l.minSize = 10;
    l.storageCacheBytes = 1000;  // one active bucket -> 500 bytes
    auto d = determineRolloverAction({at(0), 5, 450, false}, at(1), 100, true, 3600, l, 1);
    EXPECT_EQ(d.reason, RolloverReason::kCachePressure);
}

TEST(TimeseriesRollover, SchemaChangeComesLast) {
    auto d = decide({at(0), 5, 100, false}, 1, 10, false);
    EXPECT_EQ(d.action, RolloverAction::kHardClose);
    EXPECT_EQ(d.reason, RolloverReason::kSchemaChange);
}

TEST(TimeseriesRollover, IdleExpiryThresholdResolution) {
    EXPECT_EQ(resolveIdleBucketExpiryThreshold(1000), 1000);
    EXPECT_GT(resolveIdleBucketExpiryThreshold(0), 0);
    EXPECT_EQ(resolveIdleBucketExpiryThreshold(10), 2 * resolveIdleBucketExpiryThreshold(5));
    EXPECT_EQ(resolveIdleBucketExpiryThreshold(0), resolveIdleBucketExpiryThreshold(5));
}

}  // namespace
}  // namespace mongo::timeseries::bucket_catalog
