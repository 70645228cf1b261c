// The pipeline under a collation: comparisons, grouping, sorting and set operators use
// ExpressionContext::getCollator(); string operators do not. Mock collators stand in for
// ICU (kToLowerString: case-insensitive, kReverseString: compares reversed strings).
#include <gtest/gtest.h>

#include <regex>

#include "mongo/bson/json.h"
#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/query/collation/collator_interface_mock.h"
#include "mongo/util/assert_util.h"
#include "relaxed_json.h"

namespace mongo {
namespace {

using test::parseArray;
using test::relaxedJson;

using MockType = CollatorInterfaceMock::MockType;

std::shared_ptr<ExpressionContext> makeCtx(std::optional<MockType> mock) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    if (mock)
        expCtx->setCollator(std::make_unique<CollatorInterfaceMock>(*mock));
    return expCtx;
}

std::string eval(std::optional<MockType> mock, StringData exprJson, StringData docJson = "{}") {
    auto expCtx = makeCtx(mock);
    BSONObj spec = relaxedJson(std::string("{x: ") + std::string(exprJson) + "}");
    auto expr =
        Expression::parseOperand(expCtx.get(), spec.firstElement(), expCtx->makeParseState());
    BSONObj doc = relaxedJson(docJson);
    return expr->evaluate(doc, &expCtx->variables).toString();
}

std::string run(std::optional<MockType> mock, StringData pipelineJson, StringData docsJson,
                long long maxMemoryBytes = 0) {
    auto expCtx = makeCtx(mock);
    if (maxMemoryBytes) {
        expCtx->maxMemoryBytes = maxMemoryBytes;
        expCtx->allowDiskUse = true;
    }
    auto p = Pipeline::parse(parseArray(pipelineJson), expCtx);
    p->optimize();
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, parseArray(docsJson)));
    std::string out;
    while (auto d = p->getNext())
        out += d->toString() + ";";
    return out;
}

const auto kLower = std::optional<MockType>(MockType::kToLowerString);
const auto kReverse = std::optional<MockType>(MockType::kReverseString);
const auto kSimple = std::optional<MockType>();

TEST(CollationValue, CompareAndHashFollowTheComparator) {
    CollatorInterfaceMock lower(MockType::kToLowerString);
    Value a("abc"), b("ABC");
    EXPECT_NE(Value::compare(a, b), 0);
    EXPECT_EQ(Value::compare(a, b, &lower), 0);
    EXPECT_EQ(a.hash(0, &lower), b.hash(0, &lower));
    EXPECT_TRUE(ValueEq{&lower}(Value(BSON("x"
                                           << "A")),
                                Value(BSON("x"
                                           << "a"))));
}

TEST(CollationExpression, ComparisonOperatorsUseTheCollation) {
    EXPECT_EQ(eval(kSimple, "{$eq: ['a', 'A']}"), "false");
    EXPECT_EQ(eval(kLower, "{$eq: ['a', 'A']}"), "true");
    EXPECT_EQ(eval(kLower, "{$ne: ['a', 'A']}"), "false");
    EXPECT_EQ(eval(kLower, "{$cmp: ['B', 'a']}"), "1");
    EXPECT_EQ(eval(kReverse, "{$lt: ['ab', 'ba']}"), "false");
    EXPECT_EQ(eval(kLower, "{$eq: [{x: ['A']}, {x: ['a']}]}"), "true");
}

TEST(CollationExpression, ArrayAndSetOperatorsUseTheCollation) {
    EXPECT_EQ(eval(kLower, "{$in: ['A', ['b', 'a']]}"), "true");
    EXPECT_EQ(eval(kLower, "{$indexOfArray: [['b', 'a'], 'A']}"), "1");
    EXPECT_EQ(eval(kLower, "{$size: {$setUnion: [['a', 'A', 'b'], ['B']]}}"), "2");
    EXPECT_EQ(eval(kLower, "{$setEquals: [['a'], ['A']]}"), "true");
    EXPECT_EQ(eval(kLower, "{$setIsSubset: [['A'], ['a', 'b']]}"), "true");
    EXPECT_EQ(eval(kLower, "{$setDifference: [['a', 'c'], ['A']]}"), "[ \"c\" ]");
    EXPECT_EQ(eval(kReverse, "{$sortArray: {input: ['ab', 'ba', 'ca'], sortBy: 1}}"),
              "[ \"ba\", \"ca\", \"ab\" ]");
    EXPECT_EQ(eval(kReverse, "{$sortArray: {input: [{s: 'ab'}, {s: 'ba'}], sortBy: {s: 1}}}"),
              "[ { s: \"ba\" }, { s: \"ab\" } ]");
    EXPECT_EQ(eval(kReverse, "{$maxN: {n: 1, input: ['ab', 'ba']}}"), "[ \"ab\" ]");
}

TEST(CollationExpression, StringOperatorsIgnoreTheCollation) {
    EXPECT_EQ(eval(kLower, "{$strcasecmp: ['a', 'B']}"), "-1");
    EXPECT_EQ(eval(kLower, "{$indexOfBytes: ['abc', 'C']}"), "-1");
}

TEST(CollationPipeline, GroupMergesKeysEqualUnderTheCollation) {
    EXPECT_EQ(
        run(kLower, "[{$group: {_id: '$k', n: {$sum: 1}}}]", "[{k: 'a'}, {k: 'A'}, {k: 'b'}]"),
        "{ _id: \"a\", n: 2 };{ _id: \"b\", n: 1 };");
    EXPECT_EQ(run(kSimple, "[{$group: {_id: '$k', n: {$sum: 1}}}, {$count: 'c'}]",
                  "[{k: 'a'}, {k: 'A'}]"),
              "{ c: 2 };");
}

TEST(CollationPipeline, GroupAccumulatorsUseTheCollation) {
    EXPECT_EQ(run(kLower, "[{$group: {_id: null, s: {$addToSet: '$k'}}}]", "[{k: 'a'}, {k: 'A'}]"),
              "{ _id: null, s: [ \"a\" ] };");
    EXPECT_EQ(run(kReverse, "[{$group: {_id: null, lo: {$min: '$k'}, hi: {$max: '$k'}}}]",
                  "[{k: 'ab'}, {k: 'ba'}]"),
              "{ _id: null, lo: \"ba\", hi: \"ab\" };");
    EXPECT_EQ(run(kReverse, "[{$group: {_id: null, t: {$top: {sortBy: {k: 1}, output: '$k'}}}}]",
                  "[{k: 'ab'}, {k: 'ba'}]"),
              "{ _id: null, t: \"ba\" };");
}

TEST(CollationPipeline, SortOrdersByTheCollation) {
    EXPECT_EQ(run(kReverse, "[{$sort: {k: 1}}, {$project: {_id: 0}}]",
                  "[{k: 'ab'}, {k: 'ca'}, {k: 'ba'}]"),
              "{ k: \"ba\" };{ k: \"ca\" };{ k: \"ab\" };");
    // Top-k ($sort + $limit) and array keys (the smallest element under the collation).
    EXPECT_EQ(run(kReverse, "[{$sort: {k: 1}}, {$limit: 1}, {$project: {_id: 0}}]",
                  "[{k: 'ab'}, {k: ['xb', 'ya']}]"),
              "{ k: [ \"xb\", \"ya\" ] };");
}

TEST(CollationPipeline, SpillingSortAndGroupKeepTheCollation) {
    std::string docs = "[";
    for (int i = 0; i < 200; ++i)
        docs += std::string(i ? "," : "") + "{k: '" + (i % 2 ? "A" : "a") +
                "', i: " + std::to_string(i) + "}";
    docs += "]";
    EXPECT_EQ(run(kLower, "[{$group: {_id: '$k', n: {$sum: 1}}}]", docs, 600),
              "{ _id: \"a\", n: 200 };");
    std::string sorted = run(kReverse, "[{$sort: {s: 1}}, {$project: {_id: 0, s: 1}}]",
                             "[{s: 'ab'}, {s: 'ca'}, {s: 'ba'}, {s: 'zz'}]", 100);
    EXPECT_EQ(sorted, "{ s: \"ba\" };{ s: \"ca\" };{ s: \"ab\" };{ s: \"zz\" };");
}

TEST(CollationPipeline, MatchAndExprUseTheCollation) {
    EXPECT_EQ(run(kLower, "[{$match: {k: 'A'}}, {$count: 'n'}]", "[{k: 'a'}, {k: 'b'}]"),
              "{ n: 1 };");
    EXPECT_EQ(run(kLower, "[{$match: {$expr: {$eq: ['$k', 'A']}}}, {$count: 'n'}]",
                  "[{k: 'a'}, {k: 'b'}]"),
              "{ n: 1 };");
}

TEST(CollationPipeline, BucketBoundariesUseTheCollation) {
    EXPECT_EQ(
        run(kReverse, "[{$bucket: {groupBy: '$k', boundaries: ['ba', 'ab'], default: 'other'}}]",
            "[{k: 'ca'}, {k: 'zz'}]"),
        "{ _id: \"ba\", count: 1 };{ _id: \"other\", count: 1 };");
}

TEST(CollationPipeline, FacetSubPipelinesInheritTheCollation) {
    EXPECT_EQ(
        run(kLower, "[{$facet: {f: [{$match: {k: 'A'}}, {$count: 'n'}]}}]", "[{k: 'a'}, {k: 'b'}]"),
        "{ f: [ { n: 1 } ] };");
}

TEST(CollationKeys, ConvertedSortKeysOrderLikeTheCollator) {
    CollatorInterfaceMock reverse(MockType::kReverseString);
    auto pattern = uassertStatusOK(SortPattern::parse(BSON("s" << 1)));
    BSONObj ab = BSON("s"
                      << "ab"
                      << "other"
                      << "zz"),
            ba = BSON("s"
                      << "ba");
    EXPECT_GT(compareCollated(pattern, ab, ba, &reverse), 0);
    EXPECT_LT(compareCollated(pattern, ab, ba, nullptr), 0);
    EXPECT_EQ(toComparisonKeys(ab, nullptr).toString(), ab.toString());
}

}  // namespace
}  // namespace mongo
