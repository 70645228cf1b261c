// Simple-8b word tables, decoder and the greedy packer (spec §A.4).
#include "mongo/bson/column/simple8b.h"

#include <algorithm>
#include <cstring>

namespace mongo {
namespace simple8b {
namespace {

// Base selectors 1..14: values per word and bits per value.
constexpr int kBaseCount[15] = {0, 60, 30, 20, 15, 12, 10, 8, 7, 6, 5, 4, 3, 2, 1};
constexpr int kBaseBits[15] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 30, 60};

// Extended rows, indexed by extension nibble x.
// Selector 7 ("seven"): x = 1..9, count 4 bits, unit 1 bit.
constexpr int kSevenCount[10] = {0, 9, 8, 7, 6, 5, 4, 3, 2, 1};
constexpr int kSevenSig[10] = {0, 2, 3, 4, 5, 7, 10, 14, 24, 52};
// Selector 8: x = 1..7 ("eight-small", count 4 bits) and 8..13 ("eight-large", count 5 bits),
// unit 4 bits.
constexpr int kEightCount[14] = {0, 7, 6, 5, 4, 3, 2, 1, 6, 5, 4, 3, 2, 1};
constexpr int kEightSig[14] = {0, 4, 5, 7, 10, 14, 24, 52, 4, 6, 9, 13, 23, 51};

inline uint64_t lowMask(int bits) {
    return bits >= 64 ? ~uint64_t(0) : ((uint64_t(1) << bits) - 1);
}

}  // namespace

int valueCount(uint64_t word) {
    const int sel = int(word & 0xF);
    const int x = int((word >> 4) & 0xF);
    if (sel == 0)
        return -1;
    if (sel == int(kRleSelector))
        return kRleMultiplier * (x + 1);
    if (sel == 7 && x != 0)
        return x <= 9 ? kSevenCount[x] : -1;
    if (sel == 8 && x != 0)
        return x <= 13 ? kEightCount[x] : -1;
    return kBaseCount[sel];
}

bool WordLayout::parse(uint64_t w) {
    const int sel = int(w & 0xF);
    const int x = int((w >> 4) & 0xF);
    if (sel == 0 || sel == int(kRleSelector))
        return false;
    word = w;
    if ((sel == 7 || sel == 8) && x != 0) {
        int sig;
        if (sel == 7) {
            if (x > 9)
                return false;
            count = kSevenCount[x];
            sig = kSevenSig[x];
            cbits = 4;
            unit = 1;
        } else {
            if (x > 13)
                return false;
            count = kEightCount[x];
            sig = kEightSig[x];
            cbits = x <= 7 ? 4 : 5;
            unit = 4;
        }
        width = sig + cbits;
        start = 8;
        return true;
    }
    count = kBaseCount[sel];
    width = kBaseBits[sel];
    start = (sel == 7 || sel == 8) ? 8 : 4;
    cbits = 0;
    unit = 0;
    return true;
}

template <typename T>
int decodeWord(uint64_t word, T* out) {
    const int sel = int(word & 0xF);
    const int x = int((word >> 4) & 0xF);
    if (sel == 0 || sel == int(kRleSelector))
        return -1;
    if ((sel == 7 || sel == 8) && x != 0) {
        int count, sig, cbits, unit;
        if (sel == 7) {
            if (x > 9)
                return -1;
            count = kSevenCount[x];
            sig = kSevenSig[x];
            cbits = 4;
            unit = 1;
        } else {
            if (x > 13)
                return -1;
            count = kEightCount[x];
            sig = kEightSig[x];
            cbits = x <= 7 ? 4 : 5;
            unit = 4;
        }
        const int width = sig + cbits;
        const uint64_t mask = lowMask(width);
        const uint64_t cmask = lowMask(cbits);
        uint64_t bits = word >> 8;
        for (int i = 0; i < count; ++i, bits >>= width) {
            const uint64_t slot = bits & mask;
            if (slot == mask) {
                out[i] = missingValue<T>();
                continue;
            }
            int shift = int(slot & cmask) * unit;
            if constexpr (sizeof(T) == 8)
                shift &= 63;
            out[i] = T(slot >> cbits) << shift;
        }
        return count;
    }
    const int count = kBaseCount[sel];
    const int width = kBaseBits[sel];
    const uint64_t mask = lowMask(width);
    uint64_t bits = word >> ((sel == 7 || sel == 8) ? 8 : 4);
    for (int i = 0; i < count; ++i, bits >>= width) {
        const uint64_t slot = bits & mask;
        out[i] = slot == mask ? missingValue<T>() : T(slot);
    }
    return count;
}

template int decodeWord<uint64_t>(uint64_t, uint64_t*);
template int decodeWord<uint128_t>(uint64_t, uint128_t*);

}  // namespace simple8b

namespace {

constexpr int kPayload[4] = {60, 56, 56, 56};
constexpr int kCountBits[4] = {0, 4, 4, 5};
constexpr std::array<uint8_t, 4> kInitialMaxBits = {1, 2, 4, 4};

inline int bitLength(uint64_t y) {
    return y == 0 ? 0 : 64 - __builtin_clzll(y);
}
inline int bitLength(uint128_t y) {
    const uint64_t hi = uint64_t(y >> 64);
    return hi ? 64 + bitLength(hi) : bitLength(uint64_t(y));
}
inline int trailingZeros(uint64_t y) {
    return y == 0 ? 0 : __builtin_ctzll(y);
}
inline int trailingZeros(uint128_t y) {
    const uint64_t lo = uint64_t(y);
    if (lo)
        return __builtin_ctzll(lo);
    const uint64_t hi = uint64_t(y >> 64);
    return hi ? 64 + __builtin_ctzll(hi) : 0;
}

// Significant bits as the 8.0 packer counts them (§A.4.7).
inline int sigBits(uint64_t y) {
    return bitLength(y + 1);
}
inline int sigBits(uint128_t y) {
    if ((y >> 64) == 0)
        return bitLength(y + 1);
    return bitLength(y);
}

// One row of a family: selector, extension nibble, count, significand bits.
struct Row {
    int sel, x, count, sig;
};
// Rows of each family, largest count first.
constexpr Row kBaseRows[] = {{1, 0, 60, 1},  {2, 0, 30, 2},  {3, 0, 20, 3},  {4, 0, 15, 4},
                             {5, 0, 12, 5},  {6, 0, 10, 6},  {7, 0, 8, 7},   {8, 0, 7, 8},
                             {9, 0, 6, 10},  {10, 0, 5, 12}, {11, 0, 4, 15}, {12, 0, 3, 20},
                             {13, 0, 2, 30}, {14, 0, 1, 60}};
constexpr Row kSevenRows[] = {{7, 1, 9, 2},  {7, 2, 8, 3},  {7, 3, 7, 4},
                              {7, 4, 6, 5},  {7, 5, 5, 7},  {7, 6, 4, 10},
                              {7, 7, 3, 14}, {7, 8, 2, 24}, {7, 9, 1, 52}};
constexpr Row kEightSmallRows[] = {{8, 1, 7, 4},  {8, 2, 6, 5},  {8, 3, 5, 7}, {8, 4, 4, 10},
                                   {8, 5, 3, 14}, {8, 6, 2, 24}, {8, 7, 1, 52}};
constexpr Row kEightLargeRows[] = {{8, 8, 6, 4},   {8, 9, 5, 6},   {8, 10, 4, 9},
                                   {8, 11, 3, 13}, {8, 12, 2, 23}, {8, 13, 1, 51}};

struct Family {
    const Row* rows;
    int nRows;
};
constexpr Family kFamilies[4] = {
    {kBaseRows, 14}, {kSevenRows, 9}, {kEightSmallRows, 7}, {kEightLargeRows, 6}};

}  // namespace

template <typename T>
inline bool Simple8bBuilder<T>::_metrics(T v, Metrics* m) {
    if (v == ~T(0))
        return false;
    const int t = trailingZeros(v);
    const int s = sigBits(v);
    const int z1 = std::min(t, 15);
    const int z2 = 4 * (std::min(t, 60) / 4);
    const int z3 = 4 * (std::min(t, 124) / 4);
    const int b0 = s;
    const int b1 = t == 15 ? sigBits(T(v >> 15)) : s - z1;
    const int b2 = t == 60 ? sigBits(T(v >> 60)) : s - z2;
    int b3 = s - z3;
    if constexpr (sizeof(T) == 16) {
        if (t == 124)
            b3 = sigBits(T(v >> 124));
    }
    if (b0 > 60 && b1 + 4 > 56 && b2 + 4 > 56 && b3 + 5 > 56)
        return false;
    m->b[0] = uint8_t(b0);
    m->b[1] = uint8_t(b1);
    m->b[2] = uint8_t(b2);
    m->b[3] = uint8_t(b3);
    m->t = uint8_t(t);
    return true;
}

template <typename T>
bool Simple8bBuilder<T>::metrics(T v, Metrics* m) {
    return _metrics(v, m);
}

template <typename T>
[[gnu::always_inline]] inline bool Simple8bBuilder<T>::_fits(const Metrics& m) {
    for (int f = 0; f < 4; ++f) {
        if (!_allowed[f])
            continue;
        const int need = (std::max<int>(_maxBits[f], m.b[f]) + kCountBits[f]) * (_n + 1);
        if (need > kPayload[f]) {
            _allowed[f] = false;
        } else {
            _lastFit = f;
            return true;
        }
    }
    return false;
}

template <typename T>
[[gnu::always_inline]] inline void Simple8bBuilder<T>::_push(T v, const Metrics& m, bool missing) {
    Entry& e = _pending[_n++];
    e.v = v;
    e.m = m;
    e.missing = missing;
    if (!missing) {
        for (int f = 0; f < 4; ++f)
            _maxBits[f] = std::max(_maxBits[f], m.b[f]);
    }
}

template <typename T>
uint64_t Simple8bBuilder<T>::_emitWord(int family) {
    // Largest row of the family whose count is <= pending and whose slots hold every entry.
    const Row* row = nullptr;
    for (int attempt = 0; attempt < 4 && !row; ++attempt) {
        const int f = attempt == 0 ? family : attempt - 1;
        if (attempt > 0 && f == family)
            continue;
        const Family& fam = kFamilies[f];
        for (int r = 0; r < fam.nRows && !row; ++r) {
            const Row& cand = fam.rows[r];
            if (cand.count > _n)
                continue;
            bool ok = true;
            for (int i = 0; i < cand.count && ok; ++i)
                ok = _pending[i].missing || _pending[i].m.b[f] <= cand.sig;
            if (ok) {
                row = &cand;
                family = f;
            }
        }
    }
    const int k = row->count;
    const int cbits = kCountBits[family];
    const int width = row->sig + cbits;
    const int start = (row->sel == 7 || row->sel == 8) ? 8 : 4;
    const uint64_t allOnes = width >= 64 ? ~uint64_t(0) : ((uint64_t(1) << width) - 1);
    uint64_t word = uint64_t(row->sel) | (uint64_t(row->x) << 4);
    for (int i = 0; i < k; ++i) {
        const Entry& e = _pending[i];
        uint64_t slot;
        if (e.missing) {
            slot = allOnes;
        } else if (family == 0) {
            slot = uint64_t(e.v);
        } else if (family == 1) {
            const int z = std::min<int>(e.m.t, 15);
            slot = (uint64_t(e.v >> z) << 4) | uint64_t(z);
        } else {
            const int lim = family == 2 ? 60 : 124;
            const int z = 4 * (std::min<int>(e.m.t, lim) / 4);
            slot = (uint64_t(e.v >> z) << cbits) | uint64_t(z / 4);
        }
        word |= slot << (start + i * width);
    }
    // Drop the emitted entries and recompute the family maxima from what remains.
    std::move(_pending.begin() + k, _pending.begin() + _n, _pending.begin());
    _n -= k;
    _maxBits = kInitialMaxBits;
    for (int i = 0; i < _n; ++i) {
        if (_pending[i].missing)
            continue;
        for (int f = 0; f < 4; ++f)
            _maxBits[f] = std::max(_maxBits[f], _pending[i].m.b[f]);
    }
    _allowed = {true, true, true, true};
    return word;
}

template <typename T>
[[gnu::always_inline]] inline bool Simple8bBuilder<T>::_appendValue(T v, const Metrics& m,
                                                                    bool mayStartRle) {
    if (_fits(m)) {
        _push(v, m, false);
        return true;
    }
    const Entry prev = _pending[_n - 1];
    do {
        _write(_emitWord(_lastFit));
    } while (!_fits(m));
    if (mayStartRle && _n == 0 && !prev.missing && prev.v == v) {
        _rleCount = 1;
        _rleValue = v;
        _rleMissing = false;
        _lastFit = 0;
        _allowed = {true, true, true, true};
    } else {
        _push(v, m, false);
    }
    return true;
}

template <typename T>
void Simple8bBuilder<T>::_appendMissing(bool mayStartRle) {
    static constexpr Metrics kProbe = {{1, 2, 4, 4}, 0};
    if (_n > 0) {
        const bool lastWasMissing = _pending[_n - 1].missing;
        if (!_fits(kProbe)) {
            _write(_emitWord(_lastFit));
            _lastFit = 0;
        }
        if (_n == 0 && lastWasMissing && mayStartRle) {
            _rleCount = 1;
            _rleMissing = true;
            _rleValue = 0;
            return;
        }
    }
    _push(T(0), kProbe, true);
}

template <typename T>
void Simple8bBuilder<T>::_endRle() {
    int64_t q = _rleCount / simple8b::kRleMultiplier;
    while (q > 16) {
        _rleCount -= 16 * simple8b::kRleMultiplier;
        q -= 16;
        _write(simple8b::rleWord(16));
    }
    if (q >= 1) {
        _rleCount -= simple8b::kRleMultiplier * q;
        _write(simple8b::rleWord(int(q)));
    }
    if (_rleCount > 0) {
        Metrics m{};
        if (!_rleMissing)
            _metrics(_rleValue, &m);
        while (_rleCount > 0) {
            if (_rleMissing)
                _appendMissing(false);
            else
                _appendValue(_rleValue, m, false);
            --_rleCount;
        }
    }
    _rleValue = 0;
    _rleMissing = false;
    if (_n == 0) {
        _lastFit = 0;
        _allowed = {true, true, true, true};
    }
}

template <typename T>
bool Simple8bBuilder<T>::append(T v) {
    if (rleOpen() && _rleIs(false, v)) {
        ++_rleCount;
        _lastFit = 0;
        _allowed = {true, true, true, true};
        return true;
    }
    Metrics m;
    if (!_metrics(v, &m))
        return false;
    if (rleOpen())
        _endRle();
    return _appendValue(v, m, true);
}

template <typename T>
void Simple8bBuilder<T>::skip() {
    if (rleOpen() && _rleMissing) {
        ++_rleCount;
        _lastFit = 0;
        _allowed = {true, true, true, true};
        return;
    }
    if (rleOpen())
        _endRle();
    _appendMissing(true);
}

template <typename T>
void Simple8bBuilder<T>::flush() {
    _endRle();
    bool wrote = false;
    while (_n > 0) {
        _write(_emitWord(_lastFit));
        wrote = true;
    }
    if (wrote)
        _rleCount = 0;
}

template <typename T>
bool Simple8bBuilder<T>::allOutstandingMissing() const {
    if (_rleCount > 0 && !_rleMissing)
        return false;
    for (int i = 0; i < _n; ++i) {
        if (!_pending[i].missing)
            return false;
    }
    return true;
}

template class Simple8bBuilder<uint64_t>;
template class Simple8bBuilder<uint128_t>;

}  // namespace mongo
