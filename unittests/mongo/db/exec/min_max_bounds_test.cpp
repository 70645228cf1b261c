#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/min_max_bounds.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

std::unique_ptr<IndexEntry> indexOn(StringData keyPattern) {
    auto e = std::make_unique<IndexEntry>();
    e->desc.keyPattern = fromjson(keyPattern);
    return e;
}

int errorCode(StringData keyPattern, StringData min, StringData max) {
    try {
        minMaxBounds(*indexOn(keyPattern), fromjson(min), fromjson(max));
    } catch (const DBException& ex) {
        return ex.code();
    }
    return 0;
}

TEST(MinMaxBounds, MinIsInclusiveMaxExclusive) {
    IndexBounds b = minMaxBounds(*indexOn(R"({"a": 1, "b": -1})"), fromjson(R"({"a": 1, "b": 2})"),
                                 fromjson(R"({"a": 2, "b": 1})"));
    EXPECT_EQ(b.start.toString(), "{ a: 1, b: 2 }");
    EXPECT_TRUE(b.startInclusive);
    EXPECT_EQ(b.end.toString(), "{ a: 2, b: 1 }");
    EXPECT_FALSE(b.endInclusive);
    IndexBounds onlyMax = minMaxBounds(*indexOn(R"({"a": 1})"), BSONObj(), fromjson(R"({"a": 3})"));
    EXPECT_TRUE(onlyMax.start.isEmpty());
}

TEST(MinMaxBounds, OrderFollowsTheKeyDirections) {
    // On {a: 1, b: -1}, (1, 2) comes before (1, 1).
    EXPECT_EQ(errorCode(R"({"a": 1, "b": -1})", R"({"a": 1, "b": 2})", R"({"a": 1, "b": 1})"), 0);
    EXPECT_EQ(errorCode(R"({"a": 1, "b": 1})", R"({"a": 1, "b": 2})", R"({"a": 1, "b": 1})"),
              51175);
    EXPECT_EQ(errorCode(R"({"a": -1})", R"({"a": 5})", R"({"a": 3})"), 0);
    EXPECT_EQ(errorCode(R"({"a": 1})", R"({"a": 2})", R"({"a": 2})"), 51175);
}

TEST(MinMaxBounds, FieldsMustBeTheIndexKeyFields) {
    EXPECT_EQ(errorCode(R"({"a": 1, "b": 1})", R"({"a": 1})", "{}"), 51174);
    EXPECT_EQ(errorCode(R"({"a": 1, "b": 1})", R"({"b": 1, "a": 1})", "{}"), 51174);
    EXPECT_EQ(errorCode(R"({"a": 1, "b": 1})", R"({"a": 1, "b": 1})", R"({"a": 2})"), 51176);
    EXPECT_EQ(errorCode(R"({"$**": 1})", R"({"a": 1})", "{}"), 51174);
    EXPECT_EQ(errorCode(R"({"a": "2dsphere"})", R"({"a": 1})", "{}"), 51174);
}

}  // namespace
}  // namespace mongo
