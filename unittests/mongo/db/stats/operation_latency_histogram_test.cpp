#include "mongo/db/stats/operation_latency_histogram.h"

#include <gtest/gtest.h>

#include "mongo/db/stats/top.h"

namespace mongo {
namespace {

TEST(OperationLatencyHistogram, BucketsArePowersOfTwoThenHalvesThenPowers) {
    EXPECT_EQ(0, OperationLatencyHistogram::bucketFor(0));
    EXPECT_EQ(0, OperationLatencyHistogram::bucketFor(1));
    EXPECT_EQ(1, OperationLatencyHistogram::bucketFor(2));
    EXPECT_EQ(1, OperationLatencyHistogram::bucketFor(3));
    EXPECT_EQ(10, OperationLatencyHistogram::bucketFor(2047));
    EXPECT_EQ(11, OperationLatencyHistogram::bucketFor(2048));
    EXPECT_EQ(11, OperationLatencyHistogram::bucketFor(3071));
    EXPECT_EQ(12, OperationLatencyHistogram::bucketFor(3072));
    EXPECT_EQ(13, OperationLatencyHistogram::bucketFor(4096));
    EXPECT_EQ(31, OperationLatencyHistogram::bucketFor(uint64_t{1} << 21));
    EXPECT_EQ(50, OperationLatencyHistogram::bucketFor(uint64_t{1} << 40));
    EXPECT_EQ(50, OperationLatencyHistogram::bucketFor(~uint64_t{0}));
}

TEST(OperationLatencyHistogram, EveryValueFallsInItsBucketsRange) {
    for (uint64_t v : {uint64_t{0}, uint64_t{5}, uint64_t{1500}, uint64_t{5000}, uint64_t{100000},
                       uint64_t{3} << 20, uint64_t{1} << 30}) {
        const int b = OperationLatencyHistogram::bucketFor(v);
        EXPECT_LE(OperationLatencyHistogram::lowerBound(b), v) << v;
        if (b + 1 < OperationLatencyHistogram::kMaxBuckets) {
            EXPECT_LT(v, OperationLatencyHistogram::lowerBound(b + 1)) << v;
        }
    }
    EXPECT_EQ(uint64_t{3072}, OperationLatencyHistogram::lowerBound(12));
    EXPECT_EQ(uint64_t{1} << 40, OperationLatencyHistogram::lowerBound(50));
}

TEST(OperationLatencyHistogram, AppendsKindsWithTotalsAndNonEmptyBuckets) {
    OperationLatencyHistogram h;
    h.increment(3, ReadWriteType::kRead);
    h.increment(3, ReadWriteType::kRead);
    h.increment(5000, ReadWriteType::kWrite);
    BSONObjBuilder b;
    h.append(true, &b);
    BSONObj o = b.obj();
    EXPECT_EQ(6, o["reads"].Obj()["latency"].numberLong());
    EXPECT_EQ(2, o["reads"].Obj()["ops"].numberLong());
    BSONObj hist = o["reads"].Obj()["histogram"].Obj();
    ASSERT_EQ(1, hist.nFields());
    EXPECT_EQ(2, hist.firstElement().Obj()["micros"].numberLong());
    EXPECT_EQ(2, hist.firstElement().Obj()["count"].numberLong());
    EXPECT_EQ(4096,
              o["writes"].Obj()["histogram"].Obj().firstElement().Obj()["micros"].numberLong());
    EXPECT_EQ(0, o["commands"].Obj()["ops"].numberLong());
    EXPECT_TRUE(o["transactions"].isABSONObj());
    BSONObjBuilder nb;
    h.append(false, &nb);
    EXPECT_FALSE(nb.obj()["reads"].Obj().hasField("histogram"));
}

TEST(Top, CountsPerNamespaceUntilDropped) {
    Top top;
    const NamespaceString a("topTest", "a"), b("topTest", "b");
    top.recordLatency(a, 10, ReadWriteType::kWrite);
    top.incrementCollectionScans(a, false);
    top.incrementCollectionScans(a, true);
    BSONObjBuilder out;
    top.appendLatencyStats(a, false, &out);
    top.appendQueryExecStats(a, &out);
    top.appendLatencyStats(b, false, &out);  // never used: zeros, not absent
    BSONObj o = out.obj();
    EXPECT_EQ(1, o["latencyStats"].Obj()["writes"].Obj()["ops"].numberLong());
    EXPECT_EQ(2, o["queryExecStats"].Obj()["collectionScans"].Obj()["total"].numberLong());
    EXPECT_EQ(1, o["queryExecStats"].Obj()["collectionScans"].Obj()["nonTailable"].numberLong());
    top.collectionDropped(a);
    BSONObjBuilder after;
    top.appendLatencyStats(a, false, &after);
    EXPECT_EQ(0, after.obj()["latencyStats"].Obj()["writes"].Obj()["ops"].numberLong());
}

}  // namespace
}  // namespace mongo
