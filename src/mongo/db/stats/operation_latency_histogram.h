// OperationLatencyHistogram: operation latencies in microseconds, split by kind (reads,
// writes, commands, transactions), in upstream's bucket layout and reply shape
// ({reads: {histogram: [{micros, count}...], latency, ops}, ...}); Top keeps one per
// collection for $collStats' latencyStats.
// Thread safety: none; the owner (Top) serialises access.
#pragma once

#include <array>
#include <cstdint>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

/** How an operation counts in latency statistics (upstream's Command::ReadWriteType). */
enum class ReadWriteType { kCommand, kRead, kWrite, kTransaction };

class OperationLatencyHistogram {
public:
    /**
     * Bucket i holds latencies in [lowerBound(i), lowerBound(i + 1)): 0 and 1 in bucket 0,
     * then powers of two up to 2^10, half-power steps from 2^11 to 2^21 (2048, 3072, 4096,
     * 6144, ...), powers of two again up to 2^40, which takes everything above.
     */
    static constexpr int kMaxBuckets = 51;
    static int bucketFor(uint64_t micros);
    static uint64_t lowerBound(int bucket);

    void increment(uint64_t micros, ReadWriteType type);

    /**
     * Appends reads, writes, commands, transactions, each {latency, ops} (total micros and
     * count) preceded, when `includeHistograms`, by `histogram`: the non-empty buckets as
     * {micros: <lower bound>, count}.
     */
    void append(bool includeHistograms, BSONObjBuilder* builder) const;

private:
    struct Data {
        std::array<uint64_t, kMaxBuckets> buckets{};
        uint64_t entryCount = 0;
        uint64_t sum = 0;
    };
    static void appendData(const Data& d, const char* name, bool includeHistograms,
                           BSONObjBuilder* builder);

    Data _reads, _writes, _commands, _transactions;
};

}  // namespace mongo
