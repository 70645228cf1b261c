#include "mongo/db/exec/index_selection.h"

#include <gtest/gtest.h>

#include "mongo/bson/json.h"

namespace mongo {
namespace {

using namespace index_selection;

bool implies(const char* filter, const char* partial) {
    return filterImpliesPartialFilter(fromjson(filter), fromjson(partial));
}

int direction(const char* keyPattern, std::set<std::string> points, const char* sort) {
    return providedSortDirection(fromjson(keyPattern), points, fromjson(sort));
}

TEST(PartialFilterImplication, SamePredicateIsImplied) {
    EXPECT_TRUE(implies(R"({"a": 1, "b": {"$gt": 5}})", R"({"b": {"$gt": 5}})"));
    EXPECT_TRUE(implies(R"({"b": "x"})", R"({"b": "x"})"));
    EXPECT_TRUE(implies(R"({"b": {"$type": "string"}})", R"({"b": {"$type": "string"}})"));
    EXPECT_TRUE(
        implies(R"({"$or": [{"b": 1}, {"c": 1}], "a": 1})", R"({"$or": [{"b": 1}, {"c": 1}]})"));
}

TEST(PartialFilterImplication, NarrowerRangeIsImplied) {
    EXPECT_TRUE(implies(R"({"a": 1, "b": {"$gt": 10}})", R"({"b": {"$gt": 5}})"));
    EXPECT_TRUE(implies(R"({"b": {"$gte": 6}})", R"({"b": {"$gt": 5}})"));
    EXPECT_TRUE(implies(R"({"b": {"$gt": 5}})", R"({"b": {"$gte": 5}})"));
    EXPECT_TRUE(implies(R"({"b": 7})", R"({"b": {"$gt": 5}})"));
    EXPECT_TRUE(implies(R"({"b": {"$eq": 7.5}})", R"({"b": {"$lte": 8}})"));
    EXPECT_TRUE(implies(R"({"b": {"$lt": 3}})", R"({"b": {"$lt": 3}})"));
    EXPECT_TRUE(implies(R"({"b": {"$in": [6, 7]}})", R"({"b": {"$gt": 5}})"));
}

TEST(PartialFilterImplication, WiderOrOtherRangeIsNotImplied) {
    EXPECT_FALSE(implies(R"({"a": 1})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": {"$gt": 4}})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": {"$gte": 5}})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": 5})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": {"$lt": 10}})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": {"$in": [6, 2]}})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"c": {"$gt": 10}})", R"({"b": {"$gt": 5}})"));
}

TEST(PartialFilterImplication, DifferentTypeBracketIsNotImplied) {
    EXPECT_FALSE(implies(R"({"b": "zzz"})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": [10]})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": {"$gt": {"$minKey": 1}}})", R"({"b": {"$gt": 5}})"));
}

TEST(PartialFilterImplication, ExistsIsImpliedByNonNullPredicates) {
    EXPECT_TRUE(implies(R"({"b": 3})", R"({"b": {"$exists": true}})"));
    EXPECT_TRUE(implies(R"({"b": {"$lt": 3}})", R"({"b": {"$exists": true}})"));
    EXPECT_TRUE(implies(R"({"b": {"$exists": true}})", R"({"b": {"$exists": true}})"));
    EXPECT_TRUE(implies(R"({"b": {"$type": "int"}})", R"({"b": {"$exists": true}})"));
    EXPECT_FALSE(implies(R"({"b": null})", R"({"b": {"$exists": true}})"));
    EXPECT_FALSE(implies(R"({"b": {"$ne": 3}})", R"({"b": {"$exists": true}})"));
    EXPECT_FALSE(implies(R"({"a": 3})", R"({"b": {"$exists": true}})"));
}

TEST(PartialFilterImplication, EveryConjunctMustBeImplied) {
    EXPECT_TRUE(implies(R"({"$and": [{"a": 1}, {"b": {"$gt": 9}}], "c": "x"})",
                        R"({"$and": [{"b": {"$gt": 5}}, {"c": {"$exists": true}}]})"));
    EXPECT_TRUE(implies(R"({"b": {"$gt": 6, "$lt": 8}})", R"({"b": {"$gt": 5, "$lt": 9}})"));
    EXPECT_FALSE(implies(R"({"b": {"$gt": 6}})", R"({"b": {"$gt": 5, "$lt": 9}})"));
    EXPECT_FALSE(implies(R"({"b": {"$gt": 6}})", R"({"b": {"$gt": 5}, "c": 1})"));
}

TEST(PartialFilterImplication, DisjunctionsInTheFilterImplyNothing) {
    EXPECT_FALSE(implies(R"({"$or": [{"b": 6}, {"b": 7}]})", R"({"b": {"$gt": 5}})"));
    EXPECT_FALSE(implies(R"({"b": {"$not": {"$lt": 5}}})", R"({"b": {"$gte": 5}})"));
}

TEST(FilterRequiresPath, EqualityAndRangesOnNonNullValues) {
    EXPECT_TRUE(filterRequiresPath(fromjson(R"({"a": 1})"), "a"));
    EXPECT_TRUE(filterRequiresPath(fromjson(R"({"$and": [{"a": {"$gte": "x"}}]})"), "a"));
    EXPECT_TRUE(filterRequiresPath(fromjson(R"({"a": {"$exists": true}})"), "a"));
    EXPECT_FALSE(filterRequiresPath(fromjson(R"({"a": null})"), "a"));
    EXPECT_FALSE(filterRequiresPath(fromjson(R"({"a": {"$exists": false}})"), "a"));
    EXPECT_FALSE(filterRequiresPath(fromjson(R"({"b": 1})"), "a"));
    EXPECT_FALSE(filterRequiresPath(fromjson(R"({"$or": [{"a": 1}, {"b": 1}]})"), "a"));
}

TEST(ProvidedSortDirection, KeyPatternPrefixInEitherDirection) {
    EXPECT_EQ(direction(R"({"a": 1})", {}, R"({"a": 1})"), 1);
    EXPECT_EQ(direction(R"({"a": 1})", {}, R"({"a": -1})"), -1);
    EXPECT_EQ(direction(R"({"a": 1, "b": -1})", {}, R"({"a": 1, "b": -1})"), 1);
    EXPECT_EQ(direction(R"({"a": 1, "b": -1})", {}, R"({"a": -1, "b": 1})"), -1);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1, "c": 1})", {}, R"({"a": 1, "b": 1})"), 1);
}

TEST(ProvidedSortDirection, MixedDirectionsOrOtherOrderAreNotProvided) {
    EXPECT_EQ(direction(R"({"a": 1, "b": 1})", {}, R"({"a": 1, "b": -1})"), 0);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1})", {}, R"({"b": 1})"), 0);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1})", {}, R"({"b": 1, "a": 1})"), 0);
    EXPECT_EQ(direction(R"({"a": 1})", {}, R"({"a": 1, "b": 1})"), 0);
    EXPECT_EQ(direction(R"({"a": 1})", {}, R"({"s": {"$meta": "textScore"}})"), 0);
    EXPECT_EQ(direction(R"({"a": "hashed"})", {}, R"({"a": 1})"), 0);
}

TEST(ProvidedSortDirection, EqualityPrefixFieldsAreSkipped) {
    EXPECT_EQ(direction(R"({"a": 1, "b": 1})", {"a"}, R"({"b": -1})"), -1);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1})", {"a"}, R"({"a": 1, "b": 1})"), 1);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1})", {"a"}, R"({"a": -1, "b": 1})"), 1);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1, "c": 1})", {"a", "b"}, R"({"c": 1})"), 1);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1})", {"a", "b"}, R"({"b": -1, "a": 1})"), 1);
    EXPECT_EQ(direction(R"({"a": 1, "b": 1, "c": 1})", {"b"}, R"({"c": 1})"), 0);
}

TEST(ProvidedSortDirection, TimeseriesBucketIndexProvidesMetaThenMinTime) {
    const char* kp = R"({"meta": 1, "control.min.time": 1, "control.max.time": 1})";
    EXPECT_EQ(direction(kp, {}, R"({"meta": 1, "control.min.time": 1})"), 1);
    EXPECT_EQ(direction(kp, {"meta"}, R"({"control.min.time": -1})"), -1);
    EXPECT_EQ(direction(kp, {}, R"({"control.min.time": 1})"), 0);
}

}  // namespace
TEST(RegexPrefix, AnchoredLiteralPrefix) {
    EXPECT_EQ(regexPrefix("^abc", ""), "abc");
    EXPECT_EQ(regexPrefix("^e.*", ""), "e");
    EXPECT_EQ(regexPrefix("^abc$", ""), "abc");
    EXPECT_EQ(regexPrefix("\\Aabc", "m"), "abc");
    EXPECT_EQ(regexPrefix("^ab+", ""), "ab");
    EXPECT_EQ(regexPrefix("^a[bc]", ""), "a");
    EXPECT_EQ(regexPrefix("^ab(c)", ""), "ab");
    EXPECT_EQ(regexPrefix("^abc", "s"), "abc");
}

TEST(RegexPrefix, OptionalLastCharacterIsDropped) {
    EXPECT_EQ(regexPrefix("^aa*", ""), "a");
    EXPECT_EQ(regexPrefix("^a?", ""), "");
    EXPECT_EQ(regexPrefix("^ab{0,2}", ""), "a");
    EXPECT_EQ(regexPrefix("^a\u00e9?", ""), "a");  // the whole two-byte character goes
}

TEST(RegexPrefix, EscapesAndQuoting) {
    EXPECT_EQ(regexPrefix("^\\/", ""), "/");
    EXPECT_EQ(regexPrefix("^\\.", ""), ".");
    EXPECT_EQ(regexPrefix("^\\\u00e9", ""), "\u00e9");
    EXPECT_EQ(regexPrefix("^\\Qblah\\E", ""), "blah");
    EXPECT_EQ(regexPrefix("^\\Q[\\Ewi\\Qth]some?s\\Eym", ""), "[with]some?sym");
    EXPECT_EQ(regexPrefix("^\\Qab\\E*", ""), "a");
    EXPECT_EQ(regexPrefix("^ab\\d", ""), "ab");
    EXPECT_EQ(regexPrefix("^a b#c", "x"), "ab");
    EXPECT_EQ(regexPrefix("^a b*", "x"), "a");
}

TEST(RegexPrefix, NoPrefixToUse) {
    EXPECT_EQ(regexPrefix("abc", ""), "");
    EXPECT_EQ(regexPrefix("^abc", "i"), "");
    EXPECT_EQ(regexPrefix("^abc", "m"), "");
    EXPECT_EQ(regexPrefix("^ab|cd", ""), "");
    EXPECT_EQ(regexPrefix("^.", ""), "");
}

TEST(RegexPrefix, UpperBound) {
    EXPECT_EQ(regexPrefixUpperBound("abc"), "abd");
    EXPECT_EQ(regexPrefixUpperBound(std::string("a\xff", 2)), "b");
    EXPECT_EQ(regexPrefixUpperBound(std::string("\xff")), "");
}

}  // namespace mongo
