// BSONColumn encode/decode throughput on 1,000-value columns of typical time-series data.
// Counters: items/s (values), bytes_per_value of the encoded column. BM_Encode includes taking
// each element out of its object (BSONObj::firstElement); BM_EncodeElements does not.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"

namespace mongo {
namespace {

constexpr int kValues = 1000;

std::vector<BSONObj> makeData(int kind) {
    std::mt19937_64 rng(42);
    std::vector<BSONObj> out;
    double walk = 100.0;
    for (int i = 0; i < kValues; ++i) {
        BSONObjBuilder b;
        switch (kind) {
            case 0:
                b.append("", (long long)(1000 + i));
                break;
            case 1:
            case 2: {
                const long long step = kind == 1 ? 1000 : 10000;
                b.append("", Date_t::fromMillisSinceEpoch(1700000000000LL + i * step +
                                                          int64_t(rng() % 3)));
                break;
            }
            case 3:
            case 4: {
                const double m = kind == 3 ? 10.0 : 100.0;
                walk += double(int64_t(rng() % 21) - 10) / m;
                b.append("", std::round(walk * m) / m);
                break;
            }
            case 5: {
                unsigned char o[12] = {0x65, 0x10, 0, 0, 1, 2, 3, 4, 5, 0, 0, 0};
                o[2] = uint8_t(i >> 8);
                o[3] = uint8_t(i);
                o[10] = uint8_t(i >> 8);
                o[11] = uint8_t(i);
                b.append("", OID(o));
                break;
            }
            case 6: {
                static const char* s[] = {"sensor-a", "sensor-b", "sensor-c", "idle"};
                b.append("", s[rng() % 4]);
                break;
            }
            default: {
                BSONObjBuilder sub(b.subobjStart(""));
                for (int f = 0; f < 10; ++f)
                    sub.append(std::string(1, char('a' + f)), int(i * f + int(rng() % 3)));
                sub.done();
            }
        }
        out.push_back(b.obj());
    }
    return out;
}

const char* kNames[] = {"Int64Counter", "Date1s",   "Date10s",  "Double1Dec",
                        "Double2Dec",   "ObjectId", "ShortStr", "Object10Fields"};
constexpr int kObjectCase = 7;

/** For the object case, also the rate of scalar leaves (10 per object) and bytes per leaf. */
void addLeafCounters(benchmark::State& state, size_t bytes) {
    if (state.range(0) != kObjectCase)
        return;
    state.counters["leaves_per_second"] =
        benchmark::Counter(double(state.iterations()) * kValues * 10, benchmark::Counter::kIsRate);
    state.counters["bytes_per_leaf"] = double(bytes) / (kValues * 10);
}

std::string encode(const std::vector<BSONObj>& data) {
    BSONColumnBuilder b;
    for (const auto& o : data)
        b.append(o.firstElement());
    return b.finalize();
}

void BM_Encode(benchmark::State& state) {
    const auto data = makeData(int(state.range(0)));
    size_t bytes = 0;
    for (auto _ : state) {
        std::string col = encode(data);
        bytes = col.size();
        benchmark::DoNotOptimize(col);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kValues);
    state.counters["bytes_per_value"] = double(bytes) / kValues;
    addLeafCounters(state, bytes);
    state.SetLabel(kNames[state.range(0)]);
}

// The encoder alone: the elements are taken out of their objects before timing (in the write
// path the caller already holds them from iterating the measurement).
void BM_EncodeElements(benchmark::State& state) {
    const auto data = makeData(int(state.range(0)));
    std::vector<BSONElement> elems;
    for (const auto& o : data)
        elems.push_back(o.firstElement());
    size_t bytes = 0;
    for (auto _ : state) {
        BSONColumnBuilder b;
        for (const auto& e : elems)
            b.append(e);
        std::string col = b.finalize();
        bytes = col.size();
        benchmark::DoNotOptimize(col);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kValues);
    state.counters["bytes_per_value"] = double(bytes) / kValues;
    addLeafCounters(state, bytes);
    state.SetLabel(kNames[state.range(0)]);
}

void BM_DecodeIterator(benchmark::State& state) {
    const std::string col = encode(makeData(int(state.range(0))));
    for (auto _ : state) {
        BSONColumn::Iterator it = BSONColumn(col.data(), col.size()).begin();
        int64_t n = 0;
        while (it.next())
            n += it.missing() ? 0 : it.value().size();
        benchmark::DoNotOptimize(n);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kValues);
    state.counters["bytes_per_value"] = double(col.size()) / kValues;
    addLeafCounters(state, col.size());
    state.SetLabel(kNames[state.range(0)]);
}

void BM_DecodeBlock(benchmark::State& state) {
    const std::string col = encode(makeData(int(state.range(0))));
    ScalarColumn out;
    for (auto _ : state) {
        Status s = BSONColumn(col.data(), col.size()).decodeScalars(&out);
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(out);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kValues);
    state.counters["bytes_per_value"] = double(col.size()) / kValues;
    addLeafCounters(state, col.size());
    state.SetLabel(kNames[state.range(0)]);
}

BENCHMARK(BM_Encode)->DenseRange(0, 7);
BENCHMARK(BM_EncodeElements)->DenseRange(0, 7);
BENCHMARK(BM_DecodeIterator)->DenseRange(0, 7);
BENCHMARK(BM_DecodeBlock)->DenseRange(0, 4);

}  // namespace
}  // namespace mongo

BENCHMARK_MAIN();
