// ExactSum against a compensated (Kahan) double sum, over runs of 360 two-decimal doubles
// (one bucket's column of the shared benchmark's f2 data; values in [0, 100)):
//   BM_SumKahan:         the running compensated sum $sum/$avg used before ExactSum;
//   BM_SumExactEach:     ExactSum::addDouble() per value (the generic $group's path);
//   BM_SumExactRun:      ExactSum::addDoubleRun() (the block path over runs with missing rows);
//   BM_SumExactArray:    ExactSum::addDoubleArray() (the block path over runs with none).
// Each iteration sums 2,400 runs (one per bucket) and reads each sum as a double. The runs cycle
// through 16 distinct ones (46 KB, in cache), as the block path sums a column it has just
// decoded.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "mongo/util/exact_sum.h"

namespace mongo {
namespace {

constexpr int kRuns = 2400;
constexpr int kRun = 360;
constexpr int kDistinct = 16;

const std::vector<double>& values() {
    static const std::vector<double> v = [] {
        std::mt19937_64 rng(15);
        std::vector<double> out(kDistinct * kRun);
        for (auto& d : out)
            d = static_cast<double>(rng() % 10000) / 100;
        return out;
    }();
    return v;
}

void BM_SumKahan(benchmark::State& state) {
    const double* v = values().data();
    for (auto _ : state) {
        double total = 0;
        for (int r = 0; r < kRuns; ++r) {
            double sum = 0, comp = 0;
            for (int i = 0; i < kRun; ++i) {
                const double y = v[(r % kDistinct) * kRun + i] - comp;
                const double t = sum + y;
                comp = std::isfinite(t) ? (t - sum) - y : 0;
                sum = t;
            }
            total += sum;
        }
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * kRuns * kRun);
}
BENCHMARK(BM_SumKahan)->Unit(benchmark::kMillisecond);

void BM_SumExactEach(benchmark::State& state) {
    const double* v = values().data();
    for (auto _ : state) {
        double total = 0;
        for (int r = 0; r < kRuns; ++r) {
            ExactSum s;
            for (int i = 0; i < kRun; ++i)
                s.addDouble(v[(r % kDistinct) * kRun + i]);
            total += s.toDouble();
        }
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * kRuns * kRun);
}
BENCHMARK(BM_SumExactEach)->Unit(benchmark::kMillisecond);

void BM_SumExactRun(benchmark::State& state) {
    const double* v = values().data();
    for (auto _ : state) {
        double total = 0;
        for (int r = 0; r < kRuns; ++r) {
            ExactSum s;
            s.addDoubleRun(kRun, [&](auto&& add) {
                for (int i = 0; i < kRun; ++i)
                    add(v[(r % kDistinct) * kRun + i]);
            });
            total += s.toDouble();
        }
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * kRuns * kRun);
}
BENCHMARK(BM_SumExactRun)->Unit(benchmark::kMillisecond);

void BM_SumExactArray(benchmark::State& state) {
    const double* v = values().data();
    for (auto _ : state) {
        double total = 0;
        for (int r = 0; r < kRuns; ++r) {
            ExactSum s;
            if (!s.addDoubleArray(v + (r % kDistinct) * kRun, kRun))
                state.SkipWithError("the split refused a run");
            total += s.toDouble();
        }
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * kRuns * kRun);
}
BENCHMARK(BM_SumExactArray)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mongo

BENCHMARK_MAIN();
