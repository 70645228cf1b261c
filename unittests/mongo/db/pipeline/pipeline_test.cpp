#include <gtest/gtest.h>

#include <regex>

#include "mongo/bson/json.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"
#include "relaxed_json.h"

namespace mongo {
namespace {

using test::parseArray;
using test::relaxedJson;

std::string run(StringData pipelineJson, StringData docsJson, bool allowDiskUse = false) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    expCtx->allowDiskUse = allowDiskUse;
    auto p = Pipeline::parse(parseArray(pipelineJson), expCtx);
    p->optimize();
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, parseArray(docsJson)));
    std::string out;
    while (auto d = p->getNext())
        out += d->toString() + ";";
    return out;
}

int errorCode(StringData pipelineJson, StringData docsJson = "[]") {
    try {
        run(pipelineJson, docsJson);
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(Pipeline, RejectsBadStages) {
    EXPECT_EQ(errorCode("[{$foo: 1}]"), 40324);
    EXPECT_EQ(errorCode("[{$match: {}, $limit: 1}]"), 40323);
    EXPECT_EQ(errorCode("[{$limit: 0}]"), 15958);
    EXPECT_EQ(errorCode("[{$group: {n: {$sum: 1}}}]"), 15955);
    EXPECT_EQ(errorCode("[{$group: {_id: null, n: {$bogus: 1}}}]"), 15952);
    EXPECT_EQ(errorCode("[{$project: {a: 1, b: 0}}]"), 31254);
}

TEST(Pipeline, CountDocumentsShape) {
    EXPECT_EQ(run("[{$match: {a: {$gt: 1}}}, {$group: {_id: 1, n: {$sum: 1}}}]",
                  "[{a: 1}, {a: 2}, {a: 3}]"),
              "{ _id: 1, n: 2 };");
}

TEST(Pipeline, GroupAccumulators) {
    EXPECT_EQ(run("[{$group: {_id: '$k', s: {$sum: '$v'}, a: {$avg: '$v'}, mn: {$min: '$v'}, "
                  "mx: {$max: '$v'}, f: {$first: '$v'}, l: {$last: '$v'}, p: {$push: '$v'}, "
                  "c: {$count: {}}}}]",
                  "[{k: 1, v: 1}, {k: 2, v: 5}, {k: 1.0, v: 3}]"),
              "{ _id: 1, s: 4, a: 2.0, mn: 1, mx: 3, f: 1, l: 3, p: [ 1, 3 ], c: 2 };"
              "{ _id: 2, s: 5, a: 5.0, mn: 5, mx: 5, f: 5, l: 5, p: [ 5 ], c: 1 };");
}

TEST(Pipeline, ProjectAddFieldsUnset) {
    EXPECT_EQ(run("[{$project: {b: 1, c: {$add: ['$a', 1]}}}]", "[{_id: 0, a: 1, b: 2}]"),
              "{ _id: 0, b: 2, c: 2 };");
    EXPECT_EQ(run("[{$addFields: {a: 10, 'x.y': 1}}]", "[{_id: 0, a: 1, b: 2}]"),
              "{ _id: 0, a: 10, b: 2, x: { y: 1 } };");
    EXPECT_EQ(run("[{$unset: ['a']}]", "[{_id: 0, a: 1, b: 2}]"), "{ _id: 0, b: 2 };");
    EXPECT_EQ(run("[{$project: {_id: 0}}]", "[{_id: 0, a: 1}]"), "{ a: 1 };");
}

TEST(Pipeline, SortLimitSkipCountUnwind) {
    EXPECT_EQ(run("[{$sort: {a: -1}}, {$limit: 2}]", "[{a: 1}, {a: 3}, {a: 2}]"),
              "{ a: 3 };{ a: 2 };");
    EXPECT_EQ(run("[{$skip: 1}, {$count: 'n'}]", "[{a: 1}, {a: 3}, {a: 2}]"), "{ n: 2 };");
    EXPECT_EQ(run("[{$unwind: {path: '$a', includeArrayIndex: 'i'}}]", "[{a: [5, 6]}]"),
              "{ a: 5, i: 0 };{ a: 6, i: 1 };");
    EXPECT_EQ(
        run("[{$unwind: {path: '$a', preserveNullAndEmptyArrays: true}}]", "[{a: []}, {b: 1}]"),
        "{};{ b: 1 };");
}

TEST(Pipeline, GroupOverMemoryLimitNeedsAllowDiskUse) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    expCtx->maxMemoryBytes = 1000;
    auto p = Pipeline::parse(parseArray("[{$group: {_id: '$a', p: {$push: '$b'}}}]"), expCtx);
    std::vector<BSONObj> docs;
    for (int i = 0; i < 100; ++i)
        docs.push_back(BSON("a" << i << "b" << std::string(50, 'x')));
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, docs));
    try {
        p->getNext();
        FAIL() << "expected 292";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), 292);
    }
}

TEST(Pipeline, RefusesMoreStagesThanTheLengthLimit) {
    std::string stages = "[";
    for (int i = 0; i < 1001; ++i)
        stages += std::string(i ? "," : "") + "{$match: {}}";
    EXPECT_EQ(errorCode(stages + "]"), 7749501);
    EXPECT_EQ(errorCode("[{$match: {}}, {$match: {}}]"), 0);
}

TEST(Pipeline, SetWindowFieldsStopsAtItsMemoryLimit) {
    long long old = gInternalDocumentSourceSetWindowFieldsMaxMemoryBytes.load();
    gInternalDocumentSourceSetWindowFieldsMaxMemoryBytes.store(20000);
    std::string docs = "[";
    for (int i = 0; i < 200; ++i)
        docs += std::string(i ? "," : "") + "{a: " + std::to_string(i) + ", s: 'abcdefghijklmnop'}";
    docs += "]";
    EXPECT_EQ(errorCode("[{$setWindowFields: {sortBy: {a: 1}, output: {all: {$push: '$s', "
                        "window: {documents: ['unbounded', 'unbounded']}}}}}]",
                        docs),
              5414201);
    gInternalDocumentSourceSetWindowFieldsMaxMemoryBytes.store(old);
    EXPECT_EQ(errorCode("[{$setWindowFields: {sortBy: {a: 1}, output: {all: {$push: '$s', "
                        "window: {documents: ['unbounded', 'unbounded']}}}}}]",
                        docs),
              0);
}

TEST(Pipeline, DensifyStopsAtTheGeneratedDocumentLimit) {
    EXPECT_EQ(errorCode("[{$densify: {field: 'x', range: {step: 1, bounds: [0, 1000000000000]}}}]",
                        "[{x: 0}]"),
              5897900);
    EXPECT_EQ(
        errorCode("[{$densify: {field: 'x', range: {step: 1, bounds: [0, 100]}}}]", "[{x: 0}]"), 0);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(PipelineSort, SpillsToDiskUnderAllowDiskUseAndKeepsOrder) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    expCtx->maxMemoryBytes = 2000;
    expCtx->allowDiskUse = true;
    auto p = Pipeline::parse({BSON("$sort" << BSON("k" << 1))}, expCtx);
    std::vector<BSONObj> docs;
    for (int i = 0; i < 500; ++i)
        docs.push_back(BSON("k" << (i * 7919) % 100 << "i" << i));
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, docs));
    int n = 0, lastK = -1, lastI = -1;
    while (auto d = p->getNext()) {
        int k = (*d)["k"].numberInt(), i = (*d)["i"].numberInt();
        EXPECT_TRUE(k > lastK || (k == lastK && i > lastI)) << "order/stability at " << n;
        lastK = k;
        lastI = i;
        ++n;
    }
    EXPECT_EQ(n, 500);
}

TEST(PipelineSort, OverMemoryLimitWithoutAllowDiskUseFails) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    expCtx->maxMemoryBytes = 2000;
    auto p = Pipeline::parse({BSON("$sort" << BSON("k" << 1))}, expCtx);
    std::vector<BSONObj> docs;
    for (int i = 0; i < 500; ++i)
        docs.push_back(BSON("k" << i));
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, docs));
    try {
        p->getNext();
        FAIL() << "expected 292";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed);
    }
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(PipelineGroup, SpillsUnderAllowDiskUseAndStillGroupsEveryKeyOnce) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    expCtx->maxMemoryBytes = 3000;
    expCtx->allowDiskUse = true;
    auto p = Pipeline::parse({BSON("$group" << BSON("_id"
                                                    << "$k"
                                                    << "n" << BSON("$sum" << 1) << "first"
                                                    << BSON("$first"
                                                            << "$i")))},
                             expCtx);
    std::vector<BSONObj> docs;
    for (int i = 0; i < 2000; ++i)
        docs.push_back(BSON("k" << (i * 37) % 200 << "i" << i));
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, docs));
    std::map<int, std::pair<int, int>> seen;
    while (auto d = p->getNext()) {
        int k = (*d)["_id"].numberInt();
        EXPECT_EQ(seen.count(k), 0u) << "group " << k << " returned twice";
        seen[k] = {(*d)["n"].numberInt(), (*d)["first"].numberInt()};
    }
    ASSERT_EQ(seen.size(), 200u);
    for (const auto& [k, v] : seen) {
        EXPECT_EQ(v.first, 10) << k;
        int firstI = 0;
        while ((firstI * 37) % 200 != k)
            ++firstI;
        EXPECT_EQ(v.second, firstI) << k;
    }
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(PipelineMeta, SortKeyFollowsTheSortThroughPassingStages) {
    EXPECT_EQ(run("[{$sort: {a: -1, b: 1}}, {$match: {a: {$gt: 0}}}, {$limit: 5}, "
                  "{$project: {_id: 0, k: {$meta: 'sortKey'}}}]",
                  "[{a: 1, b: 2}, {a: [3, 7], b: 1}, {a: 0}]"),
              "{ k: [ 7, 1 ] };{ k: [ 1, 2 ] };");
    // A $group makes new documents: no sort key; and without any $sort there is none either.
    EXPECT_EQ(run("[{$sort: {a: 1}}, {$group: {_id: null}}, {$addFields: {k: {$meta: 'sortKey'}}}]",
                  "[{a: 1}]"),
              "{ _id: null };");
    EXPECT_EQ(run("[{$addFields: {k: {$meta: 'sortKey'}}}]", "[{a: 1}]"), "{ a: 1 };");
}

TEST(PipelineMeta, MetaInProjections) {
    // In $project a $meta field counts as an inclusion unless something is excluded.
    EXPECT_EQ(
        run("[{$sort: {a: 1}}, {$project: {k: {$meta: 'sortKey'}}}]", "[{_id: 1, a: 1, b: 1}]"),
        "{ _id: 1, k: [ 1 ] };");
    EXPECT_EQ(run("[{$sort: {a: 1}}, {$project: {b: 0, k: {$meta: 'sortKey'}}}]",
                  "[{_id: 1, a: 1, b: 1}]"),
              "{ _id: 1, a: 1, k: [ 1 ] };");
    EXPECT_EQ(errorCode("[{$project: {b: 0, k: {$add: [1, 2]}}}]"), 31252);
}

TEST(PipelineMeta, ArgumentErrors) {
    EXPECT_EQ(errorCode("[{$project: {k: {$meta: 'nonsense'}}}]"), 17308);
    EXPECT_EQ(errorCode("[{$project: {k: {$meta: 1}}}]"), 17307);
    EXPECT_EQ(errorCode("[{$project: {k: {$meta: 'textScore'}}}]", "[{a: 1}]"), 40218);
    EXPECT_EQ(errorCode("[{$project: {k: {$meta: 'randVal'}}}]", "[{a: 1}]"), 0);
}

}  // namespace
}  // namespace mongo
