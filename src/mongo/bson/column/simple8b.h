// Simple-8b: packs runs of small unsigned integers (64-bit or 128-bit) and "missing"
// markers into 64-bit words. Used by BSONColumn (BinData subtype 7) for deltas.
// Format: src/mongo/bson/column/README.md and /work/shared/spec/bsoncolumn-and-docdiff.md
// §A.4. The packer reproduces MongoDB 8.0's greedy word choice byte for byte (§A.4.7).
//
//   Simple8bBuilder<uint64_t> b(&appendWordTo, &words);
//   b.append(3); b.skip(); b.append(7); b.flush();   // words now holds the packed words
//   simple8b::decodeWord<uint64_t>(words[0], prev, out, cap);
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace mongo {

using uint128_t = unsigned __int128;

namespace simple8b {

constexpr uint64_t kRleSelector = 15;
/** Values represented by one RLE word per count unit (count nibble + 1). */
constexpr int kRleMultiplier = 120;
/** Maximum number of values in a non-RLE word. */
constexpr int kMaxValuesPerWord = 60;
/** The word holding exactly one missing value. */
constexpr uint64_t kSingleSkip = 0xFFFFFFFFFFFFFFFEull;

/** All-ones of the value type: a decoded "missing" slot (never a real decoded value). */
template <typename T>
constexpr T missingValue() {
    return ~T(0);
}

/**
 * Number of values stored in `word`, RLE included (120..1920), or -1 when the word is
 * invalid (selector 0, bad extension nibble).
 */
int valueCount(uint64_t word);

/**
 * Decodes a non-RLE word into `out` (room for kMaxValuesPerWord). Missing slots decode as
 * missingValue<T>(). Returns the number of values, or -1 for an invalid word or an RLE word.
 * For T = uint64_t the zero-shift of extended selectors is taken modulo 64 (§A.4.3).
 */
template <typename T>
int decodeWord(uint64_t word, T* out);

/**
 * Slot layout of a non-RLE word, for reading values one at a time without a buffer.
 * parse() returns false for an invalid or RLE word.
 */
struct WordLayout {
    uint64_t word = 0;
    int count = 0;
    int width = 0;
    int start = 0;
    int cbits = 0;  // 0 for base selectors
    int unit = 0;

    bool parse(uint64_t w);

    template <typename T>
    T get(int i) const {
        const uint64_t mask = width >= 64 ? ~uint64_t(0) : ((uint64_t(1) << width) - 1);
        const uint64_t slot = (word >> (start + i * width)) & mask;
        if (slot == mask)
            return missingValue<T>();
        if (cbits == 0)
            return T(slot);
        int shift = int(slot & ((uint64_t(1) << cbits) - 1)) * unit;
        if constexpr (sizeof(T) == 8)
            shift &= 63;
        return T(slot >> cbits) << shift;
    }
};

/** An RLE word for `k` (1..16) count units. */
inline uint64_t rleWord(int k) {
    return kRleSelector | (uint64_t(k - 1) << 4);
}

}  // namespace simple8b

/**
 * The exact greedy Simple-8b packer of MongoDB 8.0 (§A.4.7) for T = uint64_t or uint128_t.
 * Completed words are handed to a writer callback as soon as they are decided. Values are
 * kept "pending" until a word is forced out; flush() writes everything.
 *
 * Thread safety: none; one owner.
 */
template <typename T>
class Simple8bBuilder {
public:
    using WriteFn = void (*)(void* ctx, uint64_t word);

    explicit Simple8bBuilder(WriteFn fn = nullptr, void* ctx = nullptr) : _fn(fn), _ctx(ctx) {
        _resetFamilies();
    }
    // Copies take only the pending slots in use (the encoder copies packers whenever it
    // finishes a column's tail: 64 slots would be most of the cost).
    Simple8bBuilder(const Simple8bBuilder& o) {
        *this = o;
    }
    Simple8bBuilder& operator=(const Simple8bBuilder& o) {
        if (this == &o)
            return *this;
        _fn = o._fn;
        _ctx = o._ctx;
        _n = o._n;
        std::copy(o._pending.begin(), o._pending.begin() + o._n, _pending.begin());
        _maxBits = o._maxBits;
        _allowed = o._allowed;
        _lastFit = o._lastFit;
        _rleValue = o._rleValue;
        _rleMissing = o._rleMissing;
        _rleCount = o._rleCount;
        return *this;
    }
    void setWriter(WriteFn fn, void* ctx) {
        _fn = fn;
        _ctx = ctx;
    }

    /** Back to the freshly constructed state (same writer), without touching the slots. */
    void reset() {
        _n = 0;
        _resetFamilies();
        _lastFit = 0;
        _rleValue = 0;
        _rleMissing = false;
        _rleCount = 0;
    }

    /** Appends a value. Returns false (and changes nothing) if the value is not storable. */
    bool append(T v);
    /** Appends a missing value. */
    void skip();
    /** Writes all pending values and ends any RLE run. Forgets the RLE previous value. */
    void flush();

    /** True when an RLE run may continue: nothing pending, or a run is being counted. */
    bool rleOpen() const {
        return _n == 0 || _rleCount > 0;
    }
    /** Outstanding values: RLE-counted copies first, then pending; f(bool missing, T v). */
    template <typename F>
    void forEachOutstanding(F&& f) const {
        for (int64_t i = 0; i < _rleCount; ++i)
            f(_rleMissing, _rleValue);
        for (int i = 0; i < _n; ++i)
            f(_pending[i].missing, _pending[i].v);
    }
    /** True if every outstanding entry (RLE copies and pending) is missing. */
    bool allOutstandingMissing() const;
    bool hasOutstanding() const {
        return _rleCount > 0 || _n > 0;
    }
    /** Copies the RLE previous value of `o` (used when a packer is replaced). */
    void copyRleValueFrom(const Simple8bBuilder& o) {
        _rleValue = o._rleValue;
        _rleMissing = o._rleMissing;
    }
    /** Sets the RLE previous value (reopen support). */
    void setRleValue(bool missing, T v) {
        _rleMissing = missing;
        _rleValue = v;
    }

    /** Per-value widths; public for tests. */
    struct Metrics {
        uint8_t b[4];
        uint8_t t;
    };
    /** False when `v` cannot be stored in any family. */
    static bool metrics(T v, Metrics* m);

private:
    // Hot-path helpers, defined in simple8b.cpp only; the attribute must be on this first
    // declaration for GCC to honour it (it is ignored on the out-of-class definition).
    [[gnu::always_inline]] static bool _metrics(T v, Metrics* m);

public:
private:
    struct Entry {
        T v;
        Metrics m;
        bool missing;
    };

    [[gnu::always_inline]] bool _fits(const Metrics& m);
    uint64_t _emitWord(int family);
    [[gnu::always_inline]] bool _appendValue(T v, const Metrics& m, bool mayStartRle);
    void _appendMissing(bool mayStartRle);
    void _endRle();
    [[gnu::always_inline]] void _push(T v, const Metrics& m, bool missing);
    void _write(uint64_t w) {
        if (_fn)
            _fn(_ctx, w);
    }
    void _resetFamilies() {
        _maxBits = {1, 2, 4, 4};
        _allowed = {true, true, true, true};
    }
    bool _rleIs(bool missing, T v) const {
        return _rleMissing == missing && (missing || _rleValue == v);
    }

    WriteFn _fn;
    void* _ctx;
    std::array<Entry, 64> _pending;
    int _n = 0;
    std::array<uint8_t, 4> _maxBits;
    std::array<bool, 4> _allowed;
    int _lastFit = 0;
    T _rleValue = 0;
    bool _rleMissing = false;
    int64_t _rleCount = 0;
};

extern template class Simple8bBuilder<uint64_t>;
extern template class Simple8bBuilder<uint128_t>;

}  // namespace mongo
