// The column kernels of the block-processing $group (group_over_buckets.h): $sum/$avg over a
// SumState fed whole runs of a decoded column at once, and $min/$max of a run. Their results
// equal the generic accumulators' fed the same values one by one (accumulator.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/db/pipeline/accumulator.h"

namespace mongo {

/** True when every row in [from, to) of `col` is present (to <= col.size). */
bool allPresent(const ScalarColumn& col, size_t from, size_t to);

/** Calls f(i) for each present row i in [from, to) of `col`, word by word. */
template <typename F>
inline void forPresent(const ScalarColumn& col, size_t from, size_t to, F&& f) {
    to = std::min(to, col.size);
    size_t i = from;
    while (i < to) {
        const unsigned shift = i & 63;
        uint64_t w = col.present[i >> 6] >> shift;
        const size_t lim = std::min(to, (i | 63) + 1);
        if (w == (~uint64_t(0) >> shift)) {
            for (; i < lim; ++i)
                f(i);
        } else {
            for (; i < lim; ++i, w >>= 1)
                if (w & 1)
                    f(i);
        }
    }
}

/** $sum and $avg over a SumState (accumulator.h), with bulk adds from decoded columns. */
class BlockSum final : public Accumulator {
public:
    explicit BlockSum(bool avg) : _avg(avg) {}

    void process(const Value& v) override {
        if (_avg) {
            if (!v.numeric())
                return;
            ++_count;
        }
        _sum.add(v);
    }
    Value getValue() const override {
        return _avg ? averageOf(_sum, _count) : _sum.sum();
    }
    void reset() override {
        _sum.reset();
        _count = 0;
    }
    size_t memUsage() const override {
        return 64 + _sum.heapBytes();
    }

    /** The present doubles of rows [from, to) of `col`. */
    void addDoubles(const ScalarColumn& col, size_t from, size_t to);
    /** The present integers of rows [from, to); `isLong`: int64 (else int32) values. */
    void addLongs(const ScalarColumn& col, size_t from, size_t to, bool isLong);
    /** `n` times the constant `v`. */
    void addConstant(const Value& v, size_t n) {
        for (size_t i = 0; i < n; ++i)
            process(v);
    }

private:
    bool _avg;
    SumState _sum;
    long long _count = 0;
};

/** The first best present value of rows [from, to), folded into `acc` (one Value per run). */
void minMaxRun(AccumulatorMinMax* acc, const ScalarColumn& col, BSONType type, size_t from,
               size_t to);

}  // namespace mongo
