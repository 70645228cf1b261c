#include "mongo/db/pipeline/timeseries_sample_stages.h"

#include <gtest/gtest.h>

#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"

namespace mongo {
namespace {

/** A v2 bucket of measurements {t, x: first + i}, i < n. */
BSONObj makeBucket(int first, int n) {
    BSONColumnBuilder t, x;
    for (int i = 0; i < n; ++i) {
        BSONObj m =
            BSON("t" << Date_t::fromMillisSinceEpoch(1000LL * (first + i)) << "x" << first + i);
        t.append(m["t"]);
        x.append(m["x"]);
    }
    std::string tb = t.finalize(), xb = x.finalize();
    BSONObjBuilder b;
    b.append("_id", OID::gen());
    b.append("control",
             BSON("version" << 2 << "min" << BSONObj() << "max" << BSONObj() << "count" << n));
    BSONObjBuilder data(b.subobjStart("data"));
    data.appendBinData("t", static_cast<int>(tb.size()), BinDataType::Column, tb.data());
    data.appendBinData("x", static_cast<int>(xb.size()), BinDataType::Column, xb.data());
    data.done();
    return b.obj();
}

/** Buckets 1 ({x: 0..2}) and 2 ({x: 10..11}), returned in turn `rounds` times (0: forever). */
class BucketSource : public PlanStage {
public:
    explicit BucketSource(int rounds) : _rounds(rounds) {}
    std::optional<WorkingMember> next(OperationContext*) override {
        if (_rounds > 0 && _pos >= 2 * _rounds)
            return std::nullopt;
        bool firstBucket = _pos++ % 2 == 0;
        return WorkingMember{RecordId(firstBucket ? 1 : 2), firstBucket ? _b1 : _b2};
    }
    std::string stageName() const override {
        return "SOURCE";
    }

private:
    int _rounds;
    int _pos = 0;
    BSONObj _b1 = makeBucket(0, 3);
    BSONObj _b2 = makeBucket(10, 2);
};

BucketSpec spec() {
    BucketSpec s;
    s.timeField = "t";
    return s;
}

TEST(UnpackBucketStage, ReturnsEveryMeasurementWithItsBucketAndIndex) {
    UnpackBucketStage unpack(std::make_unique<BucketSource>(1), spec());
    std::vector<std::pair<long long, long long>> seen;
    std::vector<int> xs;
    while (auto m = unpack.next(nullptr)) {
        seen.push_back({m->id.getLong(), unpack.index()});
        xs.push_back(m->doc["x"].numberInt());
    }
    EXPECT_EQ(xs, (std::vector<int>{0, 1, 2, 10, 11}));
    EXPECT_EQ(seen, (std::vector<std::pair<long long, long long>>{
                        {1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}}));
    EXPECT_EQ(unpack.bucketsUnpacked(), 2);
}

TEST(SampleFromTimeseriesBucketStage, ReturnsDistinctMeasurementsAndCountsRejections) {
    std::mt19937_64 gen(42);
    SampleFromTimeseriesBucketStage sample(std::make_unique<BucketSource>(0), spec(), 5, 4, &gen);
    std::set<int> xs;
    while (auto m = sample.next(nullptr))
        xs.insert(m->doc["x"].numberInt());
    EXPECT_EQ(xs, (std::set<int>{0, 1, 2, 10, 11}));
    EXPECT_FALSE(sample.failed());
    BSONObjBuilder b;
    sample.appendExecutionStats(&b);
    BSONObj s = b.obj();
    EXPECT_EQ(s["nBucketsUnpacked"].numberLong(), sample.bucketsRead());
    EXPECT_EQ(s["nBucketsDiscarded"].numberLong() + s["dupsTested"].numberLong(),
              sample.bucketsRead());
    EXPECT_EQ(s["dupsTested"].numberLong() - s["dupsDropped"].numberLong(), 5);
}

TEST(SampleFromTimeseriesBucketStage, FailsWhenTheSampleCannotBeFilled) {
    std::mt19937_64 gen(7);
    SampleFromTimeseriesBucketStage sample(std::make_unique<BucketSource>(0), spec(), 6, 4, &gen);
    int n = 0;
    while (sample.next(nullptr))
        ++n;
    EXPECT_EQ(n, 5);  // only five measurements exist
    EXPECT_TRUE(sample.failed());
    EXPECT_EQ(sample.bucketsRead(), 1000 + 200 * 6);
}

TEST(SampleFromTimeseriesBucketStage, FailsWhenItsInputEnds) {
    std::mt19937_64 gen(7);
    SampleFromTimeseriesBucketStage sample(std::make_unique<BucketSource>(1), spec(), 5, 1000,
                                           &gen);
    while (sample.next(nullptr)) {
    }
    EXPECT_TRUE(sample.failed());
    EXPECT_EQ(sample.bucketsRead(), 2);
}

}  // namespace
}  // namespace mongo
