// The block path of $group over buckets against the generic $group over the unpacked
// measurements, on randomized v1/v2 buckets: results must be byte-identical (same values,
// same types, same group order).
#include "mongo/db/pipeline/group_over_buckets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr long long kDay = 86400000LL;

/** Buckets with the shape of the write path: time "t", meta "m", fields a b c d s. */
class BucketGen {
public:
    explicit BucketGen(uint32_t seed) : _rng(seed) {}

    /** No bucket before 1970 (bucket _ids hold unsigned seconds: predicates on them differ). */
    void noPre1970() {
        _pre1970 = false;
    }
    /** Every measurement has "a" (the block $sum's runs with no missing value). */
    void denseA() {
        _denseA = true;
    }

    BSONObj meta(int series) {
        switch (series % 8) {
            case 0:
                return BSON("m" << BSON("host" << ("h" + std::to_string(series)) << "r" << 1));
            case 1:
                return BSON("m" << BSON("host" << ("h" + std::to_string(series % 3))));
            case 2:
                return BSON("m" << 1);
            case 3:
                return BSON("m" << 1LL);  // a different series, the same group key as 1
            case 5:                       // paths into the meta map over the array
                return BSON("m" << BSON_ARRAY(BSON("host"
                                                   << "h1")
                                              << BSON("host"
                                                      << "h2")));
            case 6:
                return BSON("m" << BSON("host" << BSON("x" << BSON_ARRAY(1 << 2)) << "r" << 2));
            case 7:
                return BSON("m" << BSON("r" << BSONNULL));  // no host
            default:
                return BSONObj();  // no meta
        }
    }

    std::vector<BSONObj> measurements(size_t n) {
        std::vector<BSONObj> out;
        long long t0 =
            _pre1970 && pick(4) == 0 ? -3 * kDay + pick(kDay) : 1700000000000LL + pick(kDay);
        int shape = pick(6);  // what kinds of values this bucket's columns get
        for (size_t i = 0; i < n; ++i) {
            BSONObjBuilder b;
            b.appendDate("t", Date_t::fromMillisSinceEpoch(t0 + pick(3600 * 1000 * 3)));
            if (_denseA || pick(8) != 0) {
                if (shape == 1 && pick(20) == 0)
                    b.append("a", std::nan(""));
                else if (shape == 2 && pick(10) == 0)
                    b.append("a", pick(2) ? -0.0 : 0.0);
                else if (shape == 3 && pick(10) == 0)
                    b.append("a", static_cast<int>(pick(5)));  // mixed kinds: generic path
                else
                    b.append("a", static_cast<double>(pick(400)) / 4.0);
            }
            if (pick(6) != 0) {
                if (shape == 4 && pick(5) == 0)
                    b.append("b", static_cast<long long>(pick(100)));  // int32 + int64
                else
                    b.append("b", static_cast<int>(pick(2000)) - 1000);
            }
            if (pick(3) != 0)
                b.append("c",
                         (shape == 5 ? (1LL << 62) : 0LL) + static_cast<long long>(pick(1000)));
            if (pick(2) != 0) {
                if (shape == 0 && pick(10) == 0)
                    b.append("d", Decimal128::fromDouble(1.5));
                else
                    b.append("d", static_cast<double>(pick(100)));
            }
            if (shape == 3 && pick(4) == 0)
                b.append("s", "x" + std::to_string(pick(10)));
            out.push_back(b.obj());
        }
        std::sort(out.begin(), out.end(),
                  [](const BSONObj& l, const BSONObj& r) { return l["t"].date() < r["t"].date(); });
        return out;
    }

    /** v2 (compressed, sorted) or v1 (objects keyed "0", "1"...) bucket of `ms`. */
    static BSONObj bucket(const BSONObj& meta, const std::vector<BSONObj>& ms, bool v1) {
        std::vector<std::string> names;
        for (const auto& m : ms)
            for (auto e : m)
                if (std::find(names.begin(), names.end(), e.fieldName()) == names.end())
                    names.push_back(e.fieldName());
        long long minT = std::numeric_limits<long long>::max();
        for (const auto& m : ms)
            minT = std::min(minT, m["t"].date().toMillisSinceEpoch());
        OID id = OID::gen();
        id.initFromTimestampSeconds(static_cast<uint32_t>(floorDiv(minT, 1000)));
        BSONObjBuilder b;
        b.append("_id", id);
        BSONObjBuilder control(b.subobjStart("control"));
        control.append("version", v1 ? 1 : 2);
        for (bool isMax : {false, true}) {  // per field, canonical order (scalars only here)
            BSONObjBuilder mm(control.subobjStart(isMax ? "max" : "min"));
            for (const auto& name : names) {
                BSONElement best;
                for (const auto& m : ms) {
                    BSONElement e = m[name];
                    if (e.eoo())
                        continue;
                    int c = best.eoo() ? 0 : compareElementValues(e, best);
                    if (best.eoo() || (isMax ? c > 0 : c < 0))
                        best = e;
                }
                if (!best.eoo())
                    mm.appendAs(best, name);
            }
            mm.done();
        }
        control.append("count", static_cast<int>(ms.size()));
        control.done();
        if (!meta.isEmpty())
            b.appendAs(meta.firstElement(), "meta");
        BSONObjBuilder data(b.subobjStart("data"));
        for (const auto& name : names) {
            if (v1) {
                BSONObjBuilder col(data.subobjStart(name));
                for (size_t i = 0; i < ms.size(); ++i)
                    if (ms[i].hasField(name))
                        col.appendAs(ms[i][name], std::to_string(i));
                col.done();
                continue;
            }
            BSONColumnBuilder col;
            for (const auto& m : ms)
                m.hasField(name) ? col.append(m[name]) : col.skip();
            std::string bin = col.finalize();
            data.appendBinData(name, static_cast<int>(bin.size()), BinDataType::Column, bin.data());
        }
        data.done();
        return b.obj();
    }

    std::vector<BSONObj> buckets(size_t count) {
        std::vector<BSONObj> out;
        for (size_t i = 0; i < count; ++i) {
            int series = pick(9);
            out.push_back(bucket(meta(series), measurements(1 + pick(300)), pick(6) == 0));
        }
        return out;
    }

    long long pick(long long n) {
        return std::uniform_int_distribution<long long>(0, n - 1)(_rng);
    }

private:
    std::mt19937 _rng;
    bool _pre1970 = true;
    bool _denseA = false;
};

BucketSpec tsSpec() {
    BucketSpec spec;
    spec.timeField = "t";
    spec.metaField = "m";
    return spec;
}

/** Readable text plus the exact bytes (types, -0.0 and NaN bits included). */
std::string render(const BSONObj& doc) {
    static const char* kHex = "0123456789abcdef";
    std::string out = doc.toString() + "#";
    for (int i = 0; i < doc.objsize(); ++i) {
        unsigned char c = static_cast<unsigned char>(doc.objdata()[i]);
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
    return out + ";\n";
}

std::shared_ptr<ExpressionContext> makeExpCtx() {
    return std::make_shared<ExpressionContext>(nullptr, NamespaceString("test", "ts"));
}

/** The generic $group over the unpacked measurements, as "doc;doc;..." with exact bytes. */
std::string genericGroup(const BSONObj& groupSpec, const std::vector<BSONObj>& buckets) {
    std::vector<BSONObj> docs;
    BucketUnpacker u(tsSpec());
    for (const auto& b : buckets) {
        u.reset(b);
        while (u.hasNext())
            docs.push_back(u.getNext());
    }
    auto expCtx = makeExpCtx();
    DocumentSourceQueue queue(expCtx, docs);
    DocumentSourceGroup group(expCtx, groupSpec);
    group.setSource(&queue);
    std::string out;
    while (auto d = group.getNext())
        out += render(*d);
    return out;
}

/**
 * The block path over the same buckets; also reports how many buckets took which path.
 * `parallelAfter` >= 0: through processBuckets(), the helper thread starting after that many
 * buckets (`helper`: how many it folded); else bucket by bucket on this thread.
 */
std::string blockGroup(const BSONObj& groupSpec, const std::vector<BSONObj>& buckets,
                       long long* block = nullptr, long long* fallback = nullptr,
                       long long parallelAfter = -1, long long* helper = nullptr,
                       long long* controlBounds = nullptr) {
    auto expCtx = makeExpCtx();
    auto g = GroupOverBuckets::make(expCtx, groupSpec, tsSpec());
    if (!g)
        return "<not eligible>";
    if (parallelAfter >= 0) {
        size_t next = 0;
        g->processBuckets(
            [&]() -> std::optional<BSONObj> {
                if (next == buckets.size())
                    return std::nullopt;
                return buckets[next++];
            },
            parallelAfter);
    } else {
        BucketUnpacker u(tsSpec());
        for (const auto& b : buckets) {
            u.reset(b);
            g->processBucket(&u);
        }
    }
    if (block)
        *block = g->blockBuckets();
    if (fallback)
        *fallback = g->fallbackBuckets();
    if (helper)
        *helper = g->helperBuckets();
    if (controlBounds)
        *controlBounds = g->controlBounds();
    std::string out;
    std::vector<std::string> names;
    for (auto e : groupSpec)
        if (e.fieldNameStringData() != "_id")
            names.push_back(e.fieldName());
    for (auto& grp : g->releaseGroups()) {
        BSONObjBuilder b;
        grp.key.addToBsonObj(&b, "_id");
        for (size_t i = 0; i < names.size(); ++i)
            grp.accs[i]->getValue().addToBsonObj(&b, names[i]);
        out += render(b.obj());
    }
    return out;
}

const char* kEligibleSpecs[] = {
    R"({"_id": {"host": "$m.host", "hour": {"$dateTrunc": {"date": "$t", "unit": "hour"}}},
        "avg": {"$avg": "$a"}})",
    R"({"_id": "$m.host", "s": {"$sum": "$b"}, "mn": {"$min": "$a"}, "mx": {"$max": "$c"},
        "n": {"$count": {}}, "one": {"$sum": 1}})",
    R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "minute", "binSize": 7}},
        "s": {"$sum": "$c"}, "a": {"$avg": "$b"}, "mx": {"$max": "$t"}, "mn": {"$min": "$b"}})",
    R"({"_id": null, "s": {"$sum": "$d"}, "m": {"$min": "$d"}, "x": {"$max": "$s"},
        "sa": {"$sum": "$a"}, "ma": {"$max": "$a"}})",
    R"({"_id": {"d": {"$dateTrunc": {"date": "$t", "unit": "day", "binSize": 2,
                                      "timezone": "UTC"}}, "m": "$m"},
        "s": {"$sum": 2.5}, "a": {"$avg": "$a"}, "l": {"$sum": {"$numberLong": "3"}}})",
    R"({"_id": ["$m", {"$dateTrunc": {"date": "$t", "unit": "second", "binSize": 90}}, 5],
        "n": {"$count": {}}, "q": {"$avg": "$nope"}, "r": {"$min": "$nope"}})",
    R"({"_id": "$t", "n": {"$count": {}}})",
    R"({"_id": {"k": {"$literal": "$x"}, "c": "const", "n": {"h": "$m.host", "x": "$m.host.x",
                "r": "$m.r", "e": {}}, "z": 1},
        "n": {"$count": {}}})",
    R"({"_id": "$m.host.x", "s": {"$sum": "$b"}})",
    R"({"_id": "$m.host", "t": {"$top": {"sortBy": {"t": -1}, "output": ["$a", "$b", "$t"]}},
        "bo": {"$bottom": {"sortBy": {"t": 1}, "output": "$c"}}})",
    R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "hour"}},
        "f": {"$top": {"sortBy": {"t": 1}, "output": "$d"}},
        "l": {"$bottom": {"sortBy": {"t": -1}, "output": ["$nope", "$a"]}}})",
};

TEST(GroupOverBuckets, MatchesGenericGroupOnRandomBuckets) {
    for (uint32_t seed = 1; seed <= 12; ++seed) {
        BucketGen gen(seed);
        auto buckets = gen.buckets(40);
        for (const char* specJson : kEligibleSpecs) {
            BSONObj spec = fromjson(specJson);
            long long block = 0, fallback = 0;
            std::string fast = blockGroup(spec, buckets, &block, &fallback);
            ASSERT_EQ(fast, genericGroup(spec, buckets)) << "seed " << seed << " spec " << specJson;
            EXPECT_GT(block, 0) << specJson;
        }
    }
}

TEST(GroupOverBuckets, DenseDoubleColumnsGiveTheGenericSums) {
    // Runs of "a" with no missing row go through ExactSum::addDoubleArray(): the same bits.
    for (uint32_t seed = 1; seed <= 12; ++seed) {
        BucketGen gen(seed);
        gen.denseA();
        auto buckets = gen.buckets(40);
        for (const char* specJson : kEligibleSpecs) {
            BSONObj spec = fromjson(specJson);
            ASSERT_EQ(blockGroup(spec, buckets), genericGroup(spec, buckets))
                << "seed " << seed << " spec " << specJson;
        }
    }
}

TEST(GroupOverBuckets, TwoThreadsGiveTheResultOfOne) {
    // The helper thread takes the buckets of part of the series; at a bucket it cannot fold
    // (v1, mixed types, a meta path through an array) the owner carries on. Same bytes, same
    // group order as the generic $group.
    long long helped = 0;
    for (uint32_t seed = 1; seed <= 12; ++seed) {
        BucketGen gen(seed);
        auto buckets = gen.buckets(60);
        for (const char* specJson : kEligibleSpecs) {
            BSONObj spec = fromjson(specJson);
            const std::string expected = genericGroup(spec, buckets);
            for (long long after : {0LL, 5LL, 1000LL}) {
                long long block = 0, fallback = 0, helper = 0;
                std::string fast = blockGroup(spec, buckets, &block, &fallback, after, &helper);
                ASSERT_EQ(fast, expected)
                    << "seed " << seed << " after " << after << " spec " << specJson;
                EXPECT_EQ(block + fallback, static_cast<long long>(buckets.size())) << specJson;
                if (after == 1000) {
                    EXPECT_EQ(helper, 0) << specJson;
                }
                helped += helper;
            }
        }
    }
    EXPECT_GT(helped, 0);
}

TEST(GroupOverBuckets, MinMaxOfWholeBucketsComeFromControl) {
    // A bucket whose rows all go to one group answers $min/$max of a number or date field from
    // control.min/max; the results (values, types, ties) are the generic $group's, on one
    // thread and on two.
    const char* specs[] = {
        R"({"_id": "$m.host", "mn": {"$min": "$a"}, "mx": {"$max": "$a"}, "b": {"$max": "$b"},
            "c": {"$min": "$c"}, "d": {"$max": "$d"}, "s": {"$max": "$s"}})",
        R"({"_id": null, "mn": {"$min": "$b"}, "mx": {"$max": "$c"}, "t": {"$max": "$t"},
            "n": {"$min": "$nope"}})",
        R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "day"}}, "mx": {"$max": "$a"},
            "mn": {"$min": "$c"}, "avg": {"$avg": "$b"}})",
    };
    long long fromControl = 0;
    for (uint32_t seed = 1; seed <= 12; ++seed) {
        BucketGen gen(seed);
        auto buckets = gen.buckets(60);
        for (const char* specJson : specs) {
            BSONObj spec = fromjson(specJson);
            const std::string expected = genericGroup(spec, buckets);
            for (long long after : {-1LL, 0LL}) {
                long long bounds = 0;
                ASSERT_EQ(blockGroup(spec, buckets, nullptr, nullptr, after, nullptr, &bounds),
                          expected)
                    << "seed " << seed << " after " << after << " spec " << specJson;
                fromControl += bounds;
            }
        }
    }
    EXPECT_GT(fromControl, 0);

    // The bound is control's: a bucket whose control says more than its rows answers with it
    // (the write path keeps control exact; this only shows which one is read).
    BucketGen gen(5);
    BSONObj b = BucketGen::bucket(BSON("m" << 1), gen.measurements(30), false);
    BSONObjBuilder lie;
    for (auto e : b) {
        if (e.fieldNameStringData() != "control") {
            lie.append(e);
            continue;
        }
        BSONObjBuilder c(lie.subobjStart("control"));
        for (auto f : e.Obj()) {
            if (f.fieldNameStringData() == "max") {
                BSONObjBuilder mx(c.subobjStart("max"));
                for (auto g : f.Obj())
                    if (g.fieldNameStringData() == "c")
                        mx.append("c", 123456789LL);
                    else
                        mx.append(g);
            } else {
                c.append(f);
            }
        }
    }
    long long bounds = 0;
    EXPECT_EQ(blockGroup(fromjson(R"({"_id": null, "mx": {"$max": "$c"}})"), {lie.obj()}, nullptr,
                         nullptr, -1, nullptr, &bounds),
              render(BSON("_id" << BSONNULL << "mx" << 123456789LL)));
    EXPECT_EQ(bounds, 1);
}

TEST(GroupOverBuckets, HelperThreadErrorsReachTheCaller) {
    // 292 raised while the helper folds is thrown by processBuckets(), and both threads'
    // groups count against the one limit.
    BucketGen gen(3);
    std::vector<BSONObj> buckets;
    for (int i = 0; i < 400; ++i)
        buckets.push_back(BucketGen::bucket(BSON("m" << BSON("host" << ("h" + std::to_string(i)))),
                                            gen.measurements(5), false));
    auto expCtx = makeExpCtx();
    expCtx->maxMemoryBytes = 20000;
    auto g = GroupOverBuckets::make(
        expCtx, fromjson(R"({"_id": {"h": "$m.host", "t": "$t"}, "n": {"$count": {}}})"), tsSpec());
    ASSERT_TRUE(g);
    size_t next = 0;
    try {
        g->processBuckets(
            [&]() -> std::optional<BSONObj> {
                if (next == buckets.size())
                    return std::nullopt;
                return buckets[next++];
            },
            0);
        FAIL() << "no memory error";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed);
    }
    EXPECT_LT(next, buckets.size());
}

TEST(GroupOverBuckets, MixedOrV1BucketsTakeThePerMeasurementPath) {
    BucketGen gen(7);
    std::vector<BSONObj> buckets;
    auto ms = gen.measurements(50);
    buckets.push_back(BucketGen::bucket(gen.meta(0), ms, /*v1*/ true));
    buckets.push_back(BucketGen::bucket(gen.meta(0), ms, /*v1*/ false));
    BSONObj spec = fromjson(R"({"_id": "$m.host", "s": {"$sum": "$a"}})");
    long long block = 0, fallback = 0;
    std::string fast = blockGroup(spec, buckets, &block, &fallback);
    EXPECT_EQ(fast, genericGroup(spec, buckets));
    EXPECT_EQ(block, 1);
    EXPECT_EQ(fallback, 1);
}

TEST(GroupOverBuckets, IneligibleSpecsAreRefused) {
    const char* specs[] = {
        R"({"_id": "$a", "n": {"$sum": 1}})",
        R"({"_id": null, "p": {"$push": "$a"}})",
        R"({"_id": null, "s": {"$sum": {"$multiply": ["$a", 2]}}})",
        R"({"_id": null, "s": {"$sum": "$x.y"}})",
        R"({"_id": null, "s": {"$sum": "$m"}})",
        R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "month"}}, "n": {"$count": {}}})",
        R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "hour", "timezone": "Europe/Paris"}}})",
        R"({"_id": {"$dateTrunc": {"date": "$t", "unit": "hour", "binSize": "$b"}}})",
        R"({"_id": {"$add": ["$m", 1]}})",
        R"({"_id": "$$ROOT"})",
        R"({"_id": {"a": {"$dateTrunc": {"date": "$t", "unit": "hour"}},
                    "b": {"$dateTrunc": {"date": "$t", "unit": "day"}}}})",
    };
    for (const char* s : specs)
        EXPECT_EQ(GroupOverBuckets::make(makeExpCtx(), fromjson(s), tsSpec()), nullptr) << s;
}

/** `stages` over the buckets through $_internalUnpackBucket, or over the measurements. */
std::string runPipeline(const std::vector<BSONObj>& buckets, const std::vector<BSONObj>& stages,
                        bool viaUnpack) {
    auto expCtx = makeExpCtx();
    std::vector<BSONObj> all;
    std::vector<BSONObj> input = buckets;
    if (viaUnpack) {
        all.push_back(fromjson(R"({"$_internalUnpackBucket": {"timeField": "t",
            "metaField": "m", "bucketMaxSpanSeconds": 86400}})"));
    } else {
        input.clear();
        BucketUnpacker u(tsSpec());
        for (const auto& b : buckets) {
            u.reset(b);
            while (u.hasNext())
                input.push_back(u.getNext());
        }
    }
    all.insert(all.end(), stages.begin(), stages.end());
    auto p = Pipeline::parse(all, expCtx);
    p->optimize();
    p->attachSource(std::make_unique<DocumentSourceQueue>(expCtx, input));
    std::string out;
    while (auto d = p->getNext())
        out += render(*d);
    return out;
}

TEST(GroupOverBuckets, PipelineHookGivesTheGenericResult) {
    BucketGen gen(3);
    auto buckets = gen.buckets(30);
    for (const char* group : kEligibleSpecs) {
        std::vector<BSONObj> stages = {BSON("$group" << fromjson(group))};
        EXPECT_EQ(runPipeline(buckets, stages, true), runPipeline(buckets, stages, false)) << group;
    }
}

TEST(GroupOverBuckets, EventFilterKeepsWholeBucketsOnTheBlockPathAndFiltersTheRest) {
    BucketGen gen(9);
    gen.noPre1970();
    auto buckets = gen.buckets(30);
    const char* matches[] = {
        R"({"$match": {"t": {"$gte": {"$date": "2023-11-15T00:00:00Z"}}}})",
        R"({"$match": {"m.host": "h1", "t": {"$lt": {"$date": "2023-11-15T06:00:00Z"}}}})",
        R"({"$match": {"a": {"$gt": 50}}})",
        // Time-only filters: buckets cut by the range keep the block path for their rows.
        R"({"$match": {"t": {"$gt": {"$date": "2023-11-15T03:17:00Z"},
                             "$lte": {"$date": "2023-11-15T12:41:30Z"}}}})",
        R"({"$match": {"$and": [{"t": {"$gte": {"$date": "2023-11-15T09:00:00Z"}}},
                                {"t": {"$lt": {"$date": "2023-11-15T09:45:00Z"}}},
                                {"t": {"$lt": {"$date": "2023-11-16T00:00:00Z"}}}]}})",
        R"({"$match": {"t": {"$gt": {"$date": "2023-11-15T00:00:00Z"}}, "m.host": "h2"}})",
    };
    for (const char* match : matches) {
        for (const char* group : kEligibleSpecs) {
            std::vector<BSONObj> stages = {fromjson(match), BSON("$group" << fromjson(group))};
            EXPECT_EQ(runPipeline(buckets, stages, true), runPipeline(buckets, stages, false))
                << match << " " << group;
        }
    }
}

TEST(GroupOverBuckets, TopAndBottomOnTimeKeepTheFirstOfEqualTimes) {
    // Equal times in a bucket and across buckets: the generic accumulators keep the first
    // seen of equal sort keys; the block path must pick the same rows.
    BucketGen gen(5);
    std::vector<BSONObj> buckets;
    for (int b = 0; b < 3; ++b) {
        std::vector<BSONObj> ms;
        for (int i = 0; i < 12; ++i)
            ms.push_back(BSON("t" << Date_t::fromMillisSinceEpoch(1700000000000LL + (i / 4) * 1000)
                                  << "a" << double(b * 100 + i) << "b" << i));
        buckets.push_back(BucketGen::bucket(gen.meta(0), ms, false));
    }
    for (const char* spec :
         {R"({"_id": null, "x": {"$top": {"sortBy": {"t": -1}, "output": ["$a", "$b"]}}})",
          R"({"_id": null, "x": {"$top": {"sortBy": {"t": 1}, "output": "$a"}}})",
          R"({"_id": null, "x": {"$bottom": {"sortBy": {"t": 1}, "output": "$a"}}})",
          R"({"_id": null, "x": {"$bottom": {"sortBy": {"t": -1}, "output": "$a"}}})"}) {
        long long block = 0;
        EXPECT_EQ(blockGroup(fromjson(spec), buckets, &block),
                  genericGroup(fromjson(spec), buckets))
            << spec;
        EXPECT_EQ(block, 3) << spec;
    }
}

// The unpack stage's row prefilter (bucket_row_filter.h) over the same random buckets: NaN,
// ±0, mixed int32/int64/double, int64 near 2^62, decimals, missing values and dates.
TEST(GroupOverBuckets, UnpackRowPrefilterKeepsWhatTheEventFilterKeeps) {
    for (uint32_t seed : {2u, 9u, 21u}) {
        BucketGen gen(seed);
        gen.noPre1970();
        auto buckets = gen.buckets(30);
        const char* matches[] = {
            R"({"$match": {"a": {"$gt": 50}}})",
            R"({"$match": {"a": {"$lte": 0}}})",
            R"({"$match": {"a": {"$lt": 10.5}, "b": {"$gte": -200}}})",
            R"({"$match": {"b": {"$eq": 7}}})",
            R"({"$match": {"c": {"$gt": 500}, "d": {"$lt": 30}}})",
            R"({"$match": {"c": {"$gte": {"$numberLong": "4611686018427388000"}}}})",
            R"({"$match": {"d": {"$gte": 1.5}, "a": {"$exists": true}}})",
            R"({"$match": {"t": {"$gt": {"$date": "2023-11-15T03:17:00Z"}}, "a": {"$lt": 60}}})",
            R"({"$match": {"a": {"$gt": {"$date": "2023-11-15T03:17:00Z"}}}})",
            R"({"$match": {"t": {"$gt": 5}}})",
            R"({"$match": {"$or": [{"a": {"$gt": 90}}, {"b": {"$lt": -900}}]}})",
            R"({"$match": {"s": {"$gt": 3}}})",
        };
        for (const char* match : matches) {
            std::vector<BSONObj> stages = {fromjson(match)};
            EXPECT_EQ(runPipeline(buckets, stages, true), runPipeline(buckets, stages, false))
                << "seed " << seed << " " << match;
        }
    }
}

TEST(GroupOverBuckets, TooManyGroupsWithoutAllowDiskUseFails) {
    BucketGen gen(5);
    auto buckets = gen.buckets(10);
    auto expCtx = makeExpCtx();
    expCtx->maxMemoryBytes = 2000;
    auto g = GroupOverBuckets::make(expCtx, fromjson(R"({"_id": "$t"})"), tsSpec());
    ASSERT_NE(g, nullptr);
    BucketUnpacker u(tsSpec());
    try {
        for (const auto& b : buckets) {
            u.reset(b);
            g->processBucket(&u);
        }
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::QueryExceededMemoryLimitNoDiskUseAllowed);
    }
}

}  // namespace
}  // namespace mongo
