// Q1 of the shared benchmark (/work/shared/bench/README.md: hourly average of usage_user
// per host over a day, 100 hosts x 8640 measurements at 10 s, 10 usage_* fields, 10 tags
// as the meta field) over in-memory v2 buckets, three ways:
//   BM_Q1PlainLoop:   a hand-written loop over the columns decoded with decodeScalars
//                     (BM_Q1PlainLoopKahan: with a compensated summation; $avg sums
//                     exactly, see util/exact_sum_bm.cpp);
//   BM_Q1Generic:     every measurement unpacked to a BSONObj, then the generic $group;
//   BM_Q1BlockPath:   the pipeline [$_internalUnpackBucket, $group], which takes the block
//                     path of group_over_buckets.h.
// The argument is the number of measurements per bucket: 360 is what the write path makes
// (granularity "seconds": one bucket per host per hour), 1000 the bucket count limit.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <unordered_map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"
#include "mongo/db/pipeline/bucket_unpacker.h"
#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/document_source_group.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/vector_source_bm.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/idl/server_parameters_gen.h"

namespace mongo {
namespace {

constexpr int kHosts = 100;
constexpr int kRows = 8640;                    // one day at 10 s
constexpr long long kStart = 1451606400000LL;  // 2016-01-01T00:00:00Z
constexpr const char* kFields[] = {
    "usage_user", "usage_system",  "usage_idle",  "usage_nice",  "usage_iowait",
    "usage_irq",  "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};

BSONObj tags(int host) {
    BSONObjBuilder b;
    b.append("arch", host % 2 ? "x64" : "x86");
    b.append("datacenter", "dc" + std::to_string(host % 7));
    b.append("hostname", "host_" + std::to_string(host));
    b.append("os", "Ubuntu16.04LTS");
    b.append("rack", std::to_string(host % 50));
    b.append("region", "region" + std::to_string(host % 3));
    b.append("service", std::to_string(host % 20));
    b.append("service_environment", host % 2 ? "production" : "staging");
    b.append("service_version", std::to_string(host % 2));
    b.append("team", "team" + std::to_string(host % 4));
    return b.obj();
}

/** v2 buckets of `perBucket` measurements: 2-decimal random walks clamped to 0..100. */
std::vector<BSONObj> makeBuckets(int perBucket) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> step(-1.0, 1.0);
    std::vector<BSONObj> out;
    for (int h = 0; h < kHosts; ++h) {
        BSONObj meta = tags(h);
        double walk[10];
        for (double& w : walk)
            w = 50;
        for (int first = 0; first < kRows; first += perBucket) {
            int n = std::min(perBucket, kRows - first);
            BSONColumnBuilder time, cols[10];
            for (int i = first; i < first + n; ++i) {
                BSONObjBuilder m;
                m.appendDate("time", Date_t::fromMillisSinceEpoch(kStart + i * 10000LL));
                for (int f = 0; f < 10; ++f) {
                    walk[f] = std::clamp(walk[f] + step(rng), 0.0, 100.0);
                    m.append(kFields[f], std::round(walk[f] * 100) / 100);
                }
                BSONObj doc = m.obj();
                time.append(doc["time"]);
                for (int f = 0; f < 10; ++f)
                    cols[f].append(doc[kFields[f]]);
            }
            // control.min/max of the time field as the write path stores them (the block
            // path reads them to find buckets that lie in one time bin).
            const Date_t lo = Date_t::fromMillisSinceEpoch(kStart + first * 10000LL);
            const Date_t hi = Date_t::fromMillisSinceEpoch(kStart + (first + n - 1) * 10000LL);
            BSONObjBuilder b;
            b.append("_id", OID::gen());
            b.append(timeseries::kBucketControlFieldName,
                     BSON(timeseries::kBucketControlVersionFieldName
                          << timeseries::kTimeseriesControlCompressedSortedVersion
                          << timeseries::kBucketControlMinFieldName << BSON("time" << lo)
                          << timeseries::kBucketControlMaxFieldName << BSON("time" << hi)
                          << timeseries::kBucketControlCountFieldName << n));
            b.append(timeseries::kBucketMetaFieldName, meta);
            BSONObjBuilder data(b.subobjStart(timeseries::kBucketDataFieldName));
            std::string bin = time.finalize();
            data.appendBinData("time", static_cast<int>(bin.size()), BinDataType::Column,
                               bin.data());
            for (int f = 0; f < 10; ++f) {
                bin = cols[f].finalize();
                data.appendBinData(kFields[f], static_cast<int>(bin.size()), BinDataType::Column,
                                   bin.data());
            }
            data.done();
            out.push_back(b.obj());
        }
    }
    return out;
}

const std::vector<BSONObj>& buckets(int perBucket) {
    static std::map<int, std::vector<BSONObj>> cache;
    auto it = cache.find(perBucket);
    if (it == cache.end())
        it = cache.emplace(perBucket, makeBuckets(perBucket)).first;
    return it->second;
}

/** Unpacks buckets into measurement documents (the generic path's input). */
class UnpackSource final : public DocumentSource {
public:
    UnpackSource(std::shared_ptr<ExpressionContext> expCtx, const std::vector<BSONObj>* buckets,
                 BucketSpec spec)
        : DocumentSource(std::move(expCtx)), _buckets(buckets), _unpacker(std::move(spec)) {}
    std::optional<BSONObj> getNext() override {
        while (!_unpacker.hasNext()) {
            if (_pos >= _buckets->size())
                return std::nullopt;
            _unpacker.reset((*_buckets)[_pos++]);
        }
        return _unpacker.getNext();
    }
    const char* getSourceName() const override {
        return "$unpack";
    }
    void serialize(BSONArrayBuilder*) const override {}

private:
    const std::vector<BSONObj>* _buckets;
    BucketUnpacker _unpacker;
    size_t _pos = 0;
};

const BSONObj& q1Group() {
    static const BSONObj g = BSON("_id" << BSON("host"
                                                << "$tags.hostname"
                                                << "hour"
                                                << BSON("$dateTrunc" << BSON("date"
                                                                             << "$time"
                                                                             << "unit"
                                                                             << "hour")))
                                        << "avg"
                                        << BSON("$avg"
                                                << "$usage_user"));
    return g;
}

void setCounters(benchmark::State& state, size_t groups) {
    state.counters["groups"] = static_cast<double>(groups);
    state.SetItemsProcessed(state.iterations() * kHosts * kRows);
}

/** The loop over decoded columns; `Sum` is a plain or a compensated (Kahan) sum. */
template <bool kKahan>
void plainLoop(benchmark::State& state) {
    const auto& input = buckets(static_cast<int>(state.range(0)));
    size_t groups = 0;
    for (auto _ : state) {
        std::unordered_map<std::string, int> hostIds;
        std::vector<double> sum(kHosts * 48, 0.0), comp(kHosts * 48, 0.0);
        std::vector<long long> count(kHosts * 48, 0);
        ScalarColumn time, user;
        for (const auto& b : input) {
            BSONObj data = b[timeseries::kBucketDataFieldName].Obj();
            if (!BSONColumn(data["time"]).decodeScalars(&time).isOK() ||
                !BSONColumn(data["usage_user"]).decodeScalars(&user).isOK())
                std::abort();
            int host = hostIds
                           .try_emplace(b[timeseries::kBucketMetaFieldName].Obj()["hostname"].str(),
                                        hostIds.size())
                           .first->second;
            const size_t n = std::min(time.size, user.size);
            for (size_t i = 0; i < n; ++i) {
                if (!user.isPresent(i))
                    continue;
                long long hour = floorDiv(time.ints[i] - kStart, 3600000);
                size_t slot = host * 48 + static_cast<size_t>(hour);
                if constexpr (kKahan) {
                    double y = user.doubles[i] - comp[slot];
                    double t = sum[slot] + y;
                    comp[slot] = (t - sum[slot]) - y;
                    sum[slot] = t;
                } else {
                    sum[slot] += user.doubles[i];
                }
                ++count[slot];
            }
        }
        groups = 0;
        for (size_t i = 0; i < sum.size(); ++i)
            if (count[i]) {
                sum[i] /= static_cast<double>(count[i]);
                ++groups;
            }
        benchmark::DoNotOptimize(sum.data());
    }
    setCounters(state, groups);
}

void BM_Q1PlainLoop(benchmark::State& state) {
    plainLoop<false>(state);
}
/** The same with a compensated (Kahan) summation. */
void BM_Q1PlainLoopKahan(benchmark::State& state) {
    plainLoop<true>(state);
}
BENCHMARK(BM_Q1PlainLoopKahan)->Arg(360)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Q1PlainLoop)->Arg(360)->Arg(1000)->Unit(benchmark::kMillisecond);

BucketSpec prunedSpec() {
    BucketSpec spec;
    spec.timeField = "time";
    spec.metaField = "tags";
    spec.behavior = BucketSpec::Behavior::kInclude;
    spec.fieldSet = {"time", "tags", "usage_user"};
    return spec;
}

void BM_Q1Generic(benchmark::State& state) {
    const auto& input = buckets(static_cast<int>(state.range(0)));
    size_t groups = 0;
    for (auto _ : state) {
        auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("bm", "ts"));
        UnpackSource source(expCtx, &input, prunedSpec());
        DocumentSourceGroup group(expCtx, q1Group());
        group.setSource(&source);
        groups = 0;
        while (auto d = group.getNext())
            ++groups;
    }
    setCounters(state, groups);
}
BENCHMARK(BM_Q1Generic)->Arg(360)->Arg(1000)->Unit(benchmark::kMillisecond);

// Args: measurements per bucket, threads of the block path (internalQueryBlockGroupThreads).
void BM_Q1BlockPath(benchmark::State& state) {
    const auto& input = buckets(static_cast<int>(state.range(0)));
    const int threadsBefore = gInternalQueryBlockGroupThreads.load();
    gInternalQueryBlockGroupThreads.store(static_cast<int>(state.range(1)));
    BSONObj unpack = BSON("$_internalUnpackBucket" << BSON("timeField"
                                                           << "time"
                                                           << "metaField"
                                                           << "tags"
                                                           << "bucketMaxSpanSeconds" << 3600));
    size_t groups = 0;
    for (auto _ : state) {
        auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("bm", "ts"));
        auto p = Pipeline::parse({unpack, BSON("$group" << q1Group())}, expCtx);
        p->optimize();
        p->attachSource(std::make_unique<VectorSource>(expCtx, &input));
        groups = 0;
        while (auto d = p->getNext())
            ++groups;
    }
    gInternalQueryBlockGroupThreads.store(threadsBefore);
    setCounters(state, groups);
}
BENCHMARK(BM_Q1BlockPath)
    ->Args({360, 1})
    ->Args({360, 2})
    ->Args({1000, 1})
    ->Args({1000, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace mongo

BENCHMARK_MAIN();
