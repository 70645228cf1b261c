#include "mongo/bson/decimal128.h"

#include <bson/bson.h>

#include <cmath>
#include <cstring>
#include <limits>

// libbidgcc000: arguments by value, rounding mode and flags passed to each call.
#define DECIMAL_CALL_BY_REFERENCE 0
#define DECIMAL_GLOBAL_ROUNDING 0
#define DECIMAL_GLOBAL_EXCEPTION_FLAGS 0
extern "C" {
#include <bid_conf.h>
#include <bid_functions.h>
}

namespace mongo {

namespace {

BID_UINT128 toBid(const Decimal128& d) {
    BID_UINT128 r;
    r.w[0] = d.getValue().low64;
    r.w[1] = d.getValue().high64;
    return r;
}

Decimal128 fromBid(const BID_UINT128& b) {
    return Decimal128(Decimal128::Value{b.w[0], b.w[1]});
}

_IDEC_round bidMode(Decimal128::RoundingMode m) {
    switch (m) {
        case Decimal128::kRoundTiesToEven:
            return BID_ROUNDING_TO_NEAREST;
        case Decimal128::kRoundTowardNegative:
            return BID_ROUNDING_DOWN;
        case Decimal128::kRoundTowardPositive:
            return BID_ROUNDING_UP;
        case Decimal128::kRoundTowardZero:
            return BID_ROUNDING_TO_ZERO;
        case Decimal128::kRoundTiesToAway:
            return BID_ROUNDING_TIES_AWAY;
    }
    return BID_ROUNDING_TO_NEAREST;
}

// Collects library flags and ORs them into the caller's flags (if any).
struct Flags {
    explicit Flags(std::uint32_t* out) : out(out) {}
    ~Flags() {
        if (out)
            *out |= static_cast<std::uint32_t>(f);
    }
    _IDEC_flags* operator&() {
        return &f;
    }
    _IDEC_flags f = 0;
    std::uint32_t* out;
};

constexpr std::uint64_t kCombinationMask = 0x7C00000000000000ull;
constexpr std::uint64_t kNaNBits = 0x7C00000000000000ull;
constexpr std::uint64_t kInfBits = 0x7800000000000000ull;
constexpr std::uint64_t kSignBit = 0x8000000000000000ull;
constexpr std::uint64_t kPositiveZeroHigh = 0x3040000000000000ull;  // 0E+0

template <typename T>
int cmp3(T a, T b) {
    return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace

const Decimal128 Decimal128::kLargestPositive(Value{0x378D8E63FFFFFFFFull, 0x5FFFED09BEAD87C0ull});
const Decimal128 Decimal128::kSmallestPositive(Value{1, 0});
const Decimal128 Decimal128::kLargestNegative(Value{0x378D8E63FFFFFFFFull, 0xDFFFED09BEAD87C0ull});
const Decimal128 Decimal128::kSmallestNegative(Value{1, kSignBit});
const Decimal128 Decimal128::kPositiveInfinity(Value{0, kInfBits});
const Decimal128 Decimal128::kNegativeInfinity(Value{0, kInfBits | kSignBit});
const Decimal128 Decimal128::kPositiveNaN(Value{0, kNaNBits});
const Decimal128 Decimal128::kNegativeNaN(Value{0, kNaNBits | kSignBit});
const Decimal128 Decimal128::kNormalizedZero(Value{0, kPositiveZeroHigh});

Decimal128::Decimal128(int v) {
    *this = fromBid(bid128_from_int32(v));
}

Decimal128::Decimal128(long v) {
    *this = fromBid(bid128_from_int64(static_cast<BID_SINT64>(v)));
}

Decimal128::Decimal128(long long v) {
    *this = fromBid(bid128_from_int64(static_cast<BID_SINT64>(v)));
}

Decimal128::Decimal128(double d, RoundingPrecision precision, RoundingMode mode) {
    _IDEC_flags f = 0;
    BID_UINT128 full = binary64_to_bid128(d, bidMode(mode), &f);
    *this = fromBid(full);
    if (precision == kRoundTo34Digits || d == 0 || std::isnan(d) || std::isinf(d))
        return;
    // Keep 15 significant digits: quantize to 10^(e-14), where e is the exponent of
    // the leading digit; rounding up can carry into a 16th digit (9.99..95 -> 10.0..0),
    // in which case one more step is needed.
    int e = bid128_ilogb(full, &f);
    for (int attempt = 0; attempt < 2; ++attempt) {
        BID_UINT128 quantum =
            bid128_scalbn(bid128_from_int32(1), e - 14, BID_ROUNDING_TO_NEAREST, &f);
        BID_UINT128 q = bid128_quantize(full, quantum, bidMode(mode), &f);
        if (bid128_ilogb(q, &f) == e) {
            *this = fromBid(q);
            return;
        }
        ++e;
    }
}

StatusWith<Decimal128> Decimal128::parse(StringData s) {
    std::string str(s);
    bson_decimal128_t d;
    if (!bson_decimal128_from_string(str.c_str(), &d))
        return Status(ErrorCodes::FailedToParse, "Failed to parse string to decimal");
    return Decimal128(Value{d.low, d.high});
}

std::string Decimal128::toString() const {
    bson_decimal128_t d{_v.low64, _v.high64};
    char buf[BSON_DECIMAL128_STRING];
    bson_decimal128_to_string(&d, buf);
    return buf;
}

std::uint32_t Decimal128::getBiasedExponent() const {
    std::uint64_t hi = _v.high64;
    if ((hi & 0x6000000000000000ull) == 0x6000000000000000ull)
        return static_cast<std::uint32_t>((hi >> 47) & 0x3FFF);
    return static_cast<std::uint32_t>((hi >> 49) & 0x3FFF);
}

Decimal128 Decimal128::makeQuantum(int exponent) {
    std::uint64_t biased = static_cast<std::uint64_t>(exponent + kExponentBias);
    return Decimal128(Value{1, biased << 49});
}

bool Decimal128::isZero() const {
    return bid128_isZero(toBid(*this)) != 0;
}

bool Decimal128::isNaN() const {
    return (_v.high64 & kCombinationMask) == kNaNBits;
}

bool Decimal128::isInfinite() const {
    return (_v.high64 & kCombinationMask) == kInfBits;
}

bool Decimal128::isNegative() const {
    return (_v.high64 & kSignBit) != 0;
}

std::int32_t Decimal128::toInt(RoundingMode mode) const {
    std::uint32_t ignored = 0;
    return toInt(&ignored, mode);
}

std::int32_t Decimal128::toInt(std::uint32_t* signalingFlags, RoundingMode mode) const {
    Flags f(signalingFlags);
    BID_UINT128 x = toBid(*this);
    switch (mode) {
        case kRoundTiesToEven:
            return bid128_to_int32_rnint(x, &f);
        case kRoundTowardNegative:
            return bid128_to_int32_floor(x, &f);
        case kRoundTowardPositive:
            return bid128_to_int32_ceil(x, &f);
        case kRoundTowardZero:
            return bid128_to_int32_int(x, &f);
        case kRoundTiesToAway:
            return bid128_to_int32_rninta(x, &f);
    }
    return bid128_to_int32_rnint(x, &f);
}

std::int32_t Decimal128::toIntExact(std::uint32_t* signalingFlags, RoundingMode mode) const {
    Flags f(signalingFlags);
    BID_UINT128 x = toBid(*this);
    switch (mode) {
        case kRoundTiesToEven:
            return bid128_to_int32_xrnint(x, &f);
        case kRoundTowardNegative:
            return bid128_to_int32_xfloor(x, &f);
        case kRoundTowardPositive:
            return bid128_to_int32_xceil(x, &f);
        case kRoundTowardZero:
            return bid128_to_int32_xint(x, &f);
        case kRoundTiesToAway:
            return bid128_to_int32_xrninta(x, &f);
    }
    return bid128_to_int32_xrnint(x, &f);
}

std::int64_t Decimal128::toLong(RoundingMode mode) const {
    std::uint32_t ignored = 0;
    return toLong(&ignored, mode);
}

std::int64_t Decimal128::toLong(std::uint32_t* signalingFlags, RoundingMode mode) const {
    Flags f(signalingFlags);
    BID_UINT128 x = toBid(*this);
    switch (mode) {
        case kRoundTiesToEven:
            return bid128_to_int64_rnint(x, &f);
        case kRoundTowardNegative:
            return bid128_to_int64_floor(x, &f);
        case kRoundTowardPositive:
            return bid128_to_int64_ceil(x, &f);
        case kRoundTowardZero:
            return bid128_to_int64_int(x, &f);
        case kRoundTiesToAway:
            return bid128_to_int64_rninta(x, &f);
    }
    return bid128_to_int64_rnint(x, &f);
}

std::int64_t Decimal128::toLongExact(std::uint32_t* signalingFlags, RoundingMode mode) const {
    Flags f(signalingFlags);
    BID_UINT128 x = toBid(*this);
    switch (mode) {
        case kRoundTiesToEven:
            return bid128_to_int64_xrnint(x, &f);
        case kRoundTowardNegative:
            return bid128_to_int64_xfloor(x, &f);
        case kRoundTowardPositive:
            return bid128_to_int64_xceil(x, &f);
        case kRoundTowardZero:
            return bid128_to_int64_xint(x, &f);
        case kRoundTiesToAway:
            return bid128_to_int64_xrninta(x, &f);
    }
    return bid128_to_int64_xrnint(x, &f);
}

double Decimal128::toDouble(RoundingMode mode) const {
    std::uint32_t ignored = 0;
    return toDouble(&ignored, mode);
}

double Decimal128::toDouble(std::uint32_t* signalingFlags, RoundingMode mode) const {
    Flags f(signalingFlags);
    return bid128_to_binary64(toBid(*this), bidMode(mode), &f);
}

Decimal128 Decimal128::negate() const {
    return fromBid(bid128_negate(toBid(*this)));
}

Decimal128 Decimal128::toAbs() const {
    return fromBid(bid128_abs(toBid(*this)));
}

#define MONGO_DECIMAL_BINARY_OP(name, fn)                                           \
    Decimal128 Decimal128::name(const Decimal128& o, RoundingMode mode) const {     \
        std::uint32_t ignored = 0;                                                  \
        return name(o, &ignored, mode);                                             \
    }                                                                               \
    Decimal128 Decimal128::name(const Decimal128& o, std::uint32_t* signalingFlags, \
                                RoundingMode mode) const {                          \
        Flags f(signalingFlags);                                                    \
        return fromBid(fn(toBid(*this), toBid(o), bidMode(mode), &f));              \
    }

MONGO_DECIMAL_BINARY_OP(add, bid128_add)
MONGO_DECIMAL_BINARY_OP(subtract, bid128_sub)
MONGO_DECIMAL_BINARY_OP(multiply, bid128_mul)
MONGO_DECIMAL_BINARY_OP(divide, bid128_div)
MONGO_DECIMAL_BINARY_OP(power, bid128_pow)
MONGO_DECIMAL_BINARY_OP(quantize, bid128_quantize)
#undef MONGO_DECIMAL_BINARY_OP

#define MONGO_DECIMAL_UNARY_OP(name, fn)                                                  \
    Decimal128 Decimal128::name(RoundingMode mode) const {                                \
        std::uint32_t ignored = 0;                                                        \
        return name(&ignored, mode);                                                      \
    }                                                                                     \
    Decimal128 Decimal128::name(std::uint32_t* signalingFlags, RoundingMode mode) const { \
        Flags f(signalingFlags);                                                          \
        return fromBid(fn(toBid(*this), bidMode(mode), &f));                              \
    }

MONGO_DECIMAL_UNARY_OP(exponential, bid128_exp)
MONGO_DECIMAL_UNARY_OP(logarithm, bid128_log)
MONGO_DECIMAL_UNARY_OP(squareRoot, bid128_sqrt)
#undef MONGO_DECIMAL_UNARY_OP

Decimal128 Decimal128::modulo(const Decimal128& o) const {
    std::uint32_t ignored = 0;
    return modulo(o, &ignored);
}

Decimal128 Decimal128::modulo(const Decimal128& o, std::uint32_t* signalingFlags) const {
    Flags f(signalingFlags);
    return fromBid(bid128_fmod(toBid(*this), toBid(o), &f));
}

Decimal128 Decimal128::logarithm(const Decimal128& base, RoundingMode mode) const {
    std::uint32_t ignored = 0;
    return logarithm(base, &ignored, mode);
}

Decimal128 Decimal128::logarithm(const Decimal128& base, std::uint32_t* signalingFlags,
                                 RoundingMode mode) const {
    if (base.isEqual(Decimal128(10))) {
        Flags f(signalingFlags);
        return fromBid(bid128_log10(toBid(*this), bidMode(mode), &f));
    }
    return logarithm(signalingFlags, mode)
        .divide(base.logarithm(signalingFlags, mode), signalingFlags, mode);
}

Decimal128 Decimal128::log10(RoundingMode mode) const {
    return logarithm(Decimal128(10), mode);
}

Decimal128 Decimal128::round(RoundingMode mode) const {
    _IDEC_flags f = 0;
    BID_UINT128 x = toBid(*this);
    switch (mode) {
        case kRoundTiesToEven:
            return fromBid(bid128_round_integral_nearest_even(x, &f));
        case kRoundTowardNegative:
            return fromBid(bid128_round_integral_negative(x, &f));
        case kRoundTowardPositive:
            return fromBid(bid128_round_integral_positive(x, &f));
        case kRoundTowardZero:
            return fromBid(bid128_round_integral_zero(x, &f));
        case kRoundTiesToAway:
            return fromBid(bid128_round_integral_nearest_away(x, &f));
    }
    return fromBid(bid128_round_integral_nearest_even(x, &f));
}

Decimal128 Decimal128::normalize() const {
    if (isZero())
        return isNegative() ? kNormalizedZero.negate() : kNormalizedZero;
    if (isNaN() || isInfinite())
        return *this;
    // Strip trailing zeros of the coefficient: read it, count zeros, rescale.
    std::uint64_t hi = _v.high64, lo = _v.low64;
    int exp;
    unsigned __int128 coeff;
    if ((hi & 0x6000000000000000ull) == 0x6000000000000000ull) {
        // Non-canonical large-coefficient form: its value is zero; handled above.
        return *this;
    }
    exp = static_cast<int>((hi >> 49) & 0x3FFF) - 6176;
    coeff = (static_cast<unsigned __int128>(hi & 0x0001FFFFFFFFFFFFull) << 64) | lo;
    while (coeff % 10 == 0 && exp < 6111) {
        coeff /= 10;
        ++exp;
    }
    std::uint64_t nhi = (hi & kSignBit) | (static_cast<std::uint64_t>(exp + 6176) << 49) |
                        static_cast<std::uint64_t>(coeff >> 64);
    return Decimal128(Value{static_cast<std::uint64_t>(coeff), nhi});
}

Decimal128 Decimal128::scaleByPowerOfTen(int n) const {
    _IDEC_flags f = 0;
    return fromBid(bid128_scalbn(toBid(*this), n, BID_ROUNDING_TO_NEAREST, &f));
}

bool Decimal128::isEqual(const Decimal128& o) const {
    _IDEC_flags f = 0;
    return bid128_quiet_equal(toBid(*this), toBid(o), &f) != 0;
}

bool Decimal128::isNotEqual(const Decimal128& o) const {
    _IDEC_flags f = 0;
    return bid128_quiet_not_equal(toBid(*this), toBid(o), &f) != 0;
}

bool Decimal128::isGreater(const Decimal128& o) const {
    _IDEC_flags f = 0;
    return bid128_quiet_greater(toBid(*this), toBid(o), &f) != 0;
}

bool Decimal128::isGreaterEqual(const Decimal128& o) const {
    _IDEC_flags f = 0;
    return bid128_quiet_greater_equal(toBid(*this), toBid(o), &f) != 0;
}

bool Decimal128::isLess(const Decimal128& o) const {
    _IDEC_flags f = 0;
    return bid128_quiet_less(toBid(*this), toBid(o), &f) != 0;
}

bool Decimal128::isLessEqual(const Decimal128& o) const {
    _IDEC_flags f = 0;
    return bid128_quiet_less_equal(toBid(*this), toBid(o), &f) != 0;
}

int compareDecimals(const Decimal128& l, const Decimal128& r) {
    bool ln = l.isNaN(), rn = r.isNaN();
    if (ln || rn)
        return ln && rn ? 0 : (ln ? -1 : 1);
    if (l.isLess(r))
        return -1;
    if (l.isGreater(r))
        return 1;
    return 0;
}

int compareDecimalToLong(const Decimal128& l, long long r) {
    return compareDecimals(l, Decimal128(r));
}

int compareDecimalToDouble(const Decimal128& l, double r) {
    bool ln = l.isNaN(), rn = std::isnan(r);
    if (ln || rn)
        return ln && rn ? 0 : (ln ? -1 : 1);
    // Round the decimal down to a double: if that is exact, compare the doubles;
    // otherwise the decimal lies strictly between `down` and the next double up,
    // and `r` (a double) is on one side of that open interval.
    std::uint32_t flags = 0;
    double down = l.toDouble(&flags, Decimal128::kRoundTowardNegative);
    if (!Decimal128::hasFlag(flags, Decimal128::kInexact))
        return cmp3(down, r);
    return r <= down ? 1 : -1;
}

}  // namespace mongo
