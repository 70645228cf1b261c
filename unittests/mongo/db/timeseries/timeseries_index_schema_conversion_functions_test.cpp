#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/timeseries/timeseries_index_schema_conversion_functions.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries {
namespace {

TimeseriesOptions opts() {
    auto o = TimeseriesOptions::parse(fromjson(R"({"timeField": "t", "metaField": "m"})"));
    invariant(validateAndSetBucketingParameters(o).isOK());
    return o;
}

std::string toBuckets(StringData key) {
    auto r = createBucketsIndexSpecFromTimeseriesIndexSpec(opts(), fromjson(key));
    return r.isOK() ? r.getValue().toString()
                    : "error " + std::to_string(static_cast<int>(r.getStatus().code()));
}

std::string fromBuckets(StringData key) {
    auto r = createTimeseriesIndexSpecFromBucketsIndexSpec(opts(), fromjson(key));
    return r ? r->toString() : "none";
}

int specCode(StringData spec) {
    return static_cast<int>(
        createBucketsIndexFromTimeseriesIndex(opts(), fromjson(spec)).getStatus().code());
}

TEST(TimeseriesIndexConversion, TimeAscendingAndDescending) {
    EXPECT_EQ(toBuckets(R"({"t": 1})"), "{ control.min.t: 1, control.max.t: 1 }");
    EXPECT_EQ(toBuckets(R"({"t": -1})"), "{ control.max.t: -1, control.min.t: -1 }");
    EXPECT_EQ(toBuckets(R"({"t": "hashed"})"), "error 2");
}

TEST(TimeseriesIndexConversion, MetaAndSubfieldsAnyType) {
    EXPECT_EQ(toBuckets(R"({"m": 1, "t": 1})"), "{ meta: 1, control.min.t: 1, control.max.t: 1 }");
    EXPECT_EQ(toBuckets(R"({"m.a": "hashed"})"), R"({ meta.a: "hashed" })");
    EXPECT_EQ(toBuckets(R"({"m.$**": 1})"), "{ meta.$**: 1 }");
    EXPECT_EQ(toBuckets(R"({"m.loc": "2dsphere"})"), R"({ meta.loc: "2dsphere" })");
    EXPECT_EQ(toBuckets(R"({"mx": 1})"), "{ control.min.mx: 1, control.max.mx: 1 }");
}

TEST(TimeseriesIndexConversion, MeasurementFields) {
    EXPECT_EQ(toBuckets(R"({"x": 1})"), "{ control.min.x: 1, control.max.x: 1 }");
    EXPECT_EQ(toBuckets(R"({"x": -1})"), "{ control.max.x: -1, control.min.x: -1 }");
    EXPECT_EQ(toBuckets(R"({"loc": "2dsphere"})"), R"({ data.loc: "2dsphere_bucket" })");
    EXPECT_EQ(toBuckets(R"({"x": "hashed"})"), "error 2");
    EXPECT_EQ(toBuckets(R"({"x": "2d"})"), "error 2");
}

TEST(TimeseriesIndexConversion, InvalidKeys) {
    EXPECT_EQ(toBuckets(R"({})"), "error 2");
    EXPECT_EQ(toBuckets(R"({"$natural": 1})"), "error 2");
    EXPECT_EQ(toBuckets(R"({"$hint": "x"})"), "error 2");
}

TEST(TimeseriesIndexConversion, ShardKeyUsesOnlyMinTime) {
    auto r = createBucketsShardKeySpecFromTimeseriesShardKeySpec(opts(),
                                                                 fromjson(R"({"m": 1, "t": 1})"));
    ASSERT_TRUE(r.isOK());
    EXPECT_EQ(r.getValue().toString(), "{ meta: 1, control.min.t: 1 }");
}

TEST(TimeseriesIndexConversion, ReverseMapping) {
    EXPECT_EQ(fromBuckets(R"({"meta": 1, "control.min.t": 1, "control.max.t": 1})"),
              "{ m: 1, t: 1 }");
    EXPECT_EQ(fromBuckets(R"({"control.max.t": -1, "control.min.t": -1})"), "{ t: -1 }");
    EXPECT_EQ(fromBuckets(R"({"control.min.t": 1})"), "{ t: 1 }");
    EXPECT_EQ(fromBuckets(R"({"control.min.x": 1, "control.max.x": 1})"), "{ x: 1 }");
    EXPECT_EQ(fromBuckets(R"({"control.max.x": -1, "control.min.x": -1})"), "{ x: -1 }");
    EXPECT_EQ(fromBuckets(R"({"data.loc": "2dsphere_bucket"})"), R"({ loc: "2dsphere" })");
    EXPECT_EQ(fromBuckets(R"({"meta.a": "hashed"})"), R"({ m.a: "hashed" })");
    EXPECT_EQ(fromBuckets(R"({"control.min.x": 1, "control.max.x": -1})"), "none");
    EXPECT_EQ(fromBuckets(R"({"control.max.x": 1, "control.min.x": 1})"), "none");
    EXPECT_EQ(fromBuckets(R"({"control.min.x": 1})"), "none");
    EXPECT_EQ(fromBuckets(R"({"data.x": 1})"), "none");
    EXPECT_EQ(fromBuckets(R"({"_id": 1})"), "none");
}

TEST(TimeseriesIndexConversion, RejectedOptions) {
    EXPECT_EQ(specCode(R"({"key": {"m": 1}, "name": "a", "unique": true})"),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(specCode(R"({"key": {"m": 1}, "name": "a", "unique": false})"), 0);
    EXPECT_EQ(specCode(R"({"key": {"x": "text"}, "name": "a"})"), ErrorCodes::InvalidOptions);
    EXPECT_EQ(specCode(R"({"key": {"x": 1}, "name": "a", "sparse": true})"),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(specCode(R"({"key": {"m": 1, "t": 1}, "name": "a", "sparse": true})"), 0);
    EXPECT_EQ(specCode(R"({"key": {"m": 1}, "name": "a", "partialFilterExpression": {"m": 1},
                          "collation": {"locale": "en"}})"),
              ErrorCodes::IndexOptionsConflict);
    EXPECT_EQ(specCode(R"({"key": {"x": "hashed"}, "name": "a"})"), ErrorCodes::CannotCreateIndex);
}

TEST(TimeseriesIndexConversion, TtlRules) {
    EXPECT_EQ(specCode(R"({"key": {"t": 1, "m": 1}, "name": "a", "expireAfterSeconds": 10,
                          "partialFilterExpression": {"m": 1}})"),
              ErrorCodes::CannotCreateIndex);
    EXPECT_EQ(specCode(R"({"key": {"x": 1}, "name": "a", "expireAfterSeconds": 10,
                          "partialFilterExpression": {"m": 1}})"),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(specCode(R"({"key": {"t": 1}, "name": "a", "expireAfterSeconds": 10})"),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(specCode(R"({"key": {"t": 1}, "name": "a", "expireAfterSeconds": 10,
                          "partialFilterExpression": {"x": 1}})"),
              ErrorCodes::InvalidOptions);
    auto r =
        createBucketsIndexFromTimeseriesIndex(opts(), fromjson(R"({"key": {"t": 1}, "name": "a",
        "expireAfterSeconds": 10, "partialFilterExpression": {"m": {"$gt": 5}}})"));
    ASSERT_TRUE(r.isOK()) << r.getStatus();
    EXPECT_EQ(r.getValue()["key"].Obj().toString(), "{ control.min.t: 1 }");
    EXPECT_EQ(r.getValue()["partialFilterExpression"].Obj().toString(), "{ meta: { $gt: 5 } }");
    EXPECT_EQ(r.getValue()["originalSpec"].Obj()["key"].Obj().toString(), "{ t: 1 }");
}

TEST(TimeseriesIndexConversion, OriginalSpecOnlyWhenNeeded) {
    auto plain = createBucketsIndexFromTimeseriesIndex(
        opts(), fromjson(R"({"key": {"t": 1, "m": 1}, "name": "n"})"));
    ASSERT_TRUE(plain.isOK());
    EXPECT_FALSE(plain.getValue().hasField("originalSpec"));
    EXPECT_EQ(plain.getValue().toString(),
              R"({ key: { control.min.t: 1, control.max.t: 1, meta: 1 }, name: "n" })");
    auto measurement = createBucketsIndexFromTimeseriesIndex(
        opts(), fromjson(R"({"key": {"x": 1}, "name": "x_1", "hidden": true})"));
    ASSERT_TRUE(measurement.isOK());
    EXPECT_TRUE(measurement.getValue()["hidden"].trueValue());
    EXPECT_EQ(measurement.getValue()["originalSpec"].Obj().toString(),
              R"({ key: { x: 1 }, name: "x_1", hidden: true })");
}

TEST(TimeseriesIndexConversion, ListIndexesView) {
    auto withOriginal =
        fromjson(R"({"v": 2, "key": {"control.min.x": 1, "control.max.x": 1}, "name": "x_1",
                                    "originalSpec": {"v": 2, "key": {"x": 1}, "name": "x_1"}})");
    EXPECT_EQ(createTimeseriesIndexFromBucketsIndex(opts(), withOriginal)->toString(),
              R"({ v: 2, key: { x: 1 }, name: "x_1" })");
    auto defaultIndex = fromjson(
        R"({"v": 2, "key": {"meta": 1, "control.min.t": 1, "control.max.t": 1}, "name": "m_1_t_1"})");
    EXPECT_EQ(createTimeseriesIndexFromBucketsIndex(opts(), defaultIndex)->toString(),
              R"({ v: 2, key: { m: 1, t: 1 }, name: "m_1_t_1" })");
    EXPECT_FALSE(createTimeseriesIndexFromBucketsIndex(
        opts(), fromjson(R"({"v": 2, "key": {"data.x": 1}, "name": "raw"})")));
}

TEST(TimeseriesIndexConversion, PartialFilterTranslation) {
    auto t = [](StringData f) {
        auto r = translatePartialFilterExpression(opts(), fromjson(f));
        return r.isOK() ? r.getValue().toString()
                        : "error " + std::to_string(static_cast<int>(r.getStatus().code()));
    };
    EXPECT_EQ(t(R"({"m.a": "x"})"), R"({ meta.a: "x" })");
    EXPECT_EQ(t(R"({"x": {"$gt": 5}})"), "{ control.max.x: { $_internalExprGt: 5 } }");
    EXPECT_EQ(t(R"({"x": {"$lte": 5}})"), "{ control.min.x: { $_internalExprLte: 5 } }");
    EXPECT_EQ(t(R"({"x": 5})"),
              "{ $and: [ { control.min.x: { $_internalExprLte: 5 } }, { control.max.x: { "
              "$_internalExprGte: 5 } } ] }");
    EXPECT_EQ(
        t(R"({"x": {"$exists": true}})"),
        "{ $and: [ { control.min.x: { $exists: true } }, { control.max.x: { $exists: true } } ] }");
    EXPECT_EQ(t(R"({"$or": [{"m": 1}, {"x": {"$lt": 2}}]})"),
              "{ $or: [ { meta: 1 }, { control.min.x: { $_internalExprLt: 2 } } ] }");
    EXPECT_EQ(t(R"({"x": {"$in": [1, 2]}})"), "error 72");
    EXPECT_EQ(t(R"({"x": {"a": 1}})"), "error 72");
    EXPECT_EQ(t(R"({"t": {"$gt": 5}})"), "error 72");
    EXPECT_EQ(t(R"({"$expr": {"$gt": ["$x", 1]}})"), "error 72");
    auto timeGt = translatePartialFilterExpression(
        opts(), fromjson(R"({"t": {"$gt": {"$date": "2024-01-01T00:00:00Z"}}})"));
    ASSERT_TRUE(timeGt.isOK());
    EXPECT_NE(timeGt.getValue().toString().find("control.max.t: { $_internalExprGt"),
              std::string::npos);
    EXPECT_NE(timeGt.getValue().toString().find("control.min.t: { $_internalExprGt"),
              std::string::npos);
}

TEST(TimeseriesIndexConversion, ReopeningIndexDetection) {
    EXPECT_TRUE(isReopeningIndex(
        opts(), fromjson(R"({"key": {"meta": 1, "control.min.t": 1, "control.max.t": 1}})")));
    EXPECT_FALSE(isReopeningIndex(
        opts(),
        fromjson(
            R"({"key": {"meta": 1, "control.min.t": 1}, "partialFilterExpression": {"meta": 1}})")));
    EXPECT_FALSE(isReopeningIndex(opts(), fromjson(R"({"key": {"control.min.t": 1}})")));
}

}  // namespace
}  // namespace mongo::timeseries
