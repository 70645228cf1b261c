#include "mongo/db/stats/operation_latency_histogram.h"

#include <bit>

namespace mongo {

namespace {
constexpr int kFirstSplitPower = 11;  // [2^11, 2^21) is cut in halves
constexpr int kLastSplitPower = 21;
}  // namespace

int OperationLatencyHistogram::bucketFor(uint64_t micros) {
    if (micros == 0)
        return 0;
    const int power = 63 - std::countl_zero(micros);
    if (power < kFirstSplitPower)
        return power;
    if (power < kLastSplitPower) {
        // Two buckets per power: [2^p, 1.5 * 2^p) and [1.5 * 2^p, 2^(p+1)).
        const int base = kFirstSplitPower + 2 * (power - kFirstSplitPower);
        const uint64_t half = uint64_t{3} << (power - 1);
        return base + (micros >= half ? 1 : 0);
    }
    const int b = power + (kLastSplitPower - kFirstSplitPower);
    return b < kMaxBuckets ? b : kMaxBuckets - 1;
}

uint64_t OperationLatencyHistogram::lowerBound(int bucket) {
    if (bucket == 0)
        return 0;
    if (bucket < kFirstSplitPower)
        return uint64_t{1} << bucket;
    const int splitBuckets = 2 * (kLastSplitPower - kFirstSplitPower);
    if (bucket < kFirstSplitPower + splitBuckets) {
        const int k = bucket - kFirstSplitPower;
        const int power = kFirstSplitPower + k / 2;
        return (k % 2 == 0) ? (uint64_t{1} << power) : (uint64_t{3} << (power - 1));
    }
    return uint64_t{1} << (bucket - (kLastSplitPower - kFirstSplitPower));
}

void OperationLatencyHistogram::increment(uint64_t micros, ReadWriteType type) {
    Data* d = &_commands;
    switch (type) {
        case ReadWriteType::kRead:
            d = &_reads;
            break;
        case ReadWriteType::kWrite:
            d = &_writes;
            break;
        case ReadWriteType::kTransaction:
            d = &_transactions;
            break;
        case ReadWriteType::kCommand:
            break;
    }
    ++d->buckets[bucketFor(micros)];
    ++d->entryCount;
    d->sum += micros;
}

void OperationLatencyHistogram::appendData(const Data& d, const char* name, bool includeHistograms,
                                           BSONObjBuilder* builder) {
    BSONObjBuilder b(builder->subobjStart(name));
    if (includeHistograms) {
        BSONArrayBuilder arr(b.subarrayStart("histogram"));
        for (int i = 0; i < kMaxBuckets; ++i) {
            if (d.buckets[i] == 0)
                continue;
            BSONObjBuilder entry(arr.subobjStart());
            entry.append("micros", static_cast<long long>(lowerBound(i)));
            entry.append("count", static_cast<long long>(d.buckets[i]));
        }
    }
    b.append("latency", static_cast<long long>(d.sum));
    b.append("ops", static_cast<long long>(d.entryCount));
}

void OperationLatencyHistogram::append(bool includeHistograms, BSONObjBuilder* builder) const {
    appendData(_reads, "reads", includeHistograms, builder);
    appendData(_writes, "writes", includeHistograms, builder);
    appendData(_commands, "commands", includeHistograms, builder);
    appendData(_transactions, "transactions", includeHistograms, builder);
}

}  // namespace mongo
