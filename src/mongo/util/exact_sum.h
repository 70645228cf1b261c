// ExactSum: the exact sum of doubles and 64-bit integers, rounded once at the end.
//
// Every finite double is an integer multiple of 2^-1074 below 2^1024, so a sum of them is one
// (large) integer in units of 2^-1074. It is kept in base-2^32 digits, each an int64 with room
// for 2^30 additions before carries must move up (the "small superaccumulator" layout): an
// addition touches three digits and carries nothing, so sums do not depend on the order of the
// additions, and runs may be summed apart and merged. The digits live in a window of eight
// (enough for values within ~2^150 of each other, as measurements are) until a value falls
// outside it; then the state moves to all 70 digits on the heap. Infinities and NaN are
// counted aside: the result is NaN after a NaN or after both infinities, else the infinity.
// Reading the sum normalises a copy of the digits and rounds to nearest, ties to even, as
// IEEE addition of the exact values would.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace mongo {

class ExactSum {
public:
    ExactSum() = default;

    void addDouble(double d) {
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        const unsigned biased = static_cast<unsigned>(bits >> 52) & 0x7FF;
        uint64_t m = bits & ((uint64_t(1) << 52) - 1);
        if (biased == 0x7FF) {
            addSpecial(m != 0, bits >> 63);
            return;
        }
        if (biased == 0 && m == 0)
            return;  // a zero
        if (_terms < 2) {
            _single = d;  // toDouble() of one term is the term
            ++_terms;
        }
        if (biased == 0) {
            addMagnitude(m, 0, bits >> 63);  // subnormal: m * 2^-1074
            return;
        }
        // m * 2^(biased - 1075) = m * 2^-1074 shifted by biased - 1.
        addMagnitude(m | (uint64_t(1) << 52), static_cast<int>(biased) - 1, bits >> 63);
    }
    void addInt64(int64_t v) {
        if (v == 0)
            return;
        const bool neg = v < 0;
        _terms = 2;
        addMagnitude(neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v), kUnitBit, neg);
    }
    void add(const ExactSum& other);

    /**
     * Adds every double `each` passes to the callback it is given, at most `maxCount` of
     * them, as addDouble() of each; faster for runs of similar magnitude (a column's values):
     * they are summed in a 128-bit fixed-point integer held in registers, whose lowest bit
     * is placed by the first value (values up to 2^30 times smaller and 2^18 times larger
     * fit; another value moves it), and which goes into the sum at the end. Subnormals,
     * infinities and NaN are added directly.
     */
    template <typename Each>
    void addDoubleRun(size_t maxCount, Each&& each) {
        if (maxCount > kRunMaxAdds) {
            each([&](double d) { addDouble(d); });
            return;
        }
        __int128 acc = 0;
        int low = 1 << 20;  // the biased exponent of acc's lowest bit (none yet: nothing fits)
        each([&](double d) {
            uint64_t bits;
            std::memcpy(&bits, &d, sizeof bits);
            const int biased = static_cast<int>(bits >> 52) & 0x7FF;
            unsigned shift = static_cast<unsigned>(biased - low);
            // low is in [1, 0x7FF - kRunMaxShift - 1]: zeros, subnormals (biased 0) and
            // infinities/NaN (0x7FF) are never in range.
            if (shift > kRunMaxShift) [[unlikely]] {
                if (biased == 0 || biased == 0x7FF) {
                    addDouble(d);
                    return;
                }
                addFixed(acc, low);  // by value: acc stays in registers
                acc = 0;
                low = std::clamp(biased - kRunRoomBelow, 1, 0x7FF - int(kRunMaxShift) - 1);
                shift = static_cast<unsigned>(biased - low);
            }
            // The signed significand, shifted into place (shift < 64).
            const int64_t sign = static_cast<int64_t>(bits) >> 63;
            const int64_t m =
                ((static_cast<int64_t>(bits & ((uint64_t(1) << 52) - 1)) | (int64_t(1) << 52)) ^
                 sign) -
                sign;
            acc += static_cast<__int128>(m) << (shift & 63);
        });
        addFixed(acc, low);
    }
    /**
     * Adds the `n` doubles at `v` as addDouble() of each, when they are finite, none is
     * subnormal and their binary orders span few enough bits for an error-free split
     * (below): then true. Else false, and nothing was added (the caller adds them another way).
     * Each value splits exactly into a high part, a multiple of ulp(sigma) / 2 for sigma = 2^k
     * above n times the largest value, and a low part; both parts' sums are exact in double
     * arithmetic in any order (every partial sum is a multiple of its part's unit within 53
     * bits of it), so four independent lanes each sum them, and the two totals go in as two
     * terms. For a column's run of similar values (a bucket's), about four flops per value.
     */
    bool addDoubleArray(const double* v, size_t n);
    /** False while nothing but zeros was added (cheap; isZero() also sees cancellation). */
    bool anyAdded() const {
        return _placed || _wide || _nan || _posInf || _negInf;
    }
    /** True when nothing but zeros was added (or the additions cancelled exactly). */
    bool isZero() const;
    /** The sum rounded to the nearest double (ties to even); +-inf when beyond; NaN. */
    double toDouble() const;
    /** The sum when it is an integer within int64 (no infinity or NaN was added). */
    std::optional<int64_t> toInt64() const;
    /**
     * The state as words (toWords) and back: addWords() adds a state toWords() made; false
     * (nothing added) for words it cannot have made.
     */
    std::vector<int64_t> toWords() const;
    bool addWords(const std::vector<int64_t>& words);
    /** Heap bytes held (the wide form). */
    size_t heapBytes() const {
        return _wide ? kDigits * sizeof(int64_t) : 0;
    }

private:
    static constexpr int kDigits = 70;  // 2^(32 * 69) > 2^31 * 2^1024 * 2^1074: room to spare
    static constexpr int kWindow = 8;
    static constexpr int kUnitBit = 1074;  // the bit position of 2^0
    static constexpr uint32_t kCarryEvery = uint32_t(1) << 30;
    // A value's three digits start at most here (addWords() keeps to it too).
    static constexpr int kMaxFirstDigit = kDigits - 3;

    // addDoubleRun(): terms below 2^(53 + kRunMaxShift) = 2^101, at most 2^25 of them:
    // |acc| < 2^126.
    static constexpr unsigned kRunMaxShift = 48;
    static constexpr size_t kRunMaxAdds = size_t(1) << 25;
    static constexpr int kRunRoomBelow = 30;  // binary orders below the value that places it
    /** Adds addDoubleRun()'s accumulator, whose bit 0 weighs 2^(low - 1075). */
    void addFixed(__int128 acc, int low);

    /** Adds (or subtracts) m * 2^(bit - 1074), m < 2^64, bit in [0, 32 * kMaxFirstDigit]. */
    void addMagnitude(uint64_t m, int bit, bool neg) {
        const int k = bit >> 5;
        const unsigned __int128 t = static_cast<unsigned __int128>(m) << (bit & 31);
        int i = k - _base;
        if (!_wide && (i < 0 || i > kWindow - 3))
            i = place(k);
        int64_t* d = digits();
        const int64_t sign = -static_cast<int64_t>(neg);  // 0 or -1: x ^ sign - sign = +-x
        d[i] += (static_cast<int64_t>(static_cast<uint32_t>(t)) ^ sign) - sign;
        d[i + 1] += (static_cast<int64_t>(static_cast<uint32_t>(t >> 32)) ^ sign) - sign;
        d[i + 2] += (static_cast<int64_t>(static_cast<uint64_t>(t >> 64)) ^ sign) - sign;
        if (++_adds >= kCarryEvery)
            carry();
    }
    void addSpecial(bool nan, bool neg);
    /** Makes digit `k` (and the two above) addressable; returns its index in digits(). */
    int place(int k);
    /** Moves the window to all kDigits digits on the heap. */
    void widen();
    /** Moves carries up so that every digit but the top one is in [0, 2^32). */
    void carry();
    int64_t* digits() {
        return _wide ? _heap.data() : _window;
    }
    const int64_t* digits() const {
        return _wide ? _heap.data() : _window;
    }
    /**
     * The sum's sign and magnitude in kDigits base-2^32 digits (absolute positions); those
     * from `*end` up are zero.
     */
    bool magnitude(uint32_t* out, int* end) const;

    int64_t _window[kWindow] = {};
    std::vector<int64_t> _heap;  // kDigits digits once _wide
    int _base = 0;               // the window's first digit (0 once wide)
    bool _wide = false;
    bool _placed = false;  // the window has been positioned
    uint32_t _adds = 0;    // additions since the last carry()
    uint8_t _nan = 0, _posInf = 0, _negInf = 0;
    uint8_t _terms = 0;  // nonzero finite terms added, up to 2 (2: also any other addition)
    double _single = 0;  // the one term when _terms is 1 (from addDouble())
};

}  // namespace mongo
