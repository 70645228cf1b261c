#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/matcher/explain_filter.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {
namespace {

std::string explained(StringData filter) {
    auto sw = parseMatchExpression(fromjson(filter));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus();
    return serializeForExplain(*sw.getValue()).jsonString();
}

std::string expected(StringData json) {
    return fromjson(json).jsonString();
}

TEST(ExplainFilter, OneChildAndIsTheChild) {
    EXPECT_EQ(explained(R"({"a": 1})"), expected(R"({"a": {"$eq": 1}})"));
    EXPECT_EQ(explained(R"({"$and": [{"a": 1}]})"), expected(R"({"a": {"$eq": 1}})"));
    EXPECT_EQ(explained(R"({"$or": [{"a": 1}]})"), expected(R"({"a": {"$eq": 1}})"));
}

TEST(ExplainFilter, NestedAndOrAreFlattened) {
    EXPECT_EQ(explained(R"({"$and": [{"a": 1}, {"$and": [{"b": 1}, {"c": 1}]}]})"),
              expected(R"({"$and": [{"a": {"$eq": 1}}, {"b": {"$eq": 1}}, {"c": {"$eq": 1}}]})"));
    EXPECT_EQ(explained(R"({"$or": [{"a": 1}, {"$or": [{"b": 1}, {"c": 1}]}]})"),
              expected(R"({"$or": [{"a": {"$eq": 1}}, {"b": {"$eq": 1}}, {"c": {"$eq": 1}}]})"));
    // An $or inside an $and stays where it is.
    EXPECT_EQ(
        explained(R"({"a": 1, "$or": [{"b": 1}, {"c": 1}]})"),
        expected(
            R"({"$and": [{"a": {"$eq": 1}}, {"$or": [{"b": {"$eq": 1}}, {"c": {"$eq": 1}}]}]})"));
}

TEST(ExplainFilter, AlwaysTrueIsNoFilter) {
    EXPECT_EQ(explained(R"({"$alwaysTrue": 1})"), expected("{}"));
    EXPECT_EQ(explained(R"({"$and": [{"$alwaysTrue": 1}, {"a": 1}]})"),
              expected(R"({"a": {"$eq": 1}})"));
    EXPECT_EQ(explained(R"({"$and": [{"$alwaysTrue": 1}, {"$alwaysTrue": 1}]})"), expected("{}"));
}

TEST(ExplainFilter, NorKeepsItsShape) {
    EXPECT_EQ(normalizeFilterForExplain(fromjson(R"({"$nor": [{"a": 1}]})")).jsonString(),
              expected(R"({"$nor": [{"a": 1}]})"));
}

TEST(ExplainFilter, EmptyAndLeafFiltersUnchanged) {
    EXPECT_EQ(normalizeFilterForExplain(BSONObj()).jsonString(), BSONObj().jsonString());
    EXPECT_EQ(normalizeFilterForExplain(fromjson(R"({"a": {"$gt": 1}})")).jsonString(),
              expected(R"({"a": {"$gt": 1}})"));
}

}  // namespace
}  // namespace mongo
