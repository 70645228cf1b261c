#include <gtest/gtest.h>

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/query/collation/collator_interface_mock.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

SortPattern pattern(StringData spec) {
    auto sw = SortPattern::parse(fromjson(spec));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus();
    return sw.getValue();
}

int code(const BSONObj& spec) {
    auto sw = SortPattern::parse(spec);
    return sw.isOK() ? 0 : static_cast<int>(sw.getStatus().code());
}

std::vector<int> sortedIds(const SortPattern& p, std::vector<BSONObj> docs) {
    std::stable_sort(docs.begin(), docs.end(), SortPatternLess{&p});
    std::vector<int> ids;
    for (const auto& d : docs)
        ids.push_back(d["_id"].numberInt());
    return ids;
}

TEST(SortPattern, ArraysMissingNullAndUndefinedOrderLikeUpstream) {
    std::vector<BSONObj> docs = {
        fromjson(R"({"_id": 1, "a": 1})"),
        fromjson(R"({"_id": 2, "a": {"$undefined": true}})"),
        fromjson(R"({"_id": 3, "a": null})"),
        fromjson(R"({"_id": 4, "a": {}})"),
        fromjson(R"({"_id": 5, "a": []})"),
        fromjson(R"({"_id": 6, "a": [1]})"),
        fromjson(R"({"_id": 7, "a": [[1]]})"),
        fromjson(R"({"_id": 8})"),
        fromjson(R"({"_id": 9, "a": [{"$undefined": true}]})"),
    };
    EXPECT_EQ(sortedIds(pattern(R"({"a": 1, "_id": 1})"), docs),
              (std::vector<int>{2, 5, 9, 3, 8, 1, 6, 4, 7}));
    EXPECT_EQ(sortedIds(pattern(R"({"a": -1, "_id": 1})"), docs),
              (std::vector<int>{7, 4, 1, 6, 3, 8, 2, 5, 9}));
}

TEST(SortPattern, TwoKeysWithArrays) {
    std::vector<BSONObj> docs = {
        fromjson(R"({"_id": 1, "a": 1, "b": [2]})"),
        fromjson(R"({"_id": 2, "a": 2, "b": []})"),
        fromjson(R"({"_id": 3, "a": [], "b": 4})"),
        fromjson(R"({"_id": 4, "a": [1], "b": 4})"),
        fromjson(R"({"_id": 5, "a": [2, 3], "b": 2})"),
        fromjson(R"({"_id": 6, "a": 2, "b": [3, 5]})"),
        fromjson(R"({"_id": 7, "a": 1, "b": [1, 3]})"),
        fromjson(R"({"_id": 8, "a": [1, 2], "b": 3})"),
        fromjson(R"({"_id": 9, "a": 2, "b": 3})"),
    };
    EXPECT_EQ(sortedIds(pattern(R"({"a": 1, "b": 1, "_id": 1})"), docs),
              (std::vector<int>{3, 7, 1, 8, 4, 2, 5, 6, 9}));
    EXPECT_EQ(sortedIds(pattern(R"({"a": 1, "b": -1, "_id": 1})"), docs),
              (std::vector<int>{3, 4, 7, 8, 1, 6, 9, 5, 2}));
    EXPECT_EQ(sortedIds(pattern(R"({"a": -1, "b": 1, "_id": 1})"), docs),
              (std::vector<int>{5, 2, 6, 8, 9, 7, 1, 4, 3}));
}

TEST(SortPattern, DottedPathsAndSortKeys) {
    SortPattern p = pattern(R"({"a.b": -1})");
    BSONObj doc = fromjson(R"({"a": [{"b": 1}, {"b": 7}, {"c": 1}]})");
    EXPECT_EQ(p.getSortKey(doc)[""].numberInt(), 7);
    SortPattern asc = pattern(R"({"a.b": 1})");
    EXPECT_TRUE(asc.getSortKey(doc)[""].isNull());
}

TEST(SortPattern, PartsThroughOneArrayPairValuesOfTheSameElement) {
    // Keys are made per element of `a`: {c: 1, b: 9} and {c: 5, b: 0}, never (1, 0).
    std::vector<BSONObj> docs = {
        fromjson(R"({"_id": 1, "a": [{"b": 9, "c": 1}, {"b": 0, "c": 5}]})"),
        fromjson(R"({"_id": 2, "a": [{"b": 3, "c": 1}, {"b": 8, "c": 2}]})"),
        fromjson(R"({"_id": 3, "a": {"b": 1, "c": 1}})"),
    };
    EXPECT_EQ(sortedIds(pattern(R"({"a.c": 1, "a.b": 1})"), docs), (std::vector<int>{3, 2, 1}));
    EXPECT_EQ(sortedIds(pattern(R"({"a.c": -1, "a.b": 1})"), docs), (std::vector<int>{1, 2, 3}));
    // A path and its prefix go through the same array as well.
    SortPattern prefix = pattern(R"({"a.b": 1, "a": -1})");
    BSONObj key = prefix.getSortKey(docs[0]);
    auto it = key.begin();
    EXPECT_EQ(it.next().numberInt(), 0);
    EXPECT_EQ(it.next().Obj()["c"].numberInt(), 5);
}

TEST(SortPattern, PositionalComponentTakesTheElementAsItIs) {
    SortPattern p = pattern(R"({"a.0": 1})");
    EXPECT_EQ(p.getSortKey(fromjson(R"({"a": [[4, 2], 1]})")).firstElement().type(),
              BSONType::kArray);
    EXPECT_TRUE(p.getSortKey(fromjson(R"({"a": []})")).firstElement().isNull());
    EXPECT_TRUE(p.getSortKey(fromjson(R"({"a": 3})")).firstElement().isNull());
    // The array below the positional element is a leaf array again: expanded.
    SortPattern q = pattern(R"({"a.0.b": -1})");
    EXPECT_EQ(
        q.getSortKey(fromjson(R"({"a": [{"b": [6, 2]}, {"b": 9}]})")).firstElement().numberInt(),
        6);
}

TEST(SortPattern, EmptyArrayInTheMiddleOfAPathIsNull) {
    SortPattern p = pattern(R"({"a.b": 1})");
    EXPECT_TRUE(p.getSortKey(fromjson(R"({"a": []})")).firstElement().isNull());
    EXPECT_EQ(p.getSortKey(fromjson(R"({"a": {"b": []}})")).firstElement().type(),
              BSONType::kUndefined);
}

TEST(SortPattern, ParallelArraysAreRefused) {
    SortPattern p = pattern(R"({"x": 1, "y.z": 1})");
    EXPECT_NO_THROW(p.getSortKey(fromjson(R"({"x": [1, 2], "y": {"z": 3}})")));
    try {
        p.getSortKey(fromjson(R"({"x": [1, 2], "y": {"z": [3]}})"));
        FAIL() << "expected parallel arrays";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), ErrorCodes::BadValue);
    }
    // Empty arrays are arrays too.
    EXPECT_THROW(pattern(R"({"a": 1, "b": 1})").getSortKey(fromjson(R"({"a": [], "b": []})")),
                 DBException);
    // Different elements of one array may each hold one of the arrays.
    SortPattern q = pattern(R"({"a.b": 1, "a.c": 1})");
    EXPECT_NO_THROW(q.getSortKey(fromjson(R"({"a": [{"b": [1], "c": 2}, {"b": 1, "c": [2]}]})")));
    EXPECT_THROW(q.getSortKey(fromjson(R"({"a": [{"b": [1], "c": [2]}]})")), DBException);
}

TEST(SortPattern, NaturalIsIgnoredByTheComparator) {
    SortPattern p = pattern(R"({"$natural": -1})");
    EXPECT_EQ(p.naturalDirection(), -1);
    EXPECT_TRUE(p.empty());
    EXPECT_EQ(p.compare(BSON("a" << 1), BSON("a" << 2)), 0);
}

TEST(SortPattern, ParseErrorsCarryUpstreamCodes) {
    EXPECT_EQ(code(BSON("a" << 2)), 15975);
    EXPECT_EQ(code(BSON("a"
                        << "x")),
              15974);
    EXPECT_EQ(code(BSON("a" << BSON("b" << 1))), 17312);
    EXPECT_EQ(code(BSON("a" << BSON("$meta"
                                    << "nope"))),
              31138);
    EXPECT_EQ(code(BSON("" << 1)), 40352);
    EXPECT_EQ(code(BSON("a..b" << 1)), 15998);
    EXPECT_EQ(code(BSON("a" << 1.0 << "b" << -1LL)), 0);
    EXPECT_EQ(code(BSON("s" << BSON("$meta"
                                    << "textScore"))),
              0);
}

TEST(SortPatternCollation, StringsCompareByTheCollator) {
    CollatorInterfaceMock reverse(CollatorInterfaceMock::MockType::kReverseString);
    SortPattern p = pattern(R"({"a": 1})");
    BSONObj ab = fromjson(R"({"a": "ab"})"), ba = fromjson(R"({"a": "ba"})");
    EXPECT_LT(p.compare(ab, ba), 0);
    p.setCollator(&reverse);
    EXPECT_EQ(p.getCollator(), &reverse);
    EXPECT_GT(p.compare(ab, ba), 0);
    EXPECT_GT(p.compareSortKeys(p.getSortKey(ab), p.getSortKey(ba)), 0);
}

TEST(SortPatternCollation, ArrayKeyPicksTheSmallestUnderTheCollator) {
    CollatorInterfaceMock reverse(CollatorInterfaceMock::MockType::kReverseString);
    SortPattern p = pattern(R"({"a": 1})");
    p.setCollator(&reverse);
    // Reversed keys: "za" -> "az", "ab" -> "ba": "za" is the smallest.
    BSONObj key = p.getSortKey(fromjson(R"({"a": ["ab", "za"]})"));
    EXPECT_EQ(key.firstElement().str(), "za");
}

TEST(SortPatternCollation, CaseInsensitiveCollatorTiesOnCase) {
    CollatorInterfaceMock lower(CollatorInterfaceMock::MockType::kToLowerString);
    SortPattern p = pattern(R"({"a": -1})");
    p.setCollator(&lower);
    EXPECT_EQ(p.compare(fromjson(R"({"a": "ABC"})"), fromjson(R"({"a": "abc"})")), 0);
    EXPECT_LT(p.compare(fromjson(R"({"a": "b"})"), fromjson(R"({"a": "A"})")), 0);
}

}  // namespace
}  // namespace mongo
