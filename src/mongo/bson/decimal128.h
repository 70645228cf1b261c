// Decimal128: an IEEE 754-2008 128-bit decimal (BID encoding, as BSON stores it).
// Only storage, string conversion and double conversion live here; arithmetic and
// exact comparison come with issue #4 (Intel's decimal library).
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
    Decimal128() = default;
    explicit Decimal128(Value v) : _v(v) {}
    /** Parses a decimal string ("1.5", "-Inf", "NaN", "1E+10"); FailedToParse otherwise. */
    static StatusWith<Decimal128> parse(StringData s);
    static Decimal128 fromDouble(double d);
    static Decimal128 fromInt64(long long v);

    Value getValue() const {
        return _v;
    }
    std::string toString() const;
    double toDouble() const;
    bool isNaN() const;

private:
    Value _v;
};

}  // namespace mongo
