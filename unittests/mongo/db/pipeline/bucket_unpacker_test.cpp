#include "mongo/db/pipeline/bucket_unpacker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

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
    EXPECT_EQ(first.toString(),
              BSON("t" << t0 << "m" << BSON("sensor" << 1) << "a" << 1).toString());
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

/** A v2 bucket with one column per field of `ms` (first-appearance order), no meta. */
BSONObj makeV2BucketOf(const std::vector<BSONObj>& ms) {
    std::vector<std::string> names;
    for (const auto& m : ms)
        for (auto e : m)
            if (std::find(names.begin(), names.end(), e.fieldName()) == names.end())
                names.push_back(e.fieldName());
    BSONObjBuilder b;
    b.append("control", BSON("version" << 2 << "count" << static_cast<int>(ms.size())));
    BSONObjBuilder data(b.subobjStart("data"));
    for (const auto& name : names) {
        BSONColumnBuilder col;
        for (const auto& m : ms)
            m.hasField(name) ? col.append(m[name]) : col.skip();
        std::string bin = col.finalize();
        data.appendBinData(name, static_cast<int>(bin.size()), BinDataType::Column, bin.data());
    }
    data.done();
    return b.obj();
}

TEST(BucketUnpacker, BlockDecodedColumnsUnpackToTheExactMeasurements) {
    std::vector<BSONObj> ms;
    for (int i = 0; i < 300; ++i) {
        BSONObjBuilder b;
        b.appendDate("t", Date_t::fromMillisSinceEpoch(1700000000000LL + i * 1000));
        if (i % 7 != 1)  // every field in the first one: columns keep its order
            b.append("dbl", i % 11 == 0 ? -0.0 : i % 13 == 0 ? std::nan("") : i * 0.25);
        if (i % 5 != 1)
            b.append("i32", i * 3 - 400);
        b.append("i64", (1LL << 40) + i);
        if (i % 9 == 0)
            b.append("mixed", static_cast<long long>(i));
        else
            b.append("mixed", i);
        b.appendBool("flag", i % 3 == 0);
        b.appendTimestamp("ts", (1ULL << 40) + i);
        b.appendDate("when", Date_t::fromMillisSinceEpoch(-5000 + i));
        if (i % 4 == 0)
            b.append("str", "s" + std::to_string(i));
        ms.push_back(b.obj());
    }
    BucketSpec spec;
    spec.timeField = "t";
    BucketUnpacker u(spec);
    u.reset(makeV2BucketOf(ms));
    using State = BucketUnpacker::ColumnAccess::State;
    EXPECT_EQ(u.column("dbl").state, State::kScalar);
    EXPECT_EQ(u.column("dbl").type, BSONType::kNumberDouble);
    EXPECT_EQ(u.column("i32").type, BSONType::kNumberInt);
    EXPECT_EQ(u.column("i64").type, BSONType::kNumberLong);
    EXPECT_EQ(u.column("t").type, BSONType::kDate);
    EXPECT_EQ(u.column("ts").type, BSONType::kTimestamp);
    EXPECT_EQ(u.column("mixed").state, State::kOther);  // int32 and int64 literals
    EXPECT_EQ(u.column("str").state, State::kOther);
    EXPECT_EQ(u.column("nope").state, State::kAbsent);
    for (const auto& m : ms) {
        ASSERT_TRUE(u.hasNext());
        BSONObj got = u.getNext();
        ASSERT_EQ(got.objsize(), m.objsize()) << got.toString() << " vs " << m.toString();
        EXPECT_EQ(memcmp(got.objdata(), m.objdata(), m.objsize()), 0) << got.toString();
    }
    EXPECT_FALSE(u.hasNext());
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
