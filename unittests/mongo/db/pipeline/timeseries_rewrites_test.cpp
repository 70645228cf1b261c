#include "mongo/db/pipeline/timeseries_rewrites.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/pipeline/document_source_internal_bounded_sort.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/timeseries_min_max_rewrite.h"
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

TEST(TimeseriesRewrites, MetaPathsAreRenamedOthersAreNot) {
    EXPECT_EQ("meta", *renameMetaPath("m", tsSpec()));
    EXPECT_EQ("meta.a.b", *renameMetaPath("m.a.b", tsSpec()));
    EXPECT_FALSE(renameMetaPath("mm", tsSpec()));
    EXPECT_FALSE(renameMetaPath("t", tsSpec()));
}

TEST(TimeseriesRewrites, SortOnMetaOnlyBecomesBucketSort) {
    auto s = bucketSortForMetaSort(BSON("m.a" << 1 << "m" << -1), tsSpec());
    ASSERT_TRUE(s);
    EXPECT_EQ(fromjson(R"({"meta.a": 1, "meta": -1})").toString(), s->toString());
    EXPECT_FALSE(bucketSortForMetaSort(BSON("m" << 1 << "t" << 1), tsSpec()));
    BucketSpec excluded = tsSpec();
    excluded.fieldSet.insert("m");
    EXPECT_FALSE(bucketSortForMetaSort(BSON("m" << 1), excluded));
}

TEST(TimeseriesRewrites, TimeSortPlansBucketOrderOnControlMin) {
    auto asc = planBoundedSort(BSON("t" << 1), tsSpec());
    ASSERT_TRUE(asc);
    EXPECT_TRUE(asc->timeAscending);
    EXPECT_EQ(fromjson(R"({"control.min.t": 1})").toString(), asc->bucketSort.toString());
    auto desc = planBoundedSort(BSON("m.x" << 1 << "t" << -1), tsSpec());
    ASSERT_TRUE(desc);
    EXPECT_FALSE(desc->timeAscending);
    EXPECT_EQ(fromjson(R"({"meta.x": 1, "control.min.t": -1})").toString(),
              desc->bucketSort.toString());
    EXPECT_FALSE(planBoundedSort(BSON("x" << 1 << "t" << 1), tsSpec()));
    EXPECT_FALSE(planBoundedSort(BSON("t" << 1 << "m" << 1), tsSpec()));
}

TEST(TimeseriesRewrites, GroupOnMetaWithMinMaxCountReadsControlFields) {
    auto r = rewriteGroupOverBuckets(
        fromjson(
            R"({"_id": "$m.host", "lo": {"$min": "$x"}, "hi": {"$max": "$t"}, "n": {"$sum": 1}})"),
        tsSpec());
    ASSERT_TRUE(r);
    BSONObj g = r->bucketGroup;
    EXPECT_EQ("$meta.host", g["_id"].str());
    EXPECT_EQ(BSON("$min"
                   << "$control.min.x")
                  .toString(),
              g["lo"].Obj().toString());
    EXPECT_EQ(BSON("$max"
                   << "$control.max.t")
                  .toString(),
              g["hi"].Obj().toString());
    EXPECT_EQ(BSON("$sum" << bucketCountExpression("t")).toString(), g["n"].Obj().toString());
    EXPECT_EQ(std::vector<std::string>{"x"}, r->minFields);
    EXPECT_EQ(std::vector<std::string>{"t"}, r->maxFields);
}

TEST(TimeseriesRewrites, GroupRewriteRefusesWhatControlFieldsCannotAnswer) {
    auto no = [](const char* json) { return !rewriteGroupOverBuckets(fromjson(json), tsSpec()); };
    EXPECT_TRUE(no(R"({"_id": "$x", "n": {"$sum": 1}})"));       // key on a measurement
    EXPECT_TRUE(no(R"({"_id": null, "lo": {"$min": "$t"}})"));   // control.min.t is rounded
    EXPECT_TRUE(no(R"({"_id": null, "s": {"$sum": "$x"}})"));    // not min/max/count
    EXPECT_TRUE(no(R"({"_id": null, "s": {"$min": "$x.y"}})"));  // dotted path
    EXPECT_TRUE(no(R"({"_id": "$$ROOT", "n": {"$sum": 1}})"));   // variable
    EXPECT_FALSE(no(R"({"_id": {"h": "$m.host", "k": 1}, "n": {"$count": {}}})"));
}

BSONObj v1Bucket(const char* json) {
    return fromjson(json);
}

TEST(TimeseriesExactMinMax, SafeBoundsPassThroughUnsafeOnesAreRecomputed) {
    BSONObj safe = v1Bucket(R"({"control": {"version": 1, "min": {"x": 1}, "max": {"x": 5}},
        "data": {"t": {"0": {"$date": 0}, "1": {"$date": 1000}}, "x": {"0": 1, "1": 5}}})");
    bool unpacked = true;
    BSONObj out = DocumentSourceInternalTimeseriesExactMinMax::makeBoundsExact(safe, "t", {"x"},
                                                                               {"x"}, &unpacked);
    EXPECT_FALSE(unpacked);
    EXPECT_TRUE(out.binaryEqual(safe));

    // null is below numbers in control.min but ignored by $min; objects are min-ed per field.
    BSONObj unsafe =
        v1Bucket(R"({"control": {"version": 1, "min": {"x": null, "o": {"a": 1, "b": 1}},
        "max": {"x": 7, "o": {"a": 9, "b": 9}}},
        "data": {"t": {"0": {"$date": 0}, "1": {"$date": 1000}, "2": {"$date": 2000}},
                 "x": {"0": null, "1": 7, "2": 3},
                 "o": {"0": {"a": 1, "b": 9}, "1": {"a": 9, "b": 1}}}})");
    out = DocumentSourceInternalTimeseriesExactMinMax::makeBoundsExact(unsafe, "t", {"x", "o"},
                                                                       {"o"}, &unpacked);
    EXPECT_TRUE(unpacked);
    BSONObj control = out["control"].Obj();
    EXPECT_EQ(3, control["min"].Obj()["x"].numberInt());
    EXPECT_EQ(fromjson(R"({"a": 1, "b": 9})").toString(),
              control["min"].Obj()["o"].Obj().toString());
    EXPECT_EQ(fromjson(R"({"a": 9, "b": 1})").toString(),
              control["max"].Obj()["o"].Obj().toString());
}

std::shared_ptr<ExpressionContext> makeCtx() {
    return std::make_shared<ExpressionContext>(nullptr,
                                               NamespaceString("test", "system.buckets.c"));
}

std::vector<BSONObj> optimized(const std::vector<BSONObj>& stages) {
    auto p = Pipeline::parse(stages, makeCtx());
    p->optimize();
    return p->serialize();
}

BSONObj unpackStage() {
    return fromjson(R"({"$_internalUnpackBucket": {"timeField": "t", "metaField": "m",
                                                   "bucketMaxSpanSeconds": 3600}})");
}

TEST(TimeseriesRewritePipeline, CountIsAnsweredFromControlCountWithoutUnpacking) {
    auto out = optimized({unpackStage(), fromjson(R"({"$count": "n"})")});
    ASSERT_EQ(2u, out.size());
    EXPECT_EQ("$group", out[0].firstElementFieldNameStringData());
    EXPECT_EQ("$project", out[1].firstElementFieldNameStringData());
}

TEST(TimeseriesRewritePipeline, MetaOnlyMatchMovesBeforeUnpackWithoutEventFilter) {
    auto out = optimized({unpackStage(), fromjson(R"({"$match": {"m.host": "a"}})"),
                          fromjson(R"({"$group": {"_id": "$m", "hi": {"$max": "$x"}}})")});
    ASSERT_EQ(3u, out.size());
    EXPECT_EQ(fromjson(R"({"$match": {"meta.host": "a"}})").toString(), out[0].toString());
    EXPECT_EQ("$_internalTimeseriesExactMinMax", out[1].firstElementFieldNameStringData());
    EXPECT_EQ("$group", out[2].firstElementFieldNameStringData());
}

TEST(TimeseriesRewritePipeline, MetaSortMovesBeforeUnpackAndKeepsTheLimit) {
    auto out = optimized(
        {unpackStage(), fromjson(R"({"$sort": {"m": 1}})"), fromjson(R"({"$limit": 3})")});
    ASSERT_EQ(4u, out.size());
    EXPECT_EQ(fromjson(R"({"$sort": {"meta": 1}})").toString(), out[0].toString());
    EXPECT_EQ(fromjson(R"({"$limit": 3})").toString(), out[1].toString());
    EXPECT_EQ("$_internalUnpackBucket", out[2].firstElementFieldNameStringData());
    EXPECT_EQ(BSON("$limit" << 3LL).toString(), out[3].toString());
}

TEST(TimeseriesRewritePipeline, TimeSortBecomesBoundedSortThatRoundTrips) {
    auto out = optimized(
        {unpackStage(), fromjson(R"({"$sort": {"t": -1}})"), fromjson(R"({"$limit": 2})")});
    ASSERT_EQ(3u, out.size());
    // On time alone, the buckets come in _id order, which is their start order.
    EXPECT_EQ(fromjson(R"({"$sort": {"_id": -1}})").toString(), out[0].toString());
    BSONObj bounded = out[2]["$_internalBoundedSort"].Obj();
    EXPECT_EQ(BSON("t" << -1).toString(), bounded["sortKey"].Obj().toString());
    EXPECT_EQ("min", bounded["bound"].Obj()["base"].str());
    EXPECT_EQ(3600, bounded["bound"].Obj()["offsetSeconds"].numberLong());
    EXPECT_EQ(2, bounded["limit"].numberLong());
    // Parsing the serialized stage gives the same stage back.
    auto again = Pipeline::parse({out[2]}, makeCtx());
    EXPECT_EQ(out[2].toString(), again->serialize()[0].toString());
}

TEST(TimeseriesRewritePipeline, LimitIsCopiedBeforeUnpackOnlyWithoutAFilter) {
    auto out = optimized({unpackStage(), fromjson(R"({"$limit": 4})")});
    ASSERT_EQ(3u, out.size());
    EXPECT_EQ("$limit", out[0].firstElementFieldNameStringData());
    out = optimized(
        {unpackStage(), fromjson(R"({"$match": {"x": 1}})"), fromjson(R"({"$limit": 4})")});
    EXPECT_NE("$limit", out[0].firstElementFieldNameStringData());
}

/** Runs the optimised pipeline over `buckets` and returns the `x` of each output. */
std::vector<int> runOverBuckets(const std::vector<BSONObj>& stages,
                                const std::vector<BSONObj>& buckets, const char* field) {
    auto ctx = makeCtx();
    auto p = Pipeline::parse(stages, ctx);
    p->optimize();
    p->attachSource(std::make_unique<DocumentSourceQueue>(ctx, buckets));
    std::vector<int> out;
    while (auto d = p->getNext())
        out.push_back(d->getField(field).numberInt());
    return out;
}

BSONObj bucketAt(long long startSec, const std::vector<std::pair<long long, int>>& points) {
    BSONObjBuilder b;
    long long maxMs = 0;
    for (auto& [ms, x] : points)
        maxMs = std::max(maxMs, ms);
    // As a real bucket's: the _id starts with the bucket's start in seconds (big-endian), so
    // _id order is start order; the rest is distinct per bucket.
    unsigned char id[12] = {};
    for (int i = 0; i < 4; ++i)
        id[i] = static_cast<unsigned char>(startSec >> (8 * (3 - i)));
    id[11] = static_cast<unsigned char>(points.size());
    b.append("_id", OID(id));
    b.append(
        "control",
        BSON("version" << 1 << "min" << BSON("t" << Date_t::fromMillisSinceEpoch(startSec * 1000))
                       << "max" << BSON("t" << Date_t::fromMillisSinceEpoch(maxMs))));
    b.append("meta", 1);
    BSONObjBuilder data(b.subobjStart("data"));
    BSONObjBuilder t(data.subobjStart("t"));
    for (size_t i = 0; i < points.size(); ++i)
        t.append(std::to_string(i), Date_t::fromMillisSinceEpoch(points[i].first));
    t.done();
    BSONObjBuilder x(data.subobjStart("x"));
    for (size_t i = 0; i < points.size(); ++i)
        x.append(std::to_string(i), points[i].second);
    x.done();
    data.done();
    return b.obj();
}

TEST(TimeseriesRewritePipeline, BoundedSortOrdersOverlappingBuckets) {
    // Buckets overlap in time (span 3600 s); the bucket-level $sort orders them by start.
    std::vector<BSONObj> buckets = {
        bucketAt(7200, {{7200000, 5}, {9000000, 7}}),
        bucketAt(0, {{3000000, 3}, {100000, 1}}),
        bucketAt(1800, {{1800000, 2}, {5000000, 6}, {3500000, 4}}),
    };
    EXPECT_EQ((std::vector<int>{1, 2, 3, 4, 6, 5, 7}),
              runOverBuckets({unpackStage(), fromjson(R"({"$sort": {"t": 1}})")}, buckets, "x"));
    EXPECT_EQ((std::vector<int>{7, 5, 6, 4, 3}),
              runOverBuckets({unpackStage(), fromjson(R"({"$sort": {"t": -1}})"),
                              fromjson(R"({"$limit": 5})")},
                             buckets, "x"));
}

TEST(TimeseriesRewrites, AddFieldsOnMetaIsEvaluatedPerBucket) {
    auto r = extractComputedMetaProjection(
        fromjson(R"({"$addFields": {"h": "$m.host", "u": {"$toUpper": "$m.host"}, "y": "$x"}})"),
        tsSpec());
    ASSERT_TRUE(r);
    EXPECT_EQ(fromjson(R"({"h": "$meta.host", "u": {"$toUpper": "$meta.host"}})").toString(),
              r->bucketAddFields.toString());
    EXPECT_EQ((std::vector<std::string>{"h", "u"}), r->fields);
    ASSERT_TRUE(r->rest);
    EXPECT_EQ(fromjson(R"({"$addFields": {"y": "$x"}})").toString(), r->rest->toString());
    // Everything taken: no stage left after unpacking.
    auto all = extractComputedMetaProjection(fromjson(R"({"$set": {"h": "$m"}})"), tsSpec());
    ASSERT_TRUE(all);
    EXPECT_FALSE(all->rest);
}

TEST(TimeseriesRewrites, OnlyALeadingRunOfMetaFieldsIsTaken) {
    // "y" first: taking "h" would move it ahead of "y" in the output.
    EXPECT_FALSE(extractComputedMetaProjection(
        fromjson(R"({"$addFields": {"y": "$x", "h": "$m.host"}})"), tsSpec()));
    // The rest reads a taken name: it would see the new value.
    EXPECT_FALSE(extractComputedMetaProjection(
        fromjson(R"({"$addFields": {"h": "$m.host", "y": "$h"}})"), tsSpec()));
    EXPECT_FALSE(extractComputedMetaProjection(
        fromjson(R"({"$addFields": {"h": "$m.host", "y": "$$ROOT"}})"), tsSpec()));
}

TEST(TimeseriesRewrites, ExpressionsReadingMoreThanMetaAreNotTaken) {
    for (const char* spec :
         {R"({"$addFields": {"h": "$t"}})", R"({"$addFields": {"h": "$x"}})",
          R"({"$addFields": {"h": "$$ROOT"}})", R"({"$addFields": {"h": "$$CURRENT.m"}})",
          R"({"$addFields": {"h": {"$concat": ["$m.a", "$x"]}}})",
          R"({"$addFields": {"h": {"a": "$m.a"}}})", R"({"$addFields": {"h.a": "$m.a"}})"})
        EXPECT_FALSE(extractComputedMetaProjection(fromjson(spec), tsSpec())) << spec;
}

TEST(TimeseriesRewrites, ReservedAndTimeMetaNamesAreNotTaken) {
    for (const char* name : {"_id", "t", "m", "control", "meta", "data"}) {
        BSONObj stage = BSON("$addFields" << BSON(name << "$m.host"));
        EXPECT_FALSE(extractComputedMetaProjection(stage, tsSpec())) << name;
    }
    BucketSpec already = tsSpec();
    already.computedMetaProjFields.push_back("h");
    EXPECT_FALSE(
        extractComputedMetaProjection(fromjson(R"({"$addFields": {"h": "$m"}})"), already));
    BucketSpec noMeta = tsSpec();
    noMeta.metaField.reset();
    EXPECT_FALSE(extractComputedMetaProjection(fromjson(R"({"$addFields": {"h": 1}})"), noMeta));
}

TEST(TimeseriesRewrites, InclusionProjectKeepsTakenFieldsIncluded) {
    auto r = extractComputedMetaProjection(
        fromjson(R"({"$project": {"_id": 0, "x": 1, "h": "$m.host", "y": {"$add": ["$x", 1]}}})"),
        tsSpec());
    ASSERT_TRUE(r);
    EXPECT_EQ(fromjson(R"({"h": "$meta.host"})").toString(), r->bucketAddFields.toString());
    ASSERT_TRUE(r->rest);
    EXPECT_EQ(fromjson(R"({"$project": {"_id": 0, "x": 1, "h": 1, "y": {"$add": ["$x", 1]}}})")
                  .toString(),
              r->rest->toString());
    // Exclusion projections and pure inclusions have nothing to take.
    EXPECT_FALSE(extractComputedMetaProjection(fromjson(R"({"$project": {"x": 0}})"), tsSpec()));
    EXPECT_FALSE(extractComputedMetaProjection(fromjson(R"({"$project": {"m": 1}})"), tsSpec()));
}

TEST(TimeseriesRewrites, MatchOnComputedFieldsIsSplitFromTheRest) {
    BucketSpec spec = tsSpec();
    spec.computedMetaProjFields = {"h"};
    auto s = splitComputedMetaMatch(fromjson(R"({"h": "a", "x": {"$gt": 1}})"), spec);
    EXPECT_EQ(fromjson(R"({"h": "a"})").toString(), s.bucketFilter.toString());
    EXPECT_EQ(fromjson(R"({"x": {"$gt": 1}})").toString(), s.rest.toString());
    EXPECT_EQ(s.rest.toString(), s.predicateSource.toString());
    EXPECT_TRUE(s.predicatesComplete);

    // A conjunct reading a computed field and another stays per measurement, unmapped.
    s = splitComputedMetaMatch(
        fromjson(R"({"$and": [{"h": "a"}, {"$or": [{"h": "b"}, {"x": 2}]}, {"t": {"$gt": 0}}]})"),
        spec);
    EXPECT_EQ(fromjson(R"({"h": "a"})").toString(), s.bucketFilter.toString());
    EXPECT_EQ(
        fromjson(R"({"$and": [{"$or": [{"h": "b"}, {"x": 2}]}, {"t": {"$gt": 0}}]})").toString(),
        s.rest.toString());
    EXPECT_EQ(fromjson(R"({"t": {"$gt": 0}})").toString(), s.predicateSource.toString());
    EXPECT_FALSE(s.predicatesComplete);

    s = splitComputedMetaMatch(fromjson(R"({"x": 1})"), spec);
    EXPECT_TRUE(s.bucketFilter.isEmpty());
    EXPECT_TRUE(s.predicatesComplete);
}

TEST(TimeseriesRewritePipeline, ComputedMetaAddFieldsAndItsMatchMoveBeforeUnpack) {
    auto out =
        optimized({unpackStage(), fromjson(R"({"$addFields": {"h": {"$toUpper": "$m.host"}}})"),
                   fromjson(R"({"$match": {"h": "A", "m.rack": 1}})")});
    ASSERT_EQ(4u, out.size());
    EXPECT_EQ(fromjson(R"({"$match": {"meta.rack": 1}})").toString(), out[0].toString());
    EXPECT_EQ(fromjson(R"({"$addFields": {"h": {"$toUpper": ["$meta.host"]}}})").toString(),
              out[1].toString());
    EXPECT_EQ(fromjson(R"({"$match": {"h": "A"}})").toString(), out[2].toString());
    BSONObj unpack = out[3]["$_internalUnpackBucket"].Obj();
    EXPECT_EQ(BSON_ARRAY("h").toString(), unpack["computedMetaProjFields"].Obj().toString());
    EXPECT_FALSE(unpack.hasField("eventFilter"));
}

TEST(TimeseriesRewritePipeline, MatchBeforeTheProjectionOnTheSameNameBlocksThePushDown) {
    auto out = optimized({unpackStage(), fromjson(R"({"$match": {"h": 1}})"),
                          fromjson(R"({"$addFields": {"h": "$m"}})")});
    EXPECT_EQ("$addFields", out.back().firstElementFieldNameStringData());
}

TEST(TimeseriesRewritePipeline, ComputedMetaFieldReplacesAMeasurementColumn) {
    // The bucket's own column "h" must not be unpacked next to the computed "h".
    BSONObj bucket = bucketAt(0, {{1000, 1}, {2000, 2}});
    BSONObjBuilder b;
    for (auto e : bucket)
        if (e.fieldNameStringData() != "meta")
            b.append(e);
    b.append("meta", BSON("host"
                          << "a"));
    auto ctx = makeCtx();
    auto p = Pipeline::parse({unpackStage(), fromjson(R"({"$addFields": {"x": "$m.host"}})")}, ctx);
    p->optimize();
    p->attachSource(std::make_unique<DocumentSourceQueue>(ctx, std::vector<BSONObj>{b.obj()}));
    int n = 0;
    while (auto d = p->getNext()) {
        ++n;
        int xs = 0;
        for (auto e : *d)
            xs += e.fieldNameStringData() == "x";
        EXPECT_EQ(1, xs) << d->toString();
        EXPECT_EQ("a", d->getField("x").str());
    }
    EXPECT_EQ(2, n);
}

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

TEST(TimeseriesRewrites, TopLevelBooleanProjectionsAreInternalizable) {
    using timeseries_rewrite::internalizableProjection;
    auto p = internalizableProjection(fromjson(R"({"$project": {"x": 1, "y": true}})"));
    ASSERT_TRUE(p);
    EXPECT_EQ(BucketSpec::Behavior::kInclude, p->behavior);
    EXPECT_EQ((std::set<std::string>{"_id", "x", "y"}), p->fields);
    p = internalizableProjection(fromjson(R"({"$project": {"_id": 0, "m": 1}})"));
    ASSERT_TRUE(p);
    EXPECT_EQ((std::set<std::string>{"m"}), p->fields);
    p = internalizableProjection(fromjson(R"({"$project": {"x": 0, "_id": false}})"));
    ASSERT_TRUE(p);
    EXPECT_EQ(BucketSpec::Behavior::kExclude, p->behavior);
    EXPECT_EQ((std::set<std::string>{"_id", "x"}), p->fields);
    p = internalizableProjection(fromjson(R"({"$project": {"_id": 0}})"));
    ASSERT_TRUE(p);
    EXPECT_EQ(BucketSpec::Behavior::kExclude, p->behavior);
    EXPECT_EQ((std::set<std::string>{"_id"}), p->fields);
    p = internalizableProjection(fromjson(R"({"$unset": ["a", "b"]})"));
    ASSERT_TRUE(p);
    EXPECT_EQ((std::set<std::string>{"a", "b"}), p->fields);
}

TEST(TimeseriesRewrites, ComputedOrDottedProjectionsAreNotInternalizable) {
    using timeseries_rewrite::internalizableProjection;
    EXPECT_FALSE(internalizableProjection(fromjson(R"({"$project": {"x": "$y"}})")));
    EXPECT_FALSE(internalizableProjection(fromjson(R"({"$project": {"a.b": 1}})")));
    EXPECT_FALSE(internalizableProjection(fromjson(R"({"$project": {"x": {"$add": [1, 2]}}})")));
    EXPECT_FALSE(internalizableProjection(fromjson(R"({"$unset": "a.b"})")));
    EXPECT_FALSE(internalizableProjection(fromjson(R"({"$addFields": {"x": 1}})")));
}

TEST(TimeseriesRewritePipeline, InclusionProjectIsAbsorbedIntoTheIncludeList) {
    auto out = optimized({unpackStage(), fromjson(R"({"$project": {"x": 1, "m": 1}})")});
    ASSERT_EQ(1u, out.size());
    EXPECT_EQ(fromjson(R"({"include": ["_id", "m", "x"]})").firstElement().toString(),
              out[0].firstElement().Obj()["include"].toString());
    out = optimized({unpackStage(), fromjson(R"({"$project": {"t": 0}})")});
    ASSERT_EQ(1u, out.size());
    EXPECT_EQ(BSON("exclude" << BSON_ARRAY("t")).firstElement().toString(),
              out[0].firstElement().Obj()["exclude"].toString());
}

TEST(TimeseriesRewritePipeline, ProjectStaysWhenComputedOrWhenTheFilterNeedsAnExcludedField) {
    auto out = optimized({unpackStage(), fromjson(R"({"$project": {"x": 1, "a.b": 1}})")});
    ASSERT_EQ(2u, out.size());
    EXPECT_EQ("$project", out[1].firstElementFieldNameStringData());
    out = optimized({unpackStage(), fromjson(R"({"$match": {"y": 1}})"),
                     fromjson(R"({"$project": {"x": 1}})")});
    EXPECT_EQ("$project", out.back().firstElementFieldNameStringData());
    out = optimized({unpackStage(), fromjson(R"({"$match": {"x": 1}})"),
                     fromjson(R"({"$project": {"x": 1}})")});
    EXPECT_EQ("$_internalUnpackBucket", out.back().firstElementFieldNameStringData());
}

}  // namespace
}  // namespace mongo
