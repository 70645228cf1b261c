#include "mongo/db/pipeline/block_accumulators.h"

#include <algorithm>

#include "mongo/bson/bson_comparator.h"

namespace mongo {

bool allPresent(const ScalarColumn& col, size_t from, size_t to) {
    for (size_t i = from; i < to;) {
        const unsigned shift = i & 63;
        const size_t lim = std::min(to, (i | 63) + 1);
        const uint64_t want = (~uint64_t(0) >> (64 - (lim - i))) << shift;
        if ((col.present[i >> 6] & want) != want)
            return false;
        i = lim;
    }
    return true;
}

void BlockSum::addDoubles(const ScalarColumn& col, size_t from, size_t to) {
    const double* v = col.doubles.data();
    to = std::min(to, col.size);
    long long n = 0;
    if (col.smallIntegers) {
        // Integers (the common "whole numbers stored as doubles"): one plain double sum is
        // exact (at most kMaxPositions values of at most 2^30), and so adds as they would.
        double sum = 0;
        forPresent(col, from, to, [&](size_t i) {
            sum += v[i];
            ++n;
        });
        if (n > 0)
            _sum.addDouble(sum);
    } else if (from < to && allPresent(col, from, to)) {
        // Non-integers, none missing (a bucket's run): the error-free split of ExactSum.
        _sum.addDoubleArray(v + from, to - from);
        n = static_cast<long long>(to - from);
    } else {
        _sum.addDoubles(to - from, [&](auto&& add) {
            forPresent(col, from, to, [&](size_t i) {
                add(v[i]);
                ++n;
            });
        });
    }
    if (_avg)
        _count += n;
}

void BlockSum::addLongs(const ScalarColumn& col, size_t from, size_t to, bool isLong) {
    const int64_t* v = col.ints.data();
    long long n = 0;
    // One int64 sum of the run, exact when no value exceeds 2^38 (at most 2^22 of them);
    // else value by value. The sum is exact either way: only the speed differs.
    long long sum = 0;
    uint64_t maxAbs = 0;
    forPresent(col, from, to, [&](size_t i) {
        sum = static_cast<long long>(uint64_t(sum) + uint64_t(v[i]));  // wraps: checked
        const uint64_t a = v[i] < 0 ? 0 - uint64_t(v[i]) : uint64_t(v[i]);
        maxAbs = std::max(maxAbs, a);
        ++n;
    });
    if (n == 0)
        return;
    if (maxAbs <= (uint64_t(1) << 38)) {
        _sum.addInteger(sum, isLong);
    } else {
        forPresent(col, from, to, [&](size_t i) { _sum.addInteger(v[i], isLong); });
    }
    if (_avg)
        _count += n;
}

void minMaxRun(AccumulatorMinMax* acc, const ScalarColumn& col, BSONType type, size_t from,
               size_t to) {
    const bool isMax = acc->isMax();
    bool any = false;
    if (type == BSONType::kNumberDouble) {
        const double* v = col.doubles.data();
        double best = 0;
        forPresent(col, from, to, [&](size_t i) {
            int c = any ? compareDoubles(v[i], best) : 0;
            if (!any || (isMax ? c > 0 : c < 0))
                best = v[i];
            any = true;
        });
        if (any)
            acc->process(Value(best));
        return;
    }
    const int64_t* v = col.ints.data();
    int64_t best = 0;
    forPresent(col, from, to, [&](size_t i) {
        if (!any || (isMax ? v[i] > best : v[i] < best))
            best = v[i];
        any = true;
    });
    if (!any)
        return;
    if (type == BSONType::kNumberInt)
        acc->process(Value(static_cast<int>(best)));
    else if (type == BSONType::kNumberLong)
        acc->process(Value(static_cast<long long>(best)));
    else
        acc->process(Value(Date_t::fromMillisSinceEpoch(best)));
}

}  // namespace mongo
