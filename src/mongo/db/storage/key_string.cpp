// KeyString encoding; the byte layout is documented in README.md ("KeyString").
#include "mongo/db/storage/key_string.h"

#include <cmath>
#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"
#include "mongo/util/assert_util.h"

namespace mongo {

Ordering Ordering::make(const BSONObj& keyPattern) {
    std::uint32_t bits = 0;
    int i = 0;
    for (auto e : keyPattern) {
        if (i >= 32)
            break;
        if (e.isNumber() && e.numberDouble() < 0)
            bits |= (1u << i);
        ++i;
    }
    return Ordering(bits);
}

namespace key_string {
namespace {

// Top-level value type bytes, in canonical order (README.md).
enum CType : unsigned char {
    kMinKey = 10,
    kUndefined = 15,
    kNull = 20,
    kNumNaN = 30,
    kNumNeg = 31,
    kNumZero = 32,
    kNumPos = 33,
    kStringLike = 60,
    kObject = 70,
    kArray = 80,
    kBinData = 90,
    kOid = 100,
    kBoolFalse = 110,
    kBoolTrue = 111,
    kDate = 120,
    kTimestamp = 130,
    kRegEx = 140,
    kDBRef = 150,
    kCode = 160,
    kCodeWScope = 170,
    kMaxKey = 240,
};
constexpr unsigned char kEnd = 4;
constexpr unsigned char kLess = 3;
constexpr unsigned char kGreater = 0xFE;
constexpr unsigned char kEndOfObject = 0;
// After a number's magnitude: an inexact decimal's tie-break follows. No byte that
// can follow a number (rank bytes, 0x00, type bytes, discriminators) is 0xFF.
constexpr unsigned char kDecimalTieBreak = 0xFF;

// Type-bit codes (one byte per number or string-rank value, in encoding order).
constexpr char kTbInt = 'i', kTbLong = 'l', kTbDouble = 'd', kTbNegZero = 'z', kTbDecimal = 'D',
               kTbString = 's', kTbSymbol = 'y';

constexpr double k2Pow64 = 18446744073709551616.0;

void appendBE64(std::string& out, std::uint64_t v) {
    for (int i = 7; i >= 0; --i)
        out.push_back(static_cast<char>((v >> (i * 8)) & 0xff));
}
void appendBE32(std::string& out, std::uint32_t v) {
    for (int i = 3; i >= 0; --i)
        out.push_back(static_cast<char>((v >> (i * 8)) & 0xff));
}
std::uint64_t doubleBits(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}

void appendEscapedString(std::string& out, StringData s) {
    for (char c : s) {
        out.push_back(c);
        if (c == 0)
            out.push_back(static_cast<char>(0xff));
    }
    out.push_back(0);
    out.push_back(0);
}

/** Magnitude of a nonzero finite-or-infinite number: integer part and fraction. */
void appendMagnitude(std::string& out, std::uint64_t intPart, double frac, bool big, double m) {
    if (big) {
        out.push_back(9);
        appendBE64(out, doubleBits(m));
        return;
    }
    int n = 0;
    for (std::uint64_t v = intPart; v; v >>= 8)
        ++n;
    out.push_back(static_cast<char>(n));
    for (int i = n - 1; i >= 0; --i)
        out.push_back(static_cast<char>((intPart >> (i * 8)) & 0xff));
    if (frac == 0) {
        out.push_back(0);
    } else {
        out.push_back(1);
        appendBE64(out, doubleBits(frac));
    }
}

void appendSigned(std::string& out, bool negative, std::uint64_t intPart, double frac, bool big,
                  double m) {
    out.push_back(static_cast<char>(negative ? kNumNeg : kNumPos));
    std::size_t start = out.size();
    appendMagnitude(out, intPart, frac, big, m);
    if (negative)
        for (std::size_t i = start; i < out.size(); ++i)
            out[i] = static_cast<char>(~out[i]);
}

void appendDoubleValue(std::string& out, double d) {
    if (std::isnan(d)) {
        out.push_back(static_cast<char>(kNumNaN));
        return;
    }
    if (d == 0) {
        out.push_back(static_cast<char>(kNumZero));
        return;
    }
    double m = std::fabs(d);
    if (m >= k2Pow64) {
        appendSigned(out, d < 0, 0, 0, true, m);
        return;
    }
    double ip = std::floor(m);
    appendSigned(out, d < 0, static_cast<std::uint64_t>(ip), m - ip, false, m);
}

void appendIntegerValue(std::string& out, long long v) {
    if (v == 0) {
        out.push_back(static_cast<char>(kNumZero));
        return;
    }
    std::uint64_t m = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    appendSigned(out, v < 0, m, 0, false, 0);
}

/** A magnitude point of the number encoding: integer part + double fraction, or big. */
struct MagPoint {
    std::uint64_t intPart = 0;
    double frac = 0;
    bool big = false;
    double bigValue = 0;
};

void appendMagPoint(std::string& out, const MagPoint& p) {
    appendMagnitude(out, p.intPart, p.frac, p.big, p.bigValue);
}

/**
 * The exact-order tie-break of an inexact decimal magnitude: the adjusted exponent
 * (biased, uint16 BE) and the coefficient scaled to 34 digits (15 bytes BE). Equal
 * values in different cohorts (1.50, 1.5) give the same bytes.
 */
void appendDecimalTieBreak(std::string& out, const Decimal128& m) {
    Decimal128::Value v = m.getValue();
    unsigned __int128 coeff;
    int exponent;
    if (((v.high64 >> 61) & 3) == 3) {
        // Non-canonical large-coefficient form: only reachable for zero (handled earlier).
        coeff = 0;
        exponent = static_cast<int>((v.high64 >> 47) & 0x3fff);
    } else {
        coeff = (static_cast<unsigned __int128>(v.high64 & 0x1ffffffffffffull) << 64) | v.low64;
        exponent = static_cast<int>((v.high64 >> 49) & 0x3fff);
    }
    unsigned __int128 pow = 1;
    int digits = 0;
    while (digits < 34 && pow <= coeff) {
        pow *= 10;
        ++digits;
    }
    for (int i = digits; i < 34; ++i)
        coeff *= 10;
    std::uint32_t adjusted = static_cast<std::uint32_t>(exponent + digits - 1);
    out.push_back(static_cast<char>((adjusted >> 8) & 0xff));
    out.push_back(static_cast<char>(adjusted & 0xff));
    for (int i = 14; i >= 0; --i)
        out.push_back(static_cast<char>(static_cast<std::uint64_t>(coeff >> (i * 8)) & 0xff));
}

/** floor(m) as uint64 for 0 <= m < 2^64. */
std::uint64_t decimalFloorToU64(const Decimal128& m) {
    static const Decimal128 k2Pow63 =
        Decimal128(static_cast<long long>(INT64_MAX)).add(Decimal128(1));
    Decimal128 ip = m.floor();
    if (ip.isLess(k2Pow63))
        return static_cast<std::uint64_t>(ip.toLong());
    return static_cast<std::uint64_t>(ip.subtract(k2Pow63).toLong()) + (1ull << 63);
}

/**
 * Locates magnitude `m` (finite, > 0) among the encodable points: `lower` is the
 * largest point <= m and `upper` the smallest point > m. Returns true when m is
 * exactly `lower`.
 */
bool locateDecimal(const Decimal128& m, MagPoint* lower, MagPoint* upper) {
    std::uint32_t flags = 0;
    if (compareDecimalToDouble(m, k2Pow64) >= 0) {
        double md = m.toDouble(&flags, Decimal128::kRoundTowardZero);
        lower->big = upper->big = true;
        lower->bigValue = md;
        upper->bigValue = std::nextafter(md, HUGE_VAL);
        return !Decimal128::hasFlag(flags, Decimal128::kInexact) &&
               !Decimal128::hasFlag(flags, Decimal128::kOverflow);
    }
    std::uint64_t ip = decimalFloorToU64(m);
    Decimal128 ipDec = m.floor();
    Decimal128 f = m.subtract(ipDec);
    lower->intPart = ip;
    if (f.isZero())
        return true;
    double fd = f.toDouble(&flags, Decimal128::kRoundTowardZero);
    lower->frac = fd;
    if (!Decimal128::hasFlag(flags, Decimal128::kInexact))
        return true;
    double next = std::nextafter(fd, 1.0);
    if (next < 1.0) {
        upper->intPart = ip;
        upper->frac = next;
    } else if (ip + 1 != 0) {
        upper->intPart = ip + 1;
    } else {
        upper->big = true;
        upper->bigValue = k2Pow64;
    }
    return false;
}

/**
 * A decimal: its exact value when that is an encodable point (then the bytes equal
 * those of an equal int, long or double); otherwise a key strictly between the two
 * neighbouring points: the neighbour nearer zero (positive) or farther from zero
 * (negative), 0xFF (above any byte that can follow a number), and the tie-break
 * (inverted for negative values). README.md ("KeyString").
 */
void appendDecimalValue(std::string& out, const Decimal128& d) {
    if (d.isNaN()) {
        out.push_back(static_cast<char>(kNumNaN));
        return;
    }
    if (d.isZero()) {
        out.push_back(static_cast<char>(kNumZero));
        return;
    }
    if (d.isInfinite()) {
        appendDoubleValue(out, d.isNegative() ? -HUGE_VAL : HUGE_VAL);
        return;
    }
    bool negative = d.isNegative();
    Decimal128 m = d.toAbs();
    MagPoint lower, upper;
    bool exact = locateDecimal(m, &lower, &upper);
    out.push_back(static_cast<char>(negative ? kNumNeg : kNumPos));
    std::size_t start = out.size();
    appendMagPoint(out, exact || !negative ? lower : upper);
    if (negative)
        for (std::size_t i = start; i < out.size(); ++i)
            out[i] = static_cast<char>(~out[i]);
    if (exact)
        return;
    out.push_back(static_cast<char>(kDecimalTieBreak));
    std::size_t tbStart = out.size();
    appendDecimalTieBreak(out, m);
    if (negative)
        for (std::size_t i = tbStart; i < out.size(); ++i)
            out[i] = static_cast<char>(~out[i]);
}

int rankByte(BSONType t) {
    return canonicalizeBSONType(t) + 2;
}

void appendValue(std::string& out, TypeBits& tb, const BSONElement& e);

void appendObjectBody(std::string& out, TypeBits& tb, const BSONObj& o, bool withNames) {
    for (auto e : o) {
        out.push_back(static_cast<char>(rankByte(e.type())));
        if (withNames) {
            StringData n = e.fieldNameStringData();
            out.append(n.data(), n.size());
            out.push_back(0);
        }
        appendValue(out, tb, e);
    }
    out.push_back(static_cast<char>(kEndOfObject));
}

void appendValue(std::string& out, TypeBits& tb, const BSONElement& e) {
    switch (e.type()) {
        case BSONType::kMinKey:
            out.push_back(static_cast<char>(kMinKey));
            return;
        case BSONType::kMaxKey:
            out.push_back(static_cast<char>(kMaxKey));
            return;
        case BSONType::kEOO:
        case BSONType::kUndefined:
            out.push_back(static_cast<char>(kUndefined));
            return;
        case BSONType::kNull:
            out.push_back(static_cast<char>(kNull));
            return;
        case BSONType::kNumberInt:
            tb.push_back(kTbInt);
            appendIntegerValue(out, e._numberInt());
            return;
        case BSONType::kNumberLong:
            tb.push_back(kTbLong);
            appendIntegerValue(out, e._numberLong());
            return;
        case BSONType::kNumberDouble: {
            double d = e._numberDouble();
            tb.push_back(d == 0 && std::signbit(d) ? kTbNegZero : kTbDouble);
            appendDoubleValue(out, d);
            return;
        }
        case BSONType::kNumberDecimal: {
            tb.push_back(kTbDecimal);
            tb.append(e.value(), 16);
            appendDecimalValue(out, e._numberDecimal());
            return;
        }
        case BSONType::kString:
        case BSONType::kSymbol:
            tb.push_back(e.type() == BSONType::kString ? kTbString : kTbSymbol);
            out.push_back(static_cast<char>(kStringLike));
            appendEscapedString(out, e.valueStringData());
            return;
        case BSONType::kCode:
            out.push_back(static_cast<char>(kCode));
            appendEscapedString(out, e.valueStringData());
            return;
        case BSONType::kObject:
            out.push_back(static_cast<char>(kObject));
            appendObjectBody(out, tb, e.embeddedObject(), true);
            return;
        case BSONType::kArray:
            out.push_back(static_cast<char>(kArray));
            appendObjectBody(out, tb, e.embeddedObject(), false);
            return;
        case BSONType::kBinData: {
            int len;
            const char* d = e.binData(len);
            out.push_back(static_cast<char>(kBinData));
            appendBE32(out, static_cast<std::uint32_t>(len));
            out.push_back(static_cast<char>(e.binDataType()));
            out.append(d, len);
            return;
        }
        case BSONType::kOid:
            out.push_back(static_cast<char>(kOid));
            out.append(e.value(), 12);
            return;
        case BSONType::kBool:
            out.push_back(static_cast<char>(e.boolean() ? kBoolTrue : kBoolFalse));
            return;
        case BSONType::kDate:
            out.push_back(static_cast<char>(kDate));
            appendBE64(out,
                       static_cast<std::uint64_t>(e.date().toMillisSinceEpoch()) ^ (1ull << 63));
            return;
        case BSONType::kTimestamp:
            out.push_back(static_cast<char>(kTimestamp));
            appendBE64(out, e.timestamp().asULL());
            return;
        case BSONType::kRegEx: {
            out.push_back(static_cast<char>(kRegEx));
            out.append(e.regex());
            out.push_back(0);
            out.append(e.regexFlags());
            out.push_back(0);
            return;
        }
        case BSONType::kDBRef: {
            out.push_back(static_cast<char>(kDBRef));
            int sz = e.valuestrsize();
            appendBE32(out, static_cast<std::uint32_t>(sz));
            out.append(e.valuestr(), sz - 1);
            out.append(e.value() + 4 + sz, 12);
            return;
        }
        case BSONType::kCodeWScope: {
            out.push_back(static_cast<char>(kCodeWScope));
            const char* v = e.value();
            int codeSize = readLE<std::int32_t>(v + 4);
            appendEscapedString(out, StringData(v + 8, codeSize - 1));
            appendObjectBody(out, tb, BSONObj(v + 8 + codeSize), true);
            return;
        }
    }
    MONGO_UNREACHABLE;
}

}  // namespace

Builder::Builder(Ordering ord, const BSONObj& key, Discriminator d) {
    int i = 0;
    for (auto e : key) {
        std::size_t start = _buf.size();
        appendValue(_buf, _typeBits, e);
        if (ord.descending(i))
            for (std::size_t j = start; j < _buf.size(); ++j)
                _buf[j] = static_cast<char>(~_buf[j]);
        ++i;
    }
    switch (d) {
        case Discriminator::kInclusive:
            _buf.push_back(static_cast<char>(kEnd));
            break;
        case Discriminator::kExcludeBefore:
            _buf.push_back(static_cast<char>(kLess));
            break;
        case Discriminator::kExcludeAfter:
            _buf.push_back(static_cast<char>(kGreater));
            break;
    }
}

void Builder::appendRecordId(RecordId id) {
    _buf += encodeRecordId(id);
}

std::string encodeRecordId(RecordId id) {
    std::string out;
    appendBE64(out, static_cast<std::uint64_t>(id.getLong()) ^ (1ull << 63));
    return out;
}

RecordId decodeRecordId(std::string_view b) {
    invariant(b.size() >= kRecordIdSize);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | static_cast<unsigned char>(b[i]);
    return RecordId(static_cast<std::int64_t>(v ^ (1ull << 63)));
}

std::string_view withoutRecordId(std::string_view key) {
    invariant(key.size() >= kRecordIdSize);
    return key.substr(0, key.size() - kRecordIdSize);
}

RecordId decodeRecordIdAtEnd(std::string_view key) {
    invariant(key.size() >= kRecordIdSize);
    return decodeRecordId(key.substr(key.size() - kRecordIdSize));
}

}  // namespace key_string
}  // namespace mongo
