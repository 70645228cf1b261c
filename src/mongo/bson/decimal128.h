// Decimal128: an IEEE 754-2008 128-bit decimal (BID encoding, as BSON stores it).
// Arithmetic, conversion and comparison go through Intel's decimal floating-point
// library (libbidgcc000: arguments by value, rounding mode and flags per call);
// string parsing and printing use libbson so the text forms stay as they were.
//
// Operations that can round take a RoundingMode (ties-to-even by default) and, in
// the overloads with a `signalingFlags` pointer, OR the IEEE signals they raise
// (kInvalid, kInexact, ...) into *signalingFlags.
#pragma once

#include <cstdint>
#include <string>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

namespace mongo {

class Decimal128 {
public:
    struct Value {
        std::uint64_t low64 = 0;
        std::uint64_t high64 = 0;
    };

    enum RoundingMode {
        kRoundTiesToEven = 0,
        kRoundTowardNegative = 1,
        kRoundTowardPositive = 2,
        kRoundTowardZero = 3,
        kRoundTiesToAway = 4,
    };

    /** How many significant digits a double keeps when it becomes a decimal. */
    enum RoundingPrecision { kRoundTo15Digits = 0, kRoundTo34Digits = 1 };

    /** IEEE signals, as the library reports them. */
    enum SignalingFlag : std::uint32_t {
        kNoFlag = 0x00,
        kInvalid = 0x01,
        kDenormal = 0x02,
        kDivideByZero = 0x04,
        kOverflow = 0x08,
        kUnderflow = 0x10,
        kInexact = 0x20,
    };
    static bool hasFlag(std::uint32_t signalingFlags, SignalingFlag f) {
        return (signalingFlags & f) != 0;
    }

    static const Decimal128 kLargestPositive;   // 9999...9 (34 digits) E+6111
    static const Decimal128 kSmallestPositive;  // 1E-6176
    static const Decimal128 kLargestNegative;
    static const Decimal128 kSmallestNegative;
    static const Decimal128 kPositiveInfinity;
    static const Decimal128 kNegativeInfinity;
    static const Decimal128 kPositiveNaN;
    static const Decimal128 kNegativeNaN;
    static const Decimal128 kNormalizedZero;  // 0E+0

    Decimal128() = default;  // 0E-6176, prints as "0E-6176"
    explicit Decimal128(Value v) : _v(v) {}
    explicit Decimal128(int v);
    explicit Decimal128(long v);
    explicit Decimal128(long long v);
    /**
     * A double becomes a decimal rounded to 15 significant digits by default (0.1 ->
     * 0.100000000000000, 1.0 -> 1.00000000000000); kRoundTo34Digits keeps 34.
     * Zero, infinities and NaN convert as they are.
     */
    explicit Decimal128(double d, RoundingPrecision precision = kRoundTo15Digits,
                        RoundingMode mode = kRoundTiesToEven);

    /** Parses a decimal string ("1.5", "-Inf", "NaN", "1E+10"); FailedToParse otherwise. */
    static StatusWith<Decimal128> parse(StringData s);
    static Decimal128 fromDouble(double d) {
        return Decimal128(d);
    }
    static Decimal128 fromInt64(long long v) {
        return Decimal128(v);
    }

    static constexpr int kExponentBias = 6176;

    Value getValue() const {
        return _v;
    }
    /** The stored exponent plus kExponentBias (meaningless for NaN and infinities). */
    std::uint32_t getBiasedExponent() const;
    /** 1E<exponent> (e.g. makeQuantum(-2) is 0.01), for quantize(). */
    static Decimal128 makeQuantum(int exponent);
    std::string toString() const;

    // Classification.
    bool isZero() const;
    bool isNaN() const;
    bool isInfinite() const;
    bool isNegative() const;  // sign bit (true for -0 and -NaN too)
    bool isFinite() const {
        return !isNaN() && !isInfinite();
    }

    // Conversions. The plain forms return the library's result (INT_MIN / LLONG_MIN on
    // NaN or overflow); the flag forms also report kInvalid for those. The *Exact forms
    // additionally report kInexact when the value had a fractional part.
    std::int32_t toInt(RoundingMode mode = kRoundTiesToEven) const;
    std::int32_t toInt(std::uint32_t* signalingFlags, RoundingMode mode = kRoundTiesToEven) const;
    std::int64_t toLong(RoundingMode mode = kRoundTiesToEven) const;
    std::int64_t toLong(std::uint32_t* signalingFlags, RoundingMode mode = kRoundTiesToEven) const;
    std::int32_t toIntExact(std::uint32_t* signalingFlags,
                            RoundingMode mode = kRoundTiesToEven) const;
    std::int64_t toLongExact(std::uint32_t* signalingFlags,
                             RoundingMode mode = kRoundTiesToEven) const;
    double toDouble(RoundingMode mode = kRoundTiesToEven) const;
    double toDouble(std::uint32_t* signalingFlags, RoundingMode mode = kRoundTiesToEven) const;

    // Sign.
    Decimal128 negate() const;
    Decimal128 toAbs() const;
    Decimal128 abs() const {
        return toAbs();
    }

    // Arithmetic.
    Decimal128 add(const Decimal128& o, RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 add(const Decimal128& o, std::uint32_t* signalingFlags,
                   RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 subtract(const Decimal128& o, RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 subtract(const Decimal128& o, std::uint32_t* signalingFlags,
                        RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 multiply(const Decimal128& o, RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 multiply(const Decimal128& o, std::uint32_t* signalingFlags,
                        RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 divide(const Decimal128& o, RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 divide(const Decimal128& o, std::uint32_t* signalingFlags,
                      RoundingMode mode = kRoundTiesToEven) const;
    /** The remainder of truncating division (sign of *this), as fmod. */
    Decimal128 modulo(const Decimal128& o) const;
    Decimal128 modulo(const Decimal128& o, std::uint32_t* signalingFlags) const;
    Decimal128 power(const Decimal128& o, RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 power(const Decimal128& o, std::uint32_t* signalingFlags,
                     RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 exponential(RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 exponential(std::uint32_t* signalingFlags,
                           RoundingMode mode = kRoundTiesToEven) const;
    /** Natural logarithm. */
    Decimal128 logarithm(RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 logarithm(std::uint32_t* signalingFlags, RoundingMode mode = kRoundTiesToEven) const;
    /** Logarithm in `base` (exact library log10 when base is 10). */
    Decimal128 logarithm(const Decimal128& base, RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 logarithm(const Decimal128& base, std::uint32_t* signalingFlags,
                         RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 log10(RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 squareRoot(RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 squareRoot(std::uint32_t* signalingFlags,
                          RoundingMode mode = kRoundTiesToEven) const;

    // Rounding to an integral value (keeping the exponent at most 0).
    Decimal128 round(RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 trunc() const {
        return round(kRoundTowardZero);
    }
    Decimal128 floor() const {
        return round(kRoundTowardNegative);
    }
    Decimal128 ceil() const {
        return round(kRoundTowardPositive);
    }
    /** Gives *this the exponent of `reference` (e.g. quantize(1.00) keeps two places). */
    Decimal128 quantize(const Decimal128& reference, RoundingMode mode = kRoundTiesToEven) const;
    Decimal128 quantize(const Decimal128& reference, std::uint32_t* signalingFlags,
                        RoundingMode mode = kRoundTiesToEven) const;
    /** The same value with trailing zeros removed from the coefficient (zero -> 0E+0). */
    Decimal128 normalize() const;
    /** Multiplies by 10^n exactly where representable. */
    Decimal128 scaleByPowerOfTen(int n) const;

    // IEEE comparisons (any NaN operand: false, except isNotEqual).
    bool isEqual(const Decimal128& o) const;
    bool isNotEqual(const Decimal128& o) const;
    bool isGreater(const Decimal128& o) const;
    bool isGreaterEqual(const Decimal128& o) const;
    bool isLess(const Decimal128& o) const;
    bool isLessEqual(const Decimal128& o) const;

    /** The exact bit pattern (not the value) matches. */
    bool isBinaryEqual(const Decimal128& o) const {
        return _v.low64 == o._v.low64 && _v.high64 == o._v.high64;
    }

private:
    Value _v;
};

/**
 * Total order for BSON comparisons: <0, 0, >0. NaNs (any sign or payload) equal each
 * other and order below every other number; 0 == -0; 1.0 == 1.00.
 */
int compareDecimals(const Decimal128& l, const Decimal128& r);
/** Exact comparison of a decimal with a double (no rounding of either side). */
int compareDecimalToDouble(const Decimal128& l, double r);
/** Exact comparison of a decimal with a 64-bit integer. */
int compareDecimalToLong(const Decimal128& l, long long r);

}  // namespace mongo
