#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"

namespace mongo::timeseries::bucket_catalog {
namespace {

TEST(TimeseriesMinMax, ScalarsUseCanonicalOrderAcrossTypes) {
    MinMax mm;
    mm.update(fromjson(R"({"a": 5, "b": "x", "m": 1})"), StringData("m"));
    mm.update(fromjson(R"({"a": 2.5, "b": 1})"), StringData("m"));
    mm.update(fromjson(R"({"a": 7})"), StringData("m"));
    EXPECT_EQ(mm.min().toString(), "{ a: 2.5, b: 1 }");
    EXPECT_EQ(mm.max().toString(), R"({ a: 7, b: "x" })");
}

TEST(TimeseriesMinMax, ObjectsAreMinMaxedPerSubField) {
    MinMax mm;
    mm.update(fromjson(R"({"o": {"x": 1, "y": 9}})"), std::nullopt);
    mm.update(fromjson(R"({"o": {"x": 5, "y": 2, "z": 0}})"), std::nullopt);
    EXPECT_EQ(mm.min().toString(), "{ o: { x: 1, y: 2, z: 0 } }");
    EXPECT_EQ(mm.max().toString(), "{ o: { x: 5, y: 9, z: 0 } }");
}

TEST(TimeseriesMinMax, ArraysArePositional) {
    MinMax mm;
    mm.update(fromjson(R"({"a": [3, 1]})"), std::nullopt);
    mm.update(fromjson(R"({"a": [1, 4, 0]})"), std::nullopt);
    EXPECT_EQ(mm.min().toString(), "{ a: [ 1, 1, 0 ] }");
    EXPECT_EQ(mm.max().toString(), "{ a: [ 3, 4, 0 ] }");
}

TEST(TimeseriesMinMax, ScalarBelowObjectWinsMinObjectWinsMax) {
    MinMax mm;
    mm.update(fromjson(R"({"a": {"x": 1}})"), std::nullopt);
    mm.update(fromjson(R"({"a": 3})"), std::nullopt);
    EXPECT_EQ(mm.min().toString(), "{ a: 3 }");
    EXPECT_EQ(mm.max().toString(), "{ a: { x: 1 } }");
}

TEST(TimeseriesMinMax, RoundTripsThroughBSON) {
    MinMax mm;
    mm.update(fromjson(R"({"a": 1, "o": {"x": 2}})"), std::nullopt);
    MinMax copy = MinMax::parseFromBSON(mm.min(), mm.max());
    copy.update(fromjson(R"({"a": 0, "o": {"x": 3}})"), std::nullopt);
    EXPECT_EQ(copy.min().toString(), "{ a: 0, o: { x: 2 } }");
    EXPECT_EQ(copy.max().toString(), "{ a: 1, o: { x: 3 } }");
}

TEST(TimeseriesSchema, ShapeChangesAreIncompatible) {
    Schema s;
    EXPECT_EQ(s.update(fromjson(R"({"a": 1, "o": {"x": "s"}})"), std::nullopt),
              Schema::UpdateStatus::kUpdated);
    EXPECT_TRUE(
        s.compatible(fromjson(R"({"a": 2.5, "o": {"x": "t"}, "new": true})"), std::nullopt));
    EXPECT_FALSE(s.compatible(fromjson(R"({"a": "str"})"), std::nullopt));
    EXPECT_FALSE(s.compatible(fromjson(R"({"o": 1})"), std::nullopt));
    EXPECT_FALSE(s.compatible(fromjson(R"({"o": {"x": 1}})"), std::nullopt));
    EXPECT_TRUE(s.compatible(fromjson(R"({"m": "anything"})"), StringData("m")));
    EXPECT_EQ(s.update(fromjson(R"({"a": [1]})"), std::nullopt), Schema::UpdateStatus::kFailed);
}

TEST(TimeseriesSchema, MixedMinMaxFailsToParse) {
    EXPECT_FALSE(Schema::parseFromBSON(fromjson(R"({"a": 1})"), fromjson(R"({"a": "x"})")).isOK());
    EXPECT_TRUE(Schema::parseFromBSON(fromjson(R"({"a": 1})"), fromjson(R"({"a": 2.0})")).isOK());
}

}  // namespace
}  // namespace mongo::timeseries::bucket_catalog
