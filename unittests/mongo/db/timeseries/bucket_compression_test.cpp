#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/timeseries/timeseries_write_util.h"

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

TEST(TimeseriesBucketCompression, NewBucketIsSortedV2WithRoundedMin) {
    std::vector<BSONObj> ms = {BSON("t" << at(1700000002000) << "v" << 2),
                               BSON("t" << at(1700000001000) << "v" << 1 << "w"
                                        << "x")};
    auto doc = makeNewCompressedBucket(OID::gen(),
                                       BSON("meta"
                                            << "s")
                                           .firstElement(),
                                       ms, opts());
    ASSERT_TRUE(doc.isOK());
    const BSONObj& b = doc.getValue();
    EXPECT_EQ(b.getFieldDotted("control.version").numberInt(), 2);
    EXPECT_EQ(b.getFieldDotted("control.count").numberInt(), 2);
    EXPECT_EQ(b.getFieldDotted("control.min.t").date(), at(1699999980000));
    EXPECT_EQ(b.getFieldDotted("control.max.t").date(), at(1700000002000));
    EXPECT_EQ(b["meta"].str(), "s");
    auto back = extractMeasurements(b, "t", StringData("m"));
    ASSERT_TRUE(back.isOK());
    ASSERT_EQ(back.getValue().size(), 2u);
    EXPECT_EQ(back.getValue()[0]["v"].numberInt(), 1);
    EXPECT_EQ(back.getValue()[0]["w"].str(), "x");
    EXPECT_TRUE(back.getValue()[1]["w"].eoo());
    EXPECT_EQ(back.getValue()[1]["m"].str(), "s");
}

TEST(TimeseriesBucketCompression, MissingTimeIsBadValue) {
    auto doc = makeNewCompressedBucket(OID::gen(), BSONElement(), {BSON("v" << 1)}, opts());
    EXPECT_EQ(doc.getStatus().code(), ErrorCodes::BadValue);
}

TEST(TimeseriesBucketCompression, V1BucketCompressesToSortedV2) {
    BSONObj v1 = BSON("_id" << OID::gen() << "control"
                            << BSON("version" << 1 << "min" << BSON("t" << at(0) << "v" << 1)
                                              << "max" << BSON("t" << at(2000) << "v" << 5))
                            << "data"
                            << BSON("t" << BSON("0" << at(2000) << "1" << at(1000)) << "v"
                                        << BSON("0" << 5 << "1" << 1)));
    auto c = compressBucket(v1, "t");
    ASSERT_TRUE(c.isOK());
    EXPECT_EQ(c.getValue().getFieldDotted("control.version").numberInt(), 2);
    EXPECT_EQ(c.getValue().getFieldDotted("control.count").numberInt(), 2);
    auto ms = extractMeasurements(c.getValue(), "t", std::nullopt).getValue();
    EXPECT_EQ(ms[0]["v"].numberInt(), 1);
    EXPECT_EQ(ms[1]["v"].numberInt(), 5);
    auto v1ms = extractMeasurements(v1, "t", std::nullopt).getValue();
    EXPECT_EQ(v1ms[0]["v"].numberInt(), 5);
}

TEST(TimeseriesBucketCompression, MalformedV1FailsWith409) {
    BSONObj bad =
        BSON("_id" << OID::gen() << "control" << BSON("version" << 1) << "data" << BSON("t" << 5));
    EXPECT_EQ(compressBucket(bad, "t").getStatus().code(),
              ErrorCodes::TimeseriesBucketCompressionFailed);
}

TEST(TimeseriesBucketCompression, ColumnsReopenFromStoredData) {
    std::vector<BSONObj> ms = {BSON("t" << at(1000) << "v" << 1.5), BSON("t" << at(2000))};
    auto doc = makeNewCompressedBucket(OID::gen(), BSONElement(), ms, opts()).getValue();
    auto set = ColumnSet::fromDataObject(doc["data"].Obj(), "t");
    ASSERT_TRUE(set.isOK());
    EXPECT_EQ(set.getValue().positions, 2u);
    set.getValue().append({BSON("t" << at(3000) << "v" << 2.5)}, std::nullopt);
    auto cols = finalizeColumns(set.getValue());
    ASSERT_EQ(cols.size(), 2u);
    auto all = ms;
    all.push_back(BSON("t" << at(3000) << "v" << 2.5));
    auto oneShot = makeNewCompressedBucket(doc["_id"].OID(), BSONElement(), all, opts()).getValue();
    int len = 0;
    const char* bytes = oneShot.getFieldDotted("data.v").binData(len);
    EXPECT_EQ(cols[1].second, std::string(bytes, len));
}

}  // namespace
}  // namespace mongo::timeseries
