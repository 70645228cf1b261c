#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_bucket_rewrite.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries {
namespace {

Date_t at(long long ms) {
    return Date_t::fromMillisSinceEpoch(ms);
}

TimeseriesOptions opts() {
    auto o = TimeseriesOptions::parse(fromjson(R"({"timeField": "t", "metaField": "m"})"));
    invariant(validateAndSetBucketingParameters(o).isOK());
    return o;
}

constexpr long long kBase = 1699999980000LL;  // a multiple of 60 s

TEST(TimeseriesBucketRewrite, SurvivorsKeepIdMetaAndRoundedMinTime) {
    std::vector<BSONObj> ms = {BSON("t" << at(kBase + 1000) << "v" << 1),
                               BSON("t" << at(kBase + 50000) << "v" << 7),
                               BSON("t" << at(kBase + 90000) << "v" << 3)};
    OID id = OID::gen();
    BSONObj bucket = makeNewCompressedBucket(id,
                                             BSON("meta"
                                                  << "s")
                                                 .firstElement(),
                                             ms, opts())
                         .getValue();
    auto out = rewriteBucketWithMeasurements(bucket, {ms[2]}, opts());
    ASSERT_TRUE(out.isOK());
    const BSONObj& b = out.getValue();
    EXPECT_EQ(b["_id"].OID(), id);
    EXPECT_EQ(b["meta"].str(), "s");
    EXPECT_EQ(b.getFieldDotted("control.version").numberInt(), 2);
    EXPECT_EQ(b.getFieldDotted("control.count").numberInt(), 1);
    EXPECT_EQ(b.getFieldDotted("control.min.t").date(), at(kBase));  // not kBase + 60000
    EXPECT_EQ(b.getFieldDotted("control.max.t").date(), at(kBase + 90000));
    EXPECT_EQ(b.getFieldDotted("control.min.v").numberInt(), 3);
    EXPECT_EQ(b.getFieldDotted("control.max.v").numberInt(), 3);
    EXPECT_EQ(storedMeasurementCount(b, "t"), 1);
}

TEST(TimeseriesBucketRewrite, NoSurvivorIsBadValue) {
    BSONObj bucket =
        makeNewCompressedBucket(OID::gen(), BSONElement(), {BSON("t" << at(kBase))}, opts())
            .getValue();
    EXPECT_EQ(rewriteBucketWithMeasurements(bucket, {}, opts()).getStatus().code(),
              ErrorCodes::BadValue);
}

TEST(TimeseriesBucketRewrite, NewBucketsSplitBySeriesSpanCountAndShape) {
    bucket_catalog::BucketLimits limits;
    limits.maxCount = 2;
    std::vector<BSONObj> ms = {
        BSON("t" << at(kBase) << "m" << BSON("b" << 1 << "a" << 2) << "v" << 1),
        BSON("t" << at(kBase + 1000) << "m" << BSON("a" << 2 << "b" << 1) << "v" << 2),
        BSON("t" << at(kBase + 2000) << "m" << BSON("a" << 2 << "b" << 1) << "v" << 3),   // count
        BSON("t" << at(kBase + 2 * 3600 * 1000LL) << "m" << BSON("a" << 2 << "b" << 1)),  // span
        BSON("t" << at(kBase) << "v" << 1),
        BSON("t" << at(kBase + 1) << "v"
                 << "str"),  // shape change
    };
    auto out = makeBucketsForMeasurements(ms, opts(), limits);
    ASSERT_TRUE(out.isOK());
    ASSERT_EQ(out.getValue().size(), 5u);
    long long total = 0;
    for (const BSONObj& b : out.getValue()) {
        total += storedMeasurementCount(b, "t");
        EXPECT_EQ(b.getFieldDotted("control.version").numberInt(), 2);
        // _id starts with the rounded bucket start.
        EXPECT_EQ(static_cast<long long>(b["_id"].OID().getTimestamp()) * 1000,
                  b.getFieldDotted("control.min.t").date().toMillisSinceEpoch());
    }
    EXPECT_EQ(total, 6);
}

TEST(TimeseriesBucketRewrite, NewBucketWithoutDateTimeIsBadValue) {
    auto out = makeBucketsForMeasurements({BSON("t" << 5)}, opts(), bucket_catalog::BucketLimits());
    EXPECT_EQ(out.getStatus().code(), ErrorCodes::BadValue);
}

}  // namespace
}  // namespace mongo::timeseries
