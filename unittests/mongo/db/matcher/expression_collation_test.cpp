// Match expressions under a collation (MatchExpression::setCollator), with the mock
// collators so the tests do not depend on ICU's tables.
#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/matcher/expression_leaf.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/query/collation/collator_interface_mock.h"

namespace mongo {
namespace {

using MockType = CollatorInterfaceMock::MockType;

bool matchesWith(const CollatorInterface* collator, StringData filter, StringData doc) {
    auto sw = parseMatchExpression(fromjson(filter));
    EXPECT_TRUE(sw.isOK()) << sw.getStatus() << " for " << filter;
    if (!sw.isOK())
        return false;
    sw.getValue()->setCollator(collator);
    return sw.getValue()->matchesBSON(fromjson(doc));
}

TEST(MatchExpressionCollation, EqualityIgnoresCaseWithLowerCaseCollator) {
    CollatorInterfaceMock lower(MockType::kToLowerString);
    EXPECT_TRUE(matchesWith(&lower, R"({"a": "FOO"})", R"({"a": "foo"})"));
    EXPECT_TRUE(matchesWith(&lower, R"({"a": {"$eq": "FoO"}})", R"({"a": "fOo"})"));
    EXPECT_FALSE(matchesWith(nullptr, R"({"a": "FOO"})", R"({"a": "foo"})"));
}

TEST(MatchExpressionCollation, RangeComparisonsUseTheCollation) {
    CollatorInterfaceMock reverse(MockType::kReverseString);
    // Reversed: "ab" -> "ba", "ba" -> "ab"; so "ab" sorts after "ba".
    EXPECT_TRUE(matchesWith(&reverse, R"({"a": {"$gt": "ba"}})", R"({"a": "ab"})"));
    EXPECT_FALSE(matchesWith(nullptr, R"({"a": {"$gt": "ba"}})", R"({"a": "ab"})"));
    EXPECT_TRUE(matchesWith(&reverse, R"({"a": {"$lt": "ab"}})", R"({"a": "ba"})"));
    EXPECT_TRUE(matchesWith(&reverse, R"({"a": {"$lte": "ab"}})", R"({"a": "ab"})"));
    EXPECT_FALSE(matchesWith(&reverse, R"({"a": {"$gte": "ab"}})", R"({"a": "ba"})"));
}

TEST(MatchExpressionCollation, NotEqualAndNinUseTheCollation) {
    CollatorInterfaceMock lower(MockType::kToLowerString);
    EXPECT_FALSE(matchesWith(&lower, R"({"a": {"$ne": "FOO"}})", R"({"a": "foo"})"));
    EXPECT_TRUE(matchesWith(nullptr, R"({"a": {"$ne": "FOO"}})", R"({"a": "foo"})"));
    EXPECT_FALSE(matchesWith(&lower, R"({"a": {"$nin": ["X", "FOO"]}})", R"({"a": "foo"})"));
}

TEST(MatchExpressionCollation, InSetIsBuiltWithTheCollation) {
    CollatorInterfaceMock lower(MockType::kToLowerString);
    EXPECT_TRUE(
        matchesWith(&lower, R"({"a": {"$in": ["Zed", 3, "BAR", "foo"]}})", R"({"a": "bar"})"));
    EXPECT_TRUE(
        matchesWith(&lower, R"({"a": {"$in": ["Zed", 3, "BAR", "foo"]}})", R"({"a": "ZED"})"));
    EXPECT_TRUE(matchesWith(&lower, R"({"a": {"$in": ["Zed", 3, "BAR", "foo"]}})", R"({"a": 3})"));
    EXPECT_FALSE(
        matchesWith(&lower, R"({"a": {"$in": ["Zed", 3, "BAR", "foo"]}})", R"({"a": "baz"})"));
    EXPECT_FALSE(
        matchesWith(nullptr, R"({"a": {"$in": ["Zed", 3, "BAR", "foo"]}})", R"({"a": "bar"})"));
}

TEST(MatchExpressionCollation, InSetResortsWhenTheCollatorChanges) {
    CollatorInterfaceMock reverse(MockType::kReverseString);
    auto expr = parseMatchExpression(fromjson(R"({"a": {"$in": ["ab", "ca", "bc"]}})")).getValue();
    expr->setCollator(&reverse);
    for (StringData v : {"ab", "ca", "bc"}) {
        BSONObj doc = BSON("a" << v);
        EXPECT_TRUE(expr->matchesBSON(doc)) << v;
    }
    EXPECT_FALSE(expr->matchesBSON(BSON("a"
                                        << "ba")));
}

TEST(MatchExpressionCollation, ArraysAndObjectsHoldingStringsCompareByCollation) {
    CollatorInterfaceMock lower(MockType::kToLowerString);
    EXPECT_TRUE(matchesWith(&lower, R"({"a": ["X", "Y"]})", R"({"a": ["x", "y"]})"));
    EXPECT_TRUE(matchesWith(&lower, R"({"a": {"b": "X"}})", R"({"a": {"b": "x"}})"));
    EXPECT_FALSE(
        matchesWith(&lower, R"({"a": {"B": "x"}})", R"({"a": {"b": "x"}})"));   // field names
    EXPECT_TRUE(matchesWith(&lower, R"({"a": "X"})", R"({"a": ["q", "x"]})"));  // traversal
}

TEST(MatchExpressionCollation, ElemMatchAndLogicalChildrenGetTheCollator) {
    CollatorInterfaceMock lower(MockType::kToLowerString);
    EXPECT_TRUE(matchesWith(&lower, R"({"a": {"$elemMatch": {"$eq": "X"}}})", R"({"a": ["x"]})"));
    EXPECT_TRUE(
        matchesWith(&lower, R"({"a": {"$elemMatch": {"b": "X"}}})", R"({"a": [{"b": "x"}]})"));
    EXPECT_TRUE(matchesWith(&lower, R"({"$or": [{"a": "Q"}, {"b": "Y"}]})", R"({"b": "y"})"));
    EXPECT_TRUE(
        matchesWith(&lower, R"({"$and": [{"a": "Q"}, {"b": "Y"}]})", R"({"a": "q", "b": "y"})"));
    EXPECT_FALSE(matchesWith(&lower, R"({"$nor": [{"a": "Q"}]})", R"({"a": "q"})"));
    EXPECT_TRUE(matchesWith(&lower, R"({"a": {"$not": {"$gt": "M"}}})", R"({"a": "b"})"));
    EXPECT_TRUE(matchesWith(&lower, R"({"a": {"$all": ["X", "Y"]}})", R"({"a": ["y", "x"]})"));
}

TEST(MatchExpressionCollation, RegexTypeExistsAndSizeIgnoreTheCollation) {
    CollatorInterfaceMock equal(MockType::kAlwaysEqual);
    EXPECT_FALSE(matchesWith(&equal, R"({"a": {"$regex": "^x$"}})", R"({"a": "y"})"));
    EXPECT_FALSE(matchesWith(&equal, R"({"a": {"$in": [{"$regex": "^x$"}]}})", R"({"a": "y"})"));
    EXPECT_FALSE(matchesWith(&equal, R"({"a": {"$type": "string"}})", R"({"a": 1})"));
    EXPECT_FALSE(matchesWith(&equal, R"({"a": {"$exists": true}})", R"({"b": "x"})"));
    EXPECT_FALSE(matchesWith(&equal, R"({"a": {"$size": 2}})", R"({"a": ["x"]})"));
}

TEST(MatchExpressionCollation, OnlyStringsAreAffected) {
    CollatorInterfaceMock equal(MockType::kAlwaysEqual);
    EXPECT_TRUE(matchesWith(&equal, R"({"a": "x"})", R"({"a": "anything"})"));
    EXPECT_FALSE(matchesWith(&equal, R"({"a": "x"})", R"({"a": 1})"));
    EXPECT_FALSE(matchesWith(&equal, R"({"a": 2})", R"({"a": 1})"));
}

TEST(MatchExpressionCollation, GetCollatorReportsWhatWasSetOnEveryNode) {
    CollatorInterfaceMock lower(MockType::kToLowerString);
    auto expr =
        parseMatchExpression(fromjson(R"({"$or": [{"a": 1}, {"b": {"$in": [1]}}]})")).getValue();
    EXPECT_EQ(expr->getCollator(), nullptr);
    expr->setCollator(&lower);
    EXPECT_EQ(expr->getCollator(), &lower);
    const MatchExpression* orNode = expr->getChild(0);
    ASSERT_NE(orNode, nullptr);
    EXPECT_EQ(orNode->getChild(1)->getCollator(), &lower);
}

}  // namespace
}  // namespace mongo
