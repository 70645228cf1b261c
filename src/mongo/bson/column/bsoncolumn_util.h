// Shared pieces of the BSONColumn encoder and decoder: control bytes, double scaling,
// zigzag and the value <-> integer mappings of each BSON type (spec §A.3, §A.5, §A.6).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "mongo/bson/bsontypes.h"
#include "mongo/bson/column/simple8b.h"

namespace mongo::bsoncolumn {

constexpr uint8_t kInterleavedStartLegacy = 0xF0;  // root object, arrays are leaves
constexpr uint8_t kInterleavedStart = 0xF1;        // root object
constexpr uint8_t kInterleavedStartArray = 0xF2;   // root array
constexpr int kScaleRaw = 5;                       // doubles stored as raw IEEE bits

/** Control high nibble per scale index 0..5. */
constexpr uint8_t kControlForScale[6] = {0x90, 0xA0, 0xB0, 0xC0, 0xD0, 0x80};
constexpr double kScaleMultiplier[5] = {1.0, 10.0, 100.0, 10000.0, 100000000.0};

inline bool isLiteralControl(uint8_t c) {
    return (c & 0xE0) == 0 || c == 0x7F || c == 0xFF;
}
inline bool isInterleavedStart(uint8_t c) {
    return c == kInterleavedStartLegacy || c == kInterleavedStart || c == kInterleavedStartArray;
}
/** Scale index of a Simple-8b control byte, or -1 if the byte is not one. */
inline int scaleIndexForControl(uint8_t c) {
    switch (c >> 4) {
        case 0x8:
            return 5;
        case 0x9:
            return 0;
        case 0xA:
            return 1;
        case 0xB:
            return 2;
        case 0xC:
            return 3;
        case 0xD:
            return 4;
        default:
            return -1;
    }
}

inline uint64_t zigzag(int64_t d) {
    return (uint64_t(d) << 1) ^ uint64_t(d >> 63);
}
inline int64_t unzigzag(uint64_t u) {
    return int64_t((u >> 1) ^ (~(u & 1) + 1));
}
inline uint128_t zigzag128(uint128_t d) {
    const uint128_t sign = (d >> 127) ? ~uint128_t(0) : uint128_t(0);
    return (d << 1) ^ sign;
}
inline uint128_t unzigzag128(uint128_t u) {
    return (u >> 1) ^ (~(u & 1) + 1);
}

inline int64_t doubleBits(double v) {
    int64_t r;
    std::memcpy(&r, &v, 8);
    return r;
}
inline double bitsDouble(int64_t r) {
    double v;
    std::memcpy(&v, &r, 8);
    return v;
}

/** The integer of `v` at scale `i`, if it round-trips bit-exactly (§A.6). */
inline std::optional<int64_t> encodeDouble(double v, int i) {
    if (i == kScaleRaw)
        return doubleBits(v);
    const double p = v * kScaleMultiplier[i];
    constexpr double kLimit = 9007199254740992.0;  // 2^53
    if (!(p >= -kLimit && p <= kLimit))
        return std::nullopt;
    // llround without the libm call: |p| <= 2^53, so the truncation and p - t are exact.
    int64_t r = int64_t(p);
    const double frac = p - double(r);
    if (frac >= 0.5)
        ++r;
    else if (frac <= -0.5)
        --r;
    if (doubleBits(double(r) / kScaleMultiplier[i]) != doubleBits(v))
        return std::nullopt;
    return r;
}
inline double decodeDouble(int64_t r, int i) {
    return i == kScaleRaw ? bitsDouble(r) : double(r) / kScaleMultiplier[i];
}
/** Smallest scale >= from at which `v` encodes, with the integer. */
inline std::pair<int64_t, int> bestScaleEncode(double v, int from) {
    for (int i = from; i < kScaleRaw; ++i) {
        if (auto r = encodeDouble(v, i))
            return {*r, i};
    }
    return {doubleBits(v), kScaleRaw};
}

/** Types stored as delta-of-delta. */
inline bool usesDeltaOfDelta(BSONType t) {
    return t == BSONType::kOid || t == BSONType::kDate || t == BSONType::kTimestamp;
}
/** Types using 128-bit Simple-8b streams. */
inline bool uses128bit(BSONType t) {
    return t == BSONType::kString || t == BSONType::kCode || t == BSONType::kBinData ||
           t == BSONType::kNumberDecimal;
}
/** Types with an integer delta representation on 64-bit streams. */
inline bool uses64bitDelta(BSONType t) {
    return t == BSONType::kNumberDouble || t == BSONType::kNumberInt ||
           t == BSONType::kNumberLong || t == BSONType::kBool || t == BSONType::kDate ||
           t == BSONType::kTimestamp || t == BSONType::kOid;
}

/** ObjectId bytes -> the 7-byte interleaved integer (§A.5.3). */
inline int64_t oidToInt(const uint8_t* o) {
    return int64_t(uint64_t(o[11]) | uint64_t(o[3]) << 8 | uint64_t(o[10]) << 16 |
                   uint64_t(o[2]) << 24 | uint64_t(o[9]) << 32 | uint64_t(o[1]) << 40 |
                   uint64_t(o[0]) << 48);
}
/** Writes the timestamp and counter bytes of an ObjectId from its integer. */
inline void intToOid(int64_t e, uint8_t* o) {
    const uint64_t u = uint64_t(e);
    o[11] = uint8_t(u);
    o[3] = uint8_t(u >> 8);
    o[10] = uint8_t(u >> 16);
    o[2] = uint8_t(u >> 24);
    o[9] = uint8_t(u >> 32);
    o[1] = uint8_t(u >> 40);
    o[0] = uint8_t(u >> 48);
}

inline uint128_t readLE128(const char* p) {
    uint64_t lo, hi;
    std::memcpy(&lo, p, 8);
    std::memcpy(&hi, p + 8, 8);
    return (uint128_t(hi) << 64) | lo;
}
inline void writeLE128(char* p, uint128_t v) {
    const uint64_t lo = uint64_t(v), hi = uint64_t(v >> 64);
    std::memcpy(p, &lo, 8);
    std::memcpy(p + 8, &hi, 8);
}

/** String bytes as a big-endian integer; nullopt if longer than 16 or starting with NUL. */
inline std::optional<uint128_t> stringToInt(const char* s, size_t len) {
    if (len > 16 || (len > 0 && s[0] == 0))
        return std::nullopt;
    // Two overlapping big-endian loads (first and last bytes) avoid a per-byte loop.
    if (len >= 8) {
        uint64_t a, b;
        std::memcpy(&a, s, 8);
        std::memcpy(&b, s + len - 8, 8);
        const int lowBits = int(8 * (len - 8));
        const uint128_t low = uint128_t(__builtin_bswap64(b)) & ((uint128_t(1) << lowBits) - 1);
        return (uint128_t(__builtin_bswap64(a)) << lowBits) | low;
    }
    if (len >= 4) {
        uint32_t a, b;
        std::memcpy(&a, s, 4);
        std::memcpy(&b, s + len - 4, 4);
        const int lowBits = int(8 * (len - 4));
        const uint64_t low = uint64_t(__builtin_bswap32(b)) & ((uint64_t(1) << lowBits) - 1);
        return uint128_t((uint64_t(__builtin_bswap32(a)) << lowBits) | low);
    }
    uint64_t v = 0;
    for (size_t i = 0; i < len; ++i)
        v = (v << 8) | uint8_t(s[i]);
    return uint128_t(v);
}
/** Inverse of stringToInt: writes up to 16 bytes, returns the length. */
inline int intToString(uint128_t v, char* out) {
    char le[16];
    writeLE128(le, v);
    int n = 16;
    while (n > 0 && le[n - 1] == 0)
        --n;
    for (int i = 0; i < n; ++i)
        out[i] = le[n - 1 - i];
    return n;
}

/** BinData payload (<= 16 bytes) zero padded, read as little endian. */
inline uint128_t binDataToInt(const char* data, int len) {
    char buf[16] = {};
    std::memcpy(buf, data, size_t(len));
    return readLE128(buf);
}

}  // namespace mongo::bsoncolumn
