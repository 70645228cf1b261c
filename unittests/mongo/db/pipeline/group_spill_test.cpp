#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "mongo/bson/json.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

std::vector<BSONObj> inputDocs() {
    std::vector<BSONObj> docs;
    for (int i = 0; i < 3000; ++i)
        docs.push_back(BSON("k" << (i * 37) % 300 << "i" << i << "x" << (i % 7) * 1.5 << "o"
                                << BSON("a" << i % 3)));
    return docs;
}

/** Runs `stage` over inputDocs(); returns the groups by _id as strings. */
std::map<int, std::string> runGroup(const BSONObj& stage, long long maxMemoryBytes,
                                    bool allowDiskUse) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    expCtx->maxMemoryBytes = maxMemoryBytes;
    expCtx->allowDiskUse = allowDiskUse;
    auto p = Pipeline::parse({stage}, expCtx);
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, inputDocs()));
    std::map<int, std::string> out;
    while (auto d = p->getNext()) {
        int k = (*d)["_id"].numberInt();
        EXPECT_EQ(out.count(k), 0u) << "group " << k << " returned twice";
        out[k] = d->toString();
    }
    return out;
}

const BSONObj kAllSpillable = fromjson(R"({"$group": {"_id": "$k",
    "n": {"$count": {}}, "s": {"$sum": "$x"}, "avg": {"$avg": "$i"},
    "min": {"$min": "$i"}, "max": {"$max": "$i"}, "first": {"$first": "$i"},
    "last": {"$last": "$i"}, "push": {"$push": "$i"}, "set": {"$addToSet": "$x"},
    "obj": {"$mergeObjects": "$o"}, "sd": {"$stdDevPop": "$i"}}})");

TEST(GroupSpill, PartialGroupsGiveTheSameResultsAsInMemory) {
    auto inMemory = runGroup(kAllSpillable, 100LL << 20, false);
    auto spilled = runGroup(kAllSpillable, 20000, true);
    ASSERT_EQ(inMemory.size(), 300u);
    ASSERT_EQ(spilled.size(), 300u);
    for (const auto& [k, doc] : inMemory) {
        // $stdDevPop may differ in the last bits; compare everything before it.
        auto cut = [](const std::string& s) { return s.substr(0, s.find("sd:")); };
        EXPECT_EQ(cut(doc), cut(spilled[k])) << k;
    }
}

TEST(GroupSpill, OverLimitWithoutAllowDiskUseFailsWith292) {
    try {
        runGroup(kAllSpillable, 20000, false);
        FAIL() << "expected 292";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed);
    }
}

TEST(GroupSpill, NAccumulatorsTopBottomAndPercentilesSpillPartials) {
    BSONObj stage = fromjson(R"({"$group": {"_id": "$k",
        "top": {"$topN": {"n": 2, "sortBy": {"x": -1}, "output": "$i"}},
        "bottom": {"$bottom": {"sortBy": {"x": -1}, "output": "$i"}},
        "firstN": {"$firstN": {"n": 3, "input": "$i"}},
        "lastN": {"$lastN": {"n": 3, "input": "$i"}},
        "minN": {"$minN": {"n": 2, "input": "$x"}},
        "maxN": {"$maxN": {"n": 2, "input": "$i"}},
        "median": {"$median": {"input": "$i", "method": "approximate"}}}})");
    auto inMemory = runGroup(stage, 100LL << 20, false);
    auto spilled = runGroup(stage, 20000, true);
    ASSERT_EQ(inMemory.size(), 300u);
    EXPECT_EQ(inMemory, spilled);
}

/** A $push without partial states (the default Accumulator::canSpill() is false). */
class NoSpillPush final : public Accumulator {
public:
    void process(const Value& v) override {
        _vals.push_back(v.getOwned());
    }
    Value getValue() const override {
        return Value(_vals);
    }
    void reset() override {
        _vals.clear();
    }

private:
    std::vector<Value> _vals;
};

TEST(GroupSpill, AccumulatorWithoutPartialStateFallsBackToSpillingDocuments) {
    registerAccumulator("$testNoSpillPush", [](ExpressionContext* expCtx, const BSONElement& arg,
                                               const VariablesParseState& vps) {
        return std::pair<ExprPtr, AccumulatorFactory>(
            Expression::parseOperand(expCtx, arg, vps),
            [] { return std::make_unique<NoSpillPush>(); });
    });
    BSONObj stage =
        fromjson(R"({"$group": {"_id": "$k", "p": {"$testNoSpillPush": "$i"}, "n": {"$sum": 1}}})");
    auto inMemory = runGroup(stage, 100LL << 20, false);
    auto spilled = runGroup(stage, 20000, true);
    ASSERT_EQ(inMemory.size(), 300u);
    EXPECT_EQ(inMemory, spilled);
}

TEST(GroupSpill, MixedKeyTypesMergeByCanonicalEquality) {
    // 1, 1.0 and NumberLong(1) are one group; arrays, objects, strings and null are keys too.
    std::vector<BSONObj> keys{BSON("k" << 1),
                              BSON("k" << 1.0),
                              BSON("k" << 1LL),
                              BSON("k"
                                   << "a"),
                              BSON("k" << BSON_ARRAY(1 << 2)),
                              BSON("k" << BSON_ARRAY(1 << 3)),
                              BSON("k" << BSON("x" << 1)),
                              BSON("j" << 0)};
    auto run = [&](long long maxMemoryBytes) {
        auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
        expCtx->maxMemoryBytes = maxMemoryBytes;
        expCtx->allowDiskUse = true;
        auto p = Pipeline::parse(
            {fromjson(R"({"$group": {"_id": "$k", "n": {"$sum": 1}, "f": {"$first": "$i"}}})"),
             fromjson(R"({"$sort": {"_id": 1}})")},
            expCtx);
        std::vector<BSONObj> docs;
        for (int i = 0; i < 800; ++i) {
            BSONObjBuilder b;
            b.appendElements(keys[i % keys.size()]);
            b.append("i", i);
            docs.push_back(b.obj());
        }
        p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, docs));
        std::string out;
        while (auto d = p->getNext())
            out += (*d)["n"].toString() + (*d)["f"].toString() + ";";
        return out;
    };
    std::string inMemory = run(100LL << 20);
    EXPECT_EQ(inMemory, run(600));
    EXPECT_EQ(inMemory, "n: 100f: 7;n: 300f: 0;n: 100f: 4;n: 100f: 5;n: 100f: 3;n: 100f: 6;");
}

TEST(BucketAutoGranularity, BoundariesFollowTheSeries) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    auto p = Pipeline::parse(
        {fromjson(R"({"$bucketAuto": {"groupBy": "$v", "buckets": 3, "granularity": "1-2-5"}})")},
        expCtx);
    std::vector<BSONObj> docs;
    for (int v : {1, 2, 3, 4, 7, 8, 12, 15, 30})
        docs.push_back(BSON("v" << v));
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, docs));
    std::string out;
    while (auto d = p->getNext())
        out += d->toString() + ";";
    EXPECT_EQ(out,
              "{ _id: { min: 0.5, max: 5.0 }, count: 4 };{ _id: { min: 5.0, max: 2e+01 }, count: "
              "4 };{ _id: { min: 2e+01, max: 5e+01 }, count: 1 };");
}

int bucketAutoCode(const char* spec, const BSONObj& doc) {
    auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "c"));
    try {
        auto p = Pipeline::parse({fromjson(spec)}, expCtx);
        p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, std::vector<BSONObj>{doc}));
        while (p->getNext()) {
        }
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(BucketAutoGranularity, RejectsBadSpecsAndKeys) {
    const char* r5 = R"({"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "R5"}})";
    EXPECT_EQ(
        bucketAutoCode(R"({"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": 5}})",
                       BSON("v" << 1)),
        40261);
    EXPECT_EQ(
        bucketAutoCode(R"({"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "R7"}})",
                       BSON("v" << 1)),
        40257);
    EXPECT_EQ(bucketAutoCode(r5, BSON("v"
                                      << "a")),
              40258);
    EXPECT_EQ(bucketAutoCode(r5, BSON("w" << 1)), 40258);
    EXPECT_EQ(bucketAutoCode(r5, BSON("v" << std::nan(""))), 40259);
    EXPECT_EQ(bucketAutoCode(r5, BSON("v" << -1)), 40260);
    EXPECT_EQ(bucketAutoCode(r5, BSON("v" << 3)), 0);
}

}  // namespace
}  // namespace mongo
