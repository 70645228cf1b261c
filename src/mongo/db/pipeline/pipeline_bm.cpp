// The time-series downsampling shape ($match on a time range, $group by $dateTrunc
// to the hour with $avg/$max) over 1,000,000 in-memory documents, against the same
// computation written as a plain C++ loop over the BSON: the ratio is what the
// pipeline machinery costs.
#include <benchmark/benchmark.h>

#include <unordered_map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/vector_source_bm.h"

namespace mongo {
namespace {

constexpr long long kDocs = 1'000'000;
constexpr long long kStart = 1'600'000'000'000LL;  // 2020-09-13

const std::vector<BSONObj>& docs() {
    static const std::vector<BSONObj> d = [] {
        std::vector<BSONObj> out;
        out.reserve(kDocs);
        for (long long i = 0; i < kDocs; ++i) {
            BSONObjBuilder b;
            b.append("_id", i);
            b.append("t", Date_t::fromMillisSinceEpoch(kStart + i * 1000));
            b.append("meta", BSON("sensor" << static_cast<int>(i % 10)));
            b.append("v", static_cast<double>(i % 1000) / 10.0);
            out.push_back(b.obj());
        }
        return out;
    }();
    return d;
}

// The whole range except the first and last hour.
const long long kLo = kStart + 3600 * 1000;
const long long kHi = kStart + (kDocs - 3600) * 1000;

void BM_PipelineDownsample(benchmark::State& state) {
    const auto& input = docs();
    BSONObj match =
        BSON("$match" << BSON("t" << BSON("$gte" << Date_t::fromMillisSinceEpoch(kLo) << "$lt"
                                                 << Date_t::fromMillisSinceEpoch(kHi))));
    BSONObj group = BSON("$group" << BSON("_id" << BSON("$dateTrunc" << BSON("date"
                                                                             << "$t"
                                                                             << "unit"
                                                                             << "hour"))
                                                << "avg"
                                                << BSON("$avg"
                                                        << "$v")
                                                << "max"
                                                << BSON("$max"
                                                        << "$v")));
    size_t groups = 0;
    for (auto _ : state) {
        auto expCtx = std::make_shared<ExpressionContext>(nullptr, NamespaceString("bm", "c"));
        auto p = Pipeline::parse({match, group}, expCtx);
        p->optimize();
        p->attachSource(std::make_unique<VectorSource>(expCtx, &input));
        groups = 0;
        while (auto d = p->getNext())
            ++groups;
        benchmark::DoNotOptimize(groups);
    }
    state.counters["groups"] = static_cast<double>(groups);
    state.SetItemsProcessed(state.iterations() * kDocs);
}
BENCHMARK(BM_PipelineDownsample)->Unit(benchmark::kMillisecond);

void BM_PlainScanDownsample(benchmark::State& state) {
    const auto& input = docs();
    struct Acc {
        double sum = 0;
        long long n = 0;
        double max = -1e300;
    };
    size_t groups = 0;
    for (auto _ : state) {
        std::unordered_map<long long, Acc> byHour;
        for (const auto& d : input) {
            BSONElement t = d.getField("t");
            long long ms = t.date().toMillisSinceEpoch();
            if (ms < kLo || ms >= kHi)
                continue;
            double v = d.getField("v").numberDouble();
            long long hour = ms - ((ms % 3600000) + 3600000) % 3600000;
            Acc& a = byHour[hour];
            a.sum += v;
            ++a.n;
            a.max = std::max(a.max, v);
        }
        groups = byHour.size();
        benchmark::DoNotOptimize(byHour);
    }
    state.counters["groups"] = static_cast<double>(groups);
    state.SetItemsProcessed(state.iterations() * kDocs);
}
BENCHMARK(BM_PlainScanDownsample)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mongo

BENCHMARK_MAIN();
