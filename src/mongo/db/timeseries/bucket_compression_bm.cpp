// The write path's per-measurement column work on the shared benchmark's shape
// (/work/shared/bench/README.md: {_id: ObjectId, time, tags: {10 strings}, 10 usage_* doubles}),
// one bucket of 360 measurements at a time (one host-hour at 10 s) in commits of 10, as a
// loader sending batches of 1,000 rows of 100 hosts makes them:
//   BM_ColumnSetAppend:    ColumnSet::append with control.min/max (MinMax) kept, the work
//                          prepareBucketWrite does for each commit;
//   BM_IterateMeasurement: one pass over every element of every measurement (names and
//                          sizes), the unit every per-measurement pass of the write path pays.
// The argument is the precision: 0 integers, 2 two-decimal values. Items are measurements.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/oid.h"
#include "mongo/db/timeseries/bucket_catalog/flat_bson.h"
#include "mongo/db/timeseries/bucket_compression.h"

namespace mongo {
namespace {

constexpr int kPerBucket = 360;
constexpr int kPerCommit = 10;
constexpr long long kStart = 1451606400000LL;  // 2016-01-01T00:00:00Z
constexpr const char* kFields[] = {
    "usage_user", "usage_system",  "usage_idle",  "usage_nice",  "usage_iowait",
    "usage_irq",  "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"};
constexpr const char* kTagKeys[] = {
    "hostname", "region",          "datacenter",         "rack", "os", "arch", "team",
    "service",  "service_version", "service_environment"};

/** One host-hour of measurements, fields in the loader's order; random walks in 0..100. */
std::vector<BSONObj> makeMeasurements(int decimals) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> step(-3, 3);
    const double unit = decimals == 0 ? 1.0 : 0.01;
    int walk[10];
    for (int& w : walk)
        w = decimals == 0 ? 50 : 5000;
    const int top = decimals == 0 ? 100 : 10000;
    std::vector<BSONObj> out;
    for (int i = 0; i < kPerBucket; ++i) {
        BSONObjBuilder b;
        b.append("_id", OID::gen());
        b.appendDate("time", Date_t::fromMillisSinceEpoch(kStart + i * 10000LL));
        {
            BSONObjBuilder t(b.subobjStart("tags"));
            for (const char* k : kTagKeys)
                t.append(k, std::string(k) + "_7");
        }
        for (int f = 0; f < 10; ++f) {
            walk[f] = std::min(top, std::max(0, walk[f] + step(rng)));
            b.append(kFields[f], walk[f] * unit);
        }
        out.push_back(b.obj());
    }
    return out;
}

void BM_ColumnSetAppend(benchmark::State& state) {
    const auto ms = makeMeasurements(static_cast<int>(state.range(0)));
    std::vector<std::vector<BSONObj>> commits;
    for (int i = 0; i < kPerBucket; i += kPerCommit)
        commits.emplace_back(ms.begin() + i, ms.begin() + i + kPerCommit);
    const std::optional<std::string> meta{"tags"};
    for (auto _ : state) {
        timeseries::ColumnSet set;
        timeseries::bucket_catalog::MinMax minmax;
        for (const auto& c : commits)
            benchmark::DoNotOptimize(set.append(c, meta, &minmax));
        benchmark::DoNotOptimize(set.positions);
    }
    state.SetItemsProcessed(state.iterations() * kPerBucket);
}
BENCHMARK(BM_ColumnSetAppend)->Arg(0)->Arg(2);

void BM_IterateMeasurement(benchmark::State& state) {
    const auto ms = makeMeasurements(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        size_t total = 0;
        for (const BSONObj& m : ms)
            for (auto&& e : m)
                total += e.fieldNameStringData().size() + e.size();
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * kPerBucket);
}
BENCHMARK(BM_IterateMeasurement)->Arg(0);

}  // namespace
}  // namespace mongo

BENCHMARK_MAIN();
