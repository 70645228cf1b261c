#include "mongo/db/pipeline/bucket_unpacker.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** A v2 bucket for measurements {t, a?} with meta {sensor: 1}. */
BSONObj makeV2Bucket(const std::vector<BSONObj>& measurements) {
    BSONColumnBuilder t, a;
    for (const auto& m : measurements) {
        t.append(m["t"]);
        if (m.hasField("a"))
            a.append(m["a"]);
        else
            a.skip();
    }
    std::string tb = t.finalize(), ab = a.finalize();
    BSONObjBuilder b;
    b.append("_id", OID::gen());
    b.append("control", BSON("version" << 2 << "min" << BSONObj() << "max" << BSONObj() << "count"
                                       << static_cast<int>(measurements.size())));
    b.append("meta", BSON("sensor" << 1));
    BSONObjBuilder data(b.subobjStart("data"));
    data.appendBinData("t", static_cast<int>(tb.size()), BinDataType::Column, tb.data());
    data.appendBinData("a", static_cast<int>(ab.size()), BinDataType::Column, ab.data());
    data.done();
    return b.obj();
}

TEST(BucketUnpacker, V2BucketYieldsMeasurementsTimeThenMetaThenFields) {
    Date_t t0 = Date_t::fromMillisSinceEpoch(1700000000000);
    std::vector<BSONObj> ms = {BSON("t" << t0 << "a" << 1),
                               BSON("t" << (t0 + std::chrono::milliseconds(1000))),
                               BSON("t" << (t0 + std::chrono::milliseconds(2000)) << "a" << 3.5)};
    BucketSpec spec;
    spec.timeField = "t";
    spec.metaField = "m";
    BucketUnpacker u(spec);
    u.reset(makeV2Bucket(ms));
    ASSERT_EQ(u.numberOfMeasurements(), 3u);
    BSONObj first = u.getNext();
    EXPECT_EQ(first.toString(), BSON("t" << t0 << "m" << BSON("sensor" << 1) << "a" << 1).toString());
    BSONObj second = u.getNext();
    EXPECT_FALSE(second.hasField("a"));
    BSONObj third = u.getNext();
    EXPECT_EQ(third["a"].numberDouble(), 3.5);
    EXPECT_FALSE(u.hasNext());
}

TEST(BucketUnpacker, V1BucketAndIncludeProjection) {
    BSONObj bucket = fromjson(R"({"_id": {"$oid": "650000000000000000000000"},
        "control": {"version": 1},
        "data": {"t": {"0": {"$date": "2024-01-01T00:00:00Z"}, "1": {"$date": "2024-01-01T00:00:01Z"}},
                 "x": {"1": 7}, "y": {"0": 1, "1": 2}}})");
    BucketSpec spec;
    spec.timeField = "t";
    spec.behavior = BucketSpec::Behavior::kInclude;
    spec.fieldSet = {"x"};
    BucketUnpacker u(spec);
    u.reset(bucket);
    ASSERT_EQ(u.numberOfMeasurements(), 2u);
    EXPECT_TRUE(u.getNext().isEmpty());
    EXPECT_EQ(u.getNext().toString(), "{ x: 7 }");
}

TEST(BucketUnpacker, BucketWithoutDataRegionFails) {
    BucketSpec spec;
    spec.timeField = "t";
    BucketUnpacker u(spec);
    try {
        u.reset(BSON("_id" << 1 << "control" << BSON("version" << 2)));
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), 5346509);
    }
}

}  // namespace
}  // namespace mongo
