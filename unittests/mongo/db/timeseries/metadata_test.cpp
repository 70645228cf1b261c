#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/metadata.h"

namespace mongo::timeseries::metadata {
namespace {

TEST(TimeseriesMetadata, ObjectFieldsAreSortedRecursively) {
    auto doc = fromjson(R"({"m": {"b": 1, "a": {"z": 1, "y": [{"d": 1, "c": 2}, 3]}}})");
    EXPECT_EQ(normalizeAs(doc["m"], "meta").toString(),
              "{ meta: { a: { y: [ { c: 2, d: 1 }, 3 ], z: 1 }, b: 1 } }");
}

TEST(TimeseriesMetadata, ArraysKeepOrderAndScalarsAreUnchanged) {
    auto doc = fromjson(R"({"m": [3, 1, 2], "s": "x"})");
    EXPECT_EQ(normalizeAs(doc["m"], "meta").toString(), "{ meta: [ 3, 1, 2 ] }");
    EXPECT_EQ(normalizeAs(doc["s"], "meta").toString(), R"({ meta: "x" })");
    EXPECT_TRUE(normalizeAs(BSONElement(), "meta").isEmpty());
}

TEST(TimeseriesMetadata, FieldOrderDoesNotChangeTheSeries) {
    auto a = normalizeAs(fromjson(R"({"m": {"a": 1, "b": 2}})")["m"], "meta");
    auto b = normalizeAs(fromjson(R"({"m": {"b": 2, "a": 1}})")["m"], "meta");
    EXPECT_TRUE(equal(a["meta"], b["meta"]));
    EXPECT_EQ(hash(a["meta"]), hash(b["meta"]));
}

TEST(TimeseriesMetadata, NumericTypesAreDistinctSeries) {
    auto i = BSON("m" << 1);
    auto l = BSON("m" << 1LL);
    EXPECT_FALSE(equal(i["m"], l["m"]));
    EXPECT_TRUE(equal(BSONElement(), BSONElement()));
    EXPECT_FALSE(equal(BSONElement(), i["m"]));
}

}  // namespace
}  // namespace mongo::timeseries::metadata
