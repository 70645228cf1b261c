// The canonical order of $and/$or children (expression_sort.h) and what it decides: which
// array sets a positional `$` (MatchDetails::elemMatchKey).
#include "mongo/db/matcher/expression_sort.h"

#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_parser.h"

namespace mongo {
namespace {

std::unique_ptr<MatchExpression> sorted(const char* filter) {
    auto sw = parseMatchExpression(fromjson(filter));
    EXPECT_TRUE(sw.isOK()) << filter;
    return canonicalizeMatchExpression(std::move(sw.getValue()));
}

/** The path of `m`, or of its only child when it is a one-child $and (how {$or: [{a: 1}]}
 * parses). */
std::string leafPath(const MatchExpression* m) {
    if (m->matchType() == MatchExpression::MatchType::kAnd && m->numChildren() == 1)
        return leafPath(m->getChild(0));
    return m->path();
}

std::string positionFor(const MatchExpression& m, const char* doc) {
    MatchDetails details;
    details.requestElemMatchKey();
    EXPECT_TRUE(m.matchesBSON(fromjson(doc), &details)) << doc;
    return details.hasElemMatchKey() ? details.elemMatchKey() : "none";
}

TEST(MatchExpressionSort, SameKindSortsByPath) {
    auto m = sorted(R"({"tag": {"$gt": 2}, "f": {"$gt": 2}})");
    ASSERT_EQ(m->numChildren(), 2u);
    EXPECT_EQ(m->getChild(0)->path(), "f");
    EXPECT_EQ(m->getChild(1)->path(), "tag");
}

TEST(MatchExpressionSort, KindComesBeforePath) {
    // Upstream's kind order: $eq before $gt, comparisons before $not, $exists after $regex.
    auto m = sorted(R"({"a": {"$gt": 1}, "z": 5, "b": {"$not": {"$eq": 1}}, "c": {"$exists": true},
                        "d": {"$regex": "x"}})");
    ASSERT_EQ(m->numChildren(), 5u);
    EXPECT_EQ(m->getChild(0)->path(), "z");  // $eq
    EXPECT_EQ(m->getChild(1)->path(), "a");  // $gt
    EXPECT_EQ(m->getChild(2)->path(), "d");  // $regex
    EXPECT_EQ(m->getChild(3)->path(), "c");  // $exists
    EXPECT_EQ(m->getChild(4)->matchType(), MatchExpression::MatchType::kNot);
}

TEST(MatchExpressionSort, LogicalBeforeLeavesAndNestedListsSorted) {
    auto m = sorted(R"({"x": 1, "$or": [{"b": 1}, {"a": 1}]})");
    ASSERT_EQ(m->numChildren(), 2u);
    const MatchExpression* orExpr = m->getChild(0);
    ASSERT_EQ(orExpr->matchType(), MatchExpression::MatchType::kOr);
    EXPECT_EQ(leafPath(orExpr->getChild(0)), "a");
    EXPECT_EQ(leafPath(orExpr->getChild(1)), "b");
}

TEST(MatchExpressionSort, NestedSameKindListsAreFlattenedAndSingleChildListsCollapse) {
    auto m = sorted(R"({"b": 1, "$and": [{"a": 1}, {"$and": [{"c": 1}]}], "$or": [{"d": 1}]})");
    ASSERT_EQ(m->matchType(), MatchExpression::MatchType::kAnd);
    ASSERT_EQ(m->numChildren(), 4u);
    EXPECT_EQ(m->getChild(0)->path(), "a");
    EXPECT_EQ(m->getChild(1)->path(), "b");
    EXPECT_EQ(m->getChild(2)->path(), "c");
    EXPECT_EQ(m->getChild(3)->path(), "d");
    // $nor keeps its children (each one is negated), and an $or in an $and stays.
    auto nor = sorted(R"({"$nor": [{"$nor": [{"a": 1}]}]})");
    EXPECT_EQ(nor->matchType(), MatchExpression::MatchType::kNor);
    auto single = sorted(R"({"a": {"$gt": 1}})");
    EXPECT_EQ(single->matchType(), MatchExpression::MatchType::kGt);
}

TEST(MatchExpressionSort, LastArrayReadSetsThePosition) {
    const char* doc = R"({"tag": [1, 2, 3, 4], "f": [4, 3, 2, 1]})";
    EXPECT_EQ(positionFor(*sorted(R"({"tag": {"$gt": 2}, "f": {"$gt": 2}})"), doc), "2");
    EXPECT_EQ(positionFor(*sorted(R"({"f": {"$gt": 2}, "tag": {"$gt": 2}})"), doc), "2");
    EXPECT_EQ(positionFor(*sorted(R"({"f": {"$gt": 2}, "tag": 3})"), doc), "0");
    // upstream and2.js: {a: 1, $and: [{b: 4}]} reads b last, like {a: 1, b: 4}.
    const char* ab = R"({"a": [1, 2], "b": [3, 4]})";
    EXPECT_EQ(positionFor(*sorted(R"({"a": 1, "b": 4})"), ab), "1");
    EXPECT_EQ(positionFor(*sorted(R"({"a": 1, "$and": [{"b": 4}]})"), ab), "1");
}

TEST(MatchExpressionSort, MatchingIsUnchanged) {
    const char* filter =
        R"({"b": {"$lt": 5}, "$or": [{"a": 1}, {"$or": [{"c": {"$exists": false}}]}],
            "e": {"$not": {"$gt": 3, "$lt": 1}}})";
    auto plain = parseMatchExpression(fromjson(filter));
    ASSERT_TRUE(plain.isOK());
    auto canon = sorted(filter);
    for (const char* doc : {R"({"a": 1, "b": 1})", R"({"b": 1, "c": 1})", R"({"b": 9, "a": 1})",
                            R"({"b": 2})", R"({})", R"({"b": 2, "e": 2})", R"({"b": 2, "e": 0})"})
        EXPECT_EQ(canon->matchesBSON(fromjson(doc)), plain.getValue()->matchesBSON(fromjson(doc)))
            << doc;
}

}  // namespace
}  // namespace mongo
