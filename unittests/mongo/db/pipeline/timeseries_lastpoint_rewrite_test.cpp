#include "mongo/db/pipeline/timeseries_lastpoint_rewrite.h"

#include <gtest/gtest.h>

#include "mongo/bson/json.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using namespace timeseries_rewrite;

BucketSpec tsSpec() {
    BucketSpec s;
    s.timeField = "t";
    s.metaField = "m";
    return s;
}

std::string stagesString(const LastPointRewrite& r) {
    std::string out;
    for (const auto& s : r.bucketStages)
        out += s.toString() + ";";
    return out;
}

TEST(TimeseriesLastPointRewrite, LatestWithFirstSortsBucketsByMaxTimeDescending) {
    auto r = rewriteLastPoint(fromjson(R"({"m.a": 1, "t": -1})"), 0,
                              fromjson(R"({"_id": "$m.a", "x": {"$first": "$x"}})"), tsSpec());
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->latest);
    ASSERT_EQ(3u, r->bucketStages.size());
    EXPECT_EQ(fromjson(R"({"$sort": {"meta.a": 1, "control.max.t": -1}})").toString(),
              r->bucketStages[0].toString());
    EXPECT_EQ(
        fromjson(R"({"$group": {"_id": "$meta.a", "bucket": {"$first": "$$ROOT"}}})").toString(),
        r->bucketStages[1].toString());
    EXPECT_EQ(fromjson(R"({"$replaceRoot": {"newRoot": "$bucket"}})").toString(),
              r->bucketStages[2].toString());
}

TEST(TimeseriesLastPointRewrite, LatestWithLastSortsAscendingAndTakesLastBucket) {
    auto r = rewriteLastPoint(fromjson(R"({"t": 1})"), 0,
                              fromjson(R"({"_id": "$m", "x": {"$last": "$x"}})"), tsSpec());
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->latest);
    EXPECT_EQ(fromjson(R"({"$sort": {"control.max.t": 1}})").toString(),
              r->bucketStages[0].toString());
    EXPECT_EQ(fromjson(R"({"$group": {"_id": "$meta", "bucket": {"$last": "$$ROOT"}}})").toString(),
              r->bucketStages[1].toString());
}

TEST(TimeseriesLastPointRewrite, TopAndBottomNeedNoSort) {
    auto top = rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$top": {"sortBy": {"t": -1}, "output": "$x"}}})"),
        tsSpec());
    ASSERT_TRUE(top);
    EXPECT_TRUE(top->latest);
    auto bottom = rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$bottom": {"sortBy": {"t": -1}, "output": "$x"}}})"),
        tsSpec());
    ASSERT_TRUE(bottom);
    EXPECT_FALSE(bottom->latest);
    auto bottomN = rewriteLastPoint(
        BSONObj(), 0,
        fromjson(
            R"({"_id": "$m", "x": {"$bottomN": {"n": 1, "sortBy": {"t": 1}, "output": "$x"}}})"),
        tsSpec());
    ASSERT_TRUE(bottomN);
    EXPECT_TRUE(bottomN->latest);
    // sortBy may start with meta keys the group key determines; not with others.
    EXPECT_TRUE(rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$top": {"sortBy": {"m": -1, "t": -1}, "output": "$x"}}})"),
        tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$top": {"sortBy": {"x": 1, "t": -1}, "output": "$x"}}})"),
        tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(
        BSONObj(), 0, fromjson(R"({"_id": "$m.a", "x": {"$top": {"sortBy": {"m.b": 1, "t": -1},
                     "output": "$x"}}})"),
        tsSpec()));
}

TEST(TimeseriesLastPointRewrite, EarliestKeepsEveryBucketThatMayHoldTheMinimum) {
    auto r = rewriteLastPoint(fromjson(R"({"m": 1, "t": 1})"), 0,
                              fromjson(R"({"_id": "$m", "x": {"$first": "$x"}})"), tsSpec());
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->latest);
    EXPECT_EQ(
        "{ $setWindowFields: { partitionBy: \"$meta\", output: { __lastPointBound: { $min: "
        "\"$control.max.t\" } } } };"
        "{ $match: { $expr: { $lte: [ \"$control.min.t\", \"$__lastPointBound\" ] } } };"
        "{ $project: { __lastPointBound: 0 } };",
        stagesString(*r));
}

TEST(TimeseriesLastPointRewrite, OtherShapesAreNotRewritten) {
    auto group = fromjson(R"({"_id": "$m", "x": {"$first": "$x"}})");
    // Time is not the last sort key, a measurement sort key, a $limit absorbed in the sort.
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"t": -1, "m": 1})"), 0, group, tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"x": 1, "t": -1})"), 0, group, tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"t": -1})"), 5, group, tsSpec()));
    // A meta sort key that the group key does not determine.
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"m.b": 1, "t": -1})"), 0,
                                  fromjson(R"({"_id": "$m.a", "x": {"$first": "$x"}})"), tsSpec()));
    // $first without a $sort, other accumulators, mixed latest and earliest, key on a measurement.
    EXPECT_FALSE(rewriteLastPoint(BSONObj(), 0, group, tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"t": -1})"), 0,
                                  fromjson(R"({"_id": "$m", "x": {"$max": "$x"}})"), tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(
        fromjson(R"({"t": -1})"), 0,
        fromjson(R"({"_id": "$m", "x": {"$first": "$x"}, "y": {"$last": "$y"}})"), tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"t": -1})"), 0,
                                  fromjson(R"({"_id": "$x", "x": {"$first": "$x"}})"), tsSpec()));
    // Keys other than one meta path, two $top/$bottom, $topN with n other than the constant 1.
    EXPECT_FALSE(rewriteLastPoint(BSONObj(), 0,
                                  fromjson(R"({"_id": null, "x": {"$top": {"sortBy": {"t": -1},
                                                "output": "$x"}}})"),
                                  tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(BSONObj(), 0,
                                  fromjson(R"({"_id": {"a": "$m.a"}, "x": {"$top": {"sortBy":
                                                {"t": -1}, "output": "$x"}}})"),
                                  tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$top": {"sortBy": {"t": -1}, "output": "$x"}},
                     "y": {"$bottom": {"sortBy": {"t": 1}, "output": "$y"}}})"),
        tsSpec()));
    // ... but several of one operator with one sortBy are.
    EXPECT_TRUE(rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$top": {"sortBy": {"t": -1}, "output": "$x"}},
                     "y": {"$top": {"sortBy": {"t": -1}, "output": "$y"}}})"),
        tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$topN": {"n": 2, "sortBy": {"t": -1}, "output": "$x"}}})"),
        tsSpec()));
    EXPECT_FALSE(rewriteLastPoint(
        BSONObj(), 0,
        fromjson(R"({"_id": "$m", "x": {"$topN": {"n": {"$add": [0, 1]}, "sortBy": {"t": -1},
                     "output": "$x"}}})"),
        tsSpec()));
    // No meta field, or meta excluded.
    BucketSpec noMeta = tsSpec();
    noMeta.metaField.reset();
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"t": -1})"), 0,
                                  fromjson(R"({"_id": null, "x": {"$first": "$x"}})"), noMeta));
    BucketSpec excluded = tsSpec();
    excluded.fieldSet.insert("m");
    EXPECT_FALSE(rewriteLastPoint(fromjson(R"({"t": -1})"), 0, group, excluded));
}

TEST(PipelineExecutionStats, EachStageCountsWhatItReturns) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    std::vector<BSONObj> stages = {fromjson(R"({"$match": {"a": {"$gt": 1}}})"),
                                   fromjson(R"({"$limit": 2})")};
    auto p = Pipeline::parse(stages, expCtx);
    std::vector<BSONObj> docs = {BSON("a" << 1), BSON("a" << 2), BSON("a" << 3), BSON("a" << 4)};
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, docs));
    p->enableExecutionStats();
    int n = 0;
    while (p->getNext())
        ++n;
    EXPECT_EQ(2, n);
    ASSERT_TRUE(p->stageStats(-1));
    EXPECT_EQ(3, p->stageStats(-1)->nReturned);  // $limit stops pulling after two matches
    ASSERT_TRUE(p->stageStats(0));
    EXPECT_EQ(2, p->stageStats(0)->nReturned);
    ASSERT_TRUE(p->stageStats(1));
    EXPECT_EQ(2, p->stageStats(1)->nReturned);
    EXPECT_FALSE(p->stageStats(2));
}

TEST(PipelineExecutionStats, NothingIsMeasuredUnlessEnabled) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    auto p = Pipeline::parse({fromjson(R"({"$limit": 1})")}, expCtx);
    p->attachSource(
        std::make_unique<DocumentSourceQueue>(expCtx, std::vector<BSONObj>{BSON("a" << 1)}));
    EXPECT_TRUE(p->getNext());
    EXPECT_FALSE(p->stageStats(-1));
    EXPECT_FALSE(p->stageStats(0));
}

}  // namespace
}  // namespace mongo
