#include "mongo/util/exact_sum.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mongo {
namespace {

constexpr int kBits = 32;

/** Floor division by 2^32 (arithmetic shift), the remainder left in [0, 2^32). */
inline int64_t takeCarry(int64_t* digit) {
    const int64_t c = *digit >> kBits;
    *digit -= c * (int64_t(1) << kBits);
    return c;
}

/** `count` (<= 64) bits of the magnitude `d` (n digits) from bit `from` up. */
uint64_t bitsAt(const uint32_t* d, int n, int from, int count) {
    const int j = from / kBits, off = from % kBits;
    unsigned __int128 v = 0;
    for (int i = 2; i >= 0; --i) {
        v <<= kBits;
        if (j + i < n)
            v |= d[j + i];
    }
    v >>= off;
    return count >= 64 ? static_cast<uint64_t>(v)
                       : static_cast<uint64_t>(v) & ((uint64_t(1) << count) - 1);
}

/** Whether any bit of the magnitude below bit `pos` is set. */
bool anyBelow(const uint32_t* d, int pos) {
    const int j = pos / kBits, off = pos % kBits;
    if (off && (d[j] & ((uint32_t(1) << off) - 1)))
        return true;
    for (int i = 0; i < j; ++i)
        if (d[i])
            return true;
    return false;
}

/** The highest set bit of the magnitude, -1 when it is zero. */
int topBit(const uint32_t* d, int n) {
    for (int j = n - 1; j >= 0; --j)
        if (d[j])
            return j * kBits + 31 - __builtin_clz(d[j]);
    return -1;
}

}  // namespace

void ExactSum::addSpecial(bool nan, bool neg) {
    if (nan)
        _nan = 1;
    else if (neg)
        _negInf = 1;
    else
        _posInf = 1;
}

int ExactSum::place(int k) {
    const bool empty = std::all_of(_window, _window + kWindow, [](int64_t d) { return d == 0; });
    if (!_placed || empty) {
        // Two digits of room below the first value (smaller values), three above.
        _base = std::clamp(k - 2, 0, kDigits - kWindow);
        _placed = true;
        return k - _base;
    }
    widen();
    return k;
}

void ExactSum::widen() {
    _heap.assign(kDigits, 0);
    std::copy(_window, _window + kWindow, _heap.begin() + _base);
    std::fill(_window, _window + kWindow, 0);
    _base = 0;
    _wide = true;
}

void ExactSum::carry() {
    _adds = 0;
    int64_t* d = digits();
    const int n = _wide ? kDigits : kWindow;
    for (int i = 0; i + 1 < n; ++i)
        d[i + 1] += takeCarry(&d[i]);
    // The window's top digit takes every carry; leave it room (wide: the top is far above
    // any sum of doubles).
    constexpr int64_t kTopRoom = int64_t(1) << 60;
    if (!_wide && (d[n - 1] > kTopRoom || d[n - 1] < -kTopRoom))
        widen();
}

void ExactSum::add(const ExactSum& other) {
    // By the normalised digits of `other` (a sum that needs digits beyond kMaxFirstDigit is
    // beyond 2^1100: no sum of finite doubles reaches it; it would be an infinity).
    const std::vector<int64_t> w = other.toWords();
    if (!addWords(w)) {
        _posInf |= !(w[0] & 8);
        _negInf |= (w[0] & 8) != 0;
    }
}

void ExactSum::addFixed(__int128 acc, int low) {
    if (acc == 0)
        return;
    _terms = 2;
    const bool neg = acc < 0;
    const unsigned __int128 mag =
        neg ? 0 - static_cast<unsigned __int128>(acc) : static_cast<unsigned __int128>(acc);
    // A double's last bit at biased exponent `low` is bit low - 1 of the sum (addDouble()).
    const int bit = low - 1;
    if (static_cast<uint64_t>(mag))
        addMagnitude(static_cast<uint64_t>(mag), bit, neg);
    if (static_cast<uint64_t>(mag >> 64))
        addMagnitude(static_cast<uint64_t>(mag >> 64), bit + 64, neg);
}

bool ExactSum::addDoubleArray(const double* v, size_t n) {
    constexpr size_t kMaxArray = size_t(1) << 16;
    if (n > kMaxArray)
        return false;
    // The largest and the smallest nonzero magnitude (an infinity or NaN is seen below: it
    // makes the sums non-finite; max/min keep the lane's value when the input is a NaN).
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double maxMag = 0, minMag = kInf;
    size_t i = 0;
#if defined(__SSE2__)
    {
        const __m128d sign = _mm_set1_pd(-0.0), inf = _mm_set1_pd(kInf), zero = _mm_setzero_pd();
        __m128d mx0 = zero, mx1 = zero, mn0 = inf, mn1 = inf;
        for (; i + 4 <= n; i += 4) {
            const __m128d a0 = _mm_andnot_pd(sign, _mm_loadu_pd(v + i));
            const __m128d a1 = _mm_andnot_pd(sign, _mm_loadu_pd(v + i + 2));
            mx0 = _mm_max_pd(a0, mx0);
            mx1 = _mm_max_pd(a1, mx1);
            // Zeros count as infinities for the minimum.
            const __m128d z0 = _mm_cmpeq_pd(a0, zero), z1 = _mm_cmpeq_pd(a1, zero);
            mn0 = _mm_min_pd(_mm_or_pd(_mm_and_pd(z0, inf), _mm_andnot_pd(z0, a0)), mn0);
            mn1 = _mm_min_pd(_mm_or_pd(_mm_and_pd(z1, inf), _mm_andnot_pd(z1, a1)), mn1);
        }
        double l[2];
        _mm_storeu_pd(l, _mm_max_pd(mx0, mx1));
        maxMag = std::max(l[0], l[1]);
        _mm_storeu_pd(l, _mm_min_pd(mn0, mn1));
        minMag = std::min(l[0], l[1]);
    }
#endif
    for (; i < n; ++i) {
        const double a = std::fabs(v[i]);
        maxMag = a > maxMag ? a : maxMag;
        minMag = a != 0 && a < minMag ? a : minMag;
    }
    if (maxMag == 0 || !(maxMag < kInf) || minMag < std::numeric_limits<double>::min())
        return false;  // zeros or NaNs only, an infinity, a subnormal (a NaN is seen below)
    uint64_t maxBits, minBits;
    std::memcpy(&maxBits, &maxMag, sizeof maxBits);
    std::memcpy(&minBits, &minMag, sizeof minBits);
    const int maxE = static_cast<int>(maxBits >> 52), minE = static_cast<int>(minBits >> 52);
    // |v| < 2^(maxE - 1022) and n <= 2^ln: sigma = 2^k, k = maxE - 1021 + ln, keeps every
    // partial sum of high parts below sigma / 2 (exact: 53 bits of ulp(sigma) / 2), and the
    // low parts (|r| <= ulp(sigma), multiples of 2^(minE - 1075)) sum exactly when
    // 2 ln + maxE - minE + 2 <= 52.
    const int ln = std::bit_width(n);
    if (2 * ln + (maxE - minE) + 2 > 52)
        return false;
    const int k = maxE - 1021 + ln;
    if (k > 1000)
        return false;  // sigma + v must not overflow
    const double sigma = std::ldexp(1.0, k);
    // Without -ffast-math the compiler keeps (sigma + x) - sigma as written. Four lanes (two
    // registers of two) for each sum; any order gives the same exact sums.
    double high = 0, low = 0;
    i = 0;
#if defined(__SSE2__)
    {
        const __m128d s2 = _mm_set1_pd(sigma);
        __m128d hi0 = _mm_setzero_pd(), hi1 = hi0, lo0 = hi0, lo1 = hi0;
        for (; i + 4 <= n; i += 4) {
            const __m128d x0 = _mm_loadu_pd(v + i), x1 = _mm_loadu_pd(v + i + 2);
            const __m128d q0 = _mm_sub_pd(_mm_add_pd(s2, x0), s2);
            const __m128d q1 = _mm_sub_pd(_mm_add_pd(s2, x1), s2);
            hi0 = _mm_add_pd(hi0, q0);
            hi1 = _mm_add_pd(hi1, q1);
            lo0 = _mm_add_pd(lo0, _mm_sub_pd(x0, q0));
            lo1 = _mm_add_pd(lo1, _mm_sub_pd(x1, q1));
        }
        double l[2];
        _mm_storeu_pd(l, _mm_add_pd(hi0, hi1));
        high = l[0] + l[1];
        _mm_storeu_pd(l, _mm_add_pd(lo0, lo1));
        low = l[0] + l[1];
    }
#endif
    for (; i < n; ++i) {
        const double q = (sigma + v[i]) - sigma;
        high += q;
        low += v[i] - q;
    }
    if (!std::isfinite(high) || !std::isfinite(low))
        return false;  // a NaN (or an infinity) among the values: nothing was added
    addDouble(high);
    addDouble(low);
    return true;
}

bool ExactSum::magnitude(uint32_t* out, int* end) const {
    // Only the digits in use and the two above them (where the top one's carries go; the
    // window's top digit is below 2^61) can be nonzero.
    const int64_t* d = digits();
    const int n = _wide ? kDigits : kWindow;
    const int hi = std::min(kDigits, _base + n + 2);
    int64_t t[kDigits];
    for (int i = _base; i < hi; ++i)
        t[i] = i - _base < n ? d[i - _base] : 0;
    for (int i = _base; i + 1 < hi; ++i)
        t[i + 1] += takeCarry(&t[i]);
    // The top digit is now the sum's sign: 0 or -1 (|sum| < 2^(32 * (hi - 1))).
    const bool neg = t[hi - 1] < 0;
    if (neg) {
        for (int i = _base; i < hi; ++i)
            t[i] = -t[i];
        for (int i = _base; i + 1 < hi; ++i)
            t[i + 1] += takeCarry(&t[i]);
    }
    std::fill(out, out + kDigits, 0);
    for (int i = _base; i < hi; ++i)
        out[i] = static_cast<uint32_t>(t[i]);
    *end = hi;
    return neg;
}

bool ExactSum::isZero() const {
    if (_nan || _posInf || _negInf)
        return false;
    uint32_t m[kDigits];
    int end;
    magnitude(m, &end);
    return topBit(m, end) < 0;
}

double ExactSum::toDouble() const {
    if (_nan || (_posInf && _negInf))
        return std::numeric_limits<double>::quiet_NaN();
    if (_posInf || _negInf)
        return _posInf ? std::numeric_limits<double>::infinity()
                       : -std::numeric_limits<double>::infinity();
    if (_terms == 1)
        return _single;
    uint32_t m[kDigits];
    int end;
    const bool neg = magnitude(m, &end);
    const int top = topBit(m, end);
    if (top < 0)
        return 0.0;
    // 53 significant bits, fewer in the subnormal range (the last bit is 2^-1074 = bit 0).
    const int lsb = std::max(top - 52, 0);
    uint64_t mant = bitsAt(m, kDigits, lsb, top - lsb + 1);
    const bool half = lsb > 0 && bitsAt(m, kDigits, lsb - 1, 1);
    const bool sticky = lsb > 1 && anyBelow(m, lsb - 1);
    if (half && (sticky || (mant & 1)))
        ++mant;  // to nearest, ties to even; 2^53 is still exact, ldexp then overflows to inf
    const double r = std::ldexp(static_cast<double>(mant), lsb - kUnitBit);
    return neg ? -r : r;
}

std::optional<int64_t> ExactSum::toInt64() const {
    if (_nan || _posInf || _negInf)
        return std::nullopt;
    uint32_t m[kDigits];
    int end;
    const bool neg = magnitude(m, &end);
    const int top = topBit(m, end);
    if (top < 0)
        return 0;
    if (top < kUnitBit || anyBelow(m, kUnitBit) || top >= kUnitBit + 64)
        return std::nullopt;  // a fraction, or beyond 2^64
    const uint64_t mag = bitsAt(m, kDigits, kUnitBit, 64);
    if (neg)
        return mag <= (uint64_t(1) << 63) ? std::optional<int64_t>(static_cast<int64_t>(0 - mag))
                                          : std::nullopt;
    return mag < (uint64_t(1) << 63) ? std::optional<int64_t>(static_cast<int64_t>(mag))
                                     : std::nullopt;
}

std::vector<int64_t> ExactSum::toWords() const {
    // [flags, first digit, digits...]: flags 1 NaN, 2 +inf, 4 -inf, 8 negative; the digits
    // of the magnitude from `first` to the highest nonzero one.
    uint32_t m[kDigits];
    int end;
    const bool neg = magnitude(m, &end);
    int lo = 0, hi = end - 1;
    while (hi >= 0 && !m[hi])
        --hi;
    while (lo < hi && !m[lo])
        ++lo;
    std::vector<int64_t> w;
    w.push_back((_nan ? 1 : 0) | (_posInf ? 2 : 0) | (_negInf ? 4 : 0) | (neg ? 8 : 0));
    w.push_back(hi < 0 ? 0 : lo);
    for (int i = lo; i <= hi; ++i)
        w.push_back(m[i]);
    return w;
}

bool ExactSum::addWords(const std::vector<int64_t>& w) {
    if (w.size() < 2 || w[0] < 0 || w[0] > 15 || w[1] < 0 ||
        w.size() - 2 > static_cast<size_t>(kMaxFirstDigit + 1) ||
        w[1] + static_cast<int64_t>(w.size() - 2) > kMaxFirstDigit + 1)
        return false;
    for (size_t i = 2; i < w.size(); ++i)
        if (w[i] < 0 || w[i] > std::numeric_limits<uint32_t>::max())
            return false;
    const bool neg = w[0] & 8;
    _terms = 2;
    _nan |= (w[0] & 1) != 0;
    _posInf |= (w[0] & 2) != 0;
    _negInf |= (w[0] & 4) != 0;
    for (size_t i = 2; i < w.size(); ++i)
        if (w[i])
            addMagnitude(static_cast<uint64_t>(w[i]), static_cast<int>(w[1] + (i - 2)) * kBits,
                         neg);
    return true;
}

}  // namespace mongo
