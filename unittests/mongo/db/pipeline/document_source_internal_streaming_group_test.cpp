#include "mongo/db/pipeline/document_source_internal_streaming_group.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/timeseries_rewrites.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

std::shared_ptr<ExpressionContext> makeCtx() {
    return std::make_shared<ExpressionContext>(nullptr,
                                               NamespaceString("test", "system.buckets.c"));
}

std::vector<std::string> monotonic(const char* groupJson) {
    auto f = timeseries_rewrite::monotonicIdFields(fromjson(groupJson), "t");
    return f ? *f : std::vector<std::string>{};
}

TEST(StreamingGroup, TimeAndDateTruncOfTimeAreMonotonic) {
    EXPECT_EQ(std::vector<std::string>{"_id"}, monotonic(R"({"_id": "$t"})"));
    EXPECT_EQ(std::vector<std::string>{"_id"},
              monotonic(R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "minute"}}})"));
    EXPECT_EQ(std::vector<std::string>{"minute"}, monotonic(R"({"_id": {"s": "$m.s",
        "minute": {"$subtract": [{"$dateTrunc": {"date": "$t", "unit": "minute"}},
                                 {"$dateTrunc": {"date": {"$date": 0}, "unit": "minute"}}]}}})"));
    EXPECT_EQ(std::vector<std::string>{"_id"}, monotonic(R"({"_id": {"$toLong": "$t"}})"));
}

TEST(StreamingGroup, OtherKeysAreNotMonotonic) {
    EXPECT_TRUE(monotonic(R"({"_id": "$m"})").empty());
    EXPECT_TRUE(monotonic(R"({"_id": null})").empty());
    EXPECT_TRUE(monotonic(R"({"_id": {"$subtract": ["$t", "$t"]}})").empty());
    EXPECT_TRUE(monotonic(R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "$u"}}})").empty());
    EXPECT_TRUE(monotonic(R"({"_id": {"$dateToString": {"date": "$t", "format": "%d"}}})").empty());
    EXPECT_TRUE(monotonic(R"({"_id": {"$add": ["$t", "$x"]}})").empty());
}

std::vector<BSONObj> optimized(const std::vector<BSONObj>& stages) {
    auto p = Pipeline::parse(stages, makeCtx());
    p->optimize();
    return p->serialize();
}

const char* kUnpack = R"({"$_internalUnpackBucket": {"timeField": "t", "metaField": "m",
                                                      "bucketMaxSpanSeconds": 3600}})";

TEST(StreamingGroup, GroupOnTimeAfterATimeSortBecomesStreamingGroup) {
    auto out =
        optimized({fromjson(kUnpack), fromjson(R"({"$sort": {"t": 1}})"),
                   fromjson(R"({"$group": {"_id": {"$dateTrunc": {"date": "$t", "unit": "hour"}},
                                                  "n": {"$sum": 1}}})")});
    ASSERT_EQ(4u, out.size());
    EXPECT_EQ("$_internalBoundedSort", out[2].firstElementFieldNameStringData());
    BSONObj g = out[3]["$_internalStreamingGroup"].Obj();
    EXPECT_EQ(BSON_ARRAY("_id").toString(), g["$monotonicIdFields"].Obj().toString());
    EXPECT_TRUE(g.hasField("n"));
    // The serialized stage parses back to itself.
    auto again = Pipeline::parse({out[3]}, makeCtx());
    EXPECT_EQ(out[3].toString(), again->serialize()[0].toString());
}

TEST(StreamingGroup, MetaThenTimeSortOrAMetaKeyKeepsTheGroup) {
    auto out = optimized({fromjson(kUnpack), fromjson(R"({"$sort": {"m": 1, "t": 1}})"),
                          fromjson(R"({"$group": {"_id": "$t", "n": {"$sum": 1}}})")});
    EXPECT_EQ("$group", out.back().firstElementFieldNameStringData());
    out = optimized({fromjson(kUnpack), fromjson(R"({"$sort": {"t": 1}})"),
                     fromjson(R"({"$group": {"_id": "$x", "n": {"$sum": 1}}})")});
    EXPECT_EQ("$group", out.back().firstElementFieldNameStringData());
}

std::vector<BSONObj> run(const BSONObj& stage, const std::vector<BSONObj>& docs) {
    auto ctx = makeCtx();
    auto p = Pipeline::parse({stage}, ctx);
    p->attachSource(std::make_unique<DocumentSourceQueue>(ctx, docs));
    std::vector<BSONObj> out;
    while (auto d = p->getNext())
        out.push_back(d->getOwned());
    return out;
}

TEST(StreamingGroup, GivesTheGroupsOfGroupInTheSameOrder) {
    std::vector<BSONObj> docs;
    for (int i = 0; i < 50; ++i)
        docs.push_back(BSON("t" << Date_t::fromMillisSinceEpoch(i * 20 * 1000) << "s" << (i * 7) % 3
                                << "x" << i));
    const char* group =
        R"({"_id": {"s": "$s", "min": {"$dateTrunc": {"date": "$t", "unit": "minute"}}},
                            "n": {"$sum": 1}, "hi": {"$max": "$x"}, "first": {"$first": "$x"}})";
    auto expected = run(BSON("$group" << fromjson(group)), docs);
    BSONObjBuilder streaming;
    streaming.appendElements(fromjson(group));
    streaming.append("$monotonicIdFields", BSON_ARRAY("min"));
    auto actual = run(BSON("$_internalStreamingGroup" << streaming.obj()), docs);
    ASSERT_EQ(expected.size(), actual.size());
    for (size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(expected[i].toString(), actual[i].toString());
    EXPECT_EQ(50u, expected.size());  // 17 minutes, 3 series (2 in the last)
}

int parseErrorCode(const char* json) {
    try {
        run(fromjson(json), {});
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(StreamingGroup, MonotonicFieldsMustNameIdFields) {
    EXPECT_EQ(7026702,
              parseErrorCode(R"({"$_internalStreamingGroup": {"_id": "$t", "n": {"$sum": 1}}})"));
    EXPECT_EQ(
        7026705,
        parseErrorCode(
            R"({"$_internalStreamingGroup": {"_id": {"a": "$t"}, "$monotonicIdFields": ["b"]}})"));
    EXPECT_EQ(7026708,
              parseErrorCode(
                  R"({"$_internalStreamingGroup": {"_id": null, "$monotonicIdFields": ["_id"]}})"));
    EXPECT_EQ(0,
              parseErrorCode(
                  R"({"$_internalStreamingGroup": {"_id": "$t", "$monotonicIdFields": ["_id"]}})"));
}

}  // namespace
}  // namespace mongo
