#include "mongo/bson/decimal128.h"

#include <bson/bson.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mongo {

namespace {
Decimal128 parseOrZero(const std::string& s) {
    auto sw = Decimal128::parse(s);
    return sw.isOK() ? sw.getValue() : Decimal128();
}
}  // namespace

StatusWith<Decimal128> Decimal128::parse(StringData s) {
    std::string str(s);
    bson_decimal128_t d;
    if (!bson_decimal128_from_string(str.c_str(), &d))
        return Status(ErrorCodes::FailedToParse, "Failed to parse string to decimal");
    return Decimal128(Value{d.low, d.high});
}

Decimal128 Decimal128::fromDouble(double v) {
    if (std::isnan(v))
        return parseOrZero("NaN");
    if (std::isinf(v))
        return parseOrZero(v > 0 ? "Infinity" : "-Infinity");
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.15g", v);
    return parseOrZero(buf);
}

Decimal128 Decimal128::fromInt64(long long v) {
    return parseOrZero(std::to_string(v));
}

std::string Decimal128::toString() const {
    bson_decimal128_t d{_v.low64, _v.high64};
    char buf[BSON_DECIMAL128_STRING];
    bson_decimal128_to_string(&d, buf);
    return buf;
}

double Decimal128::toDouble() const {
    std::string s = toString();
    if (s == "NaN" || s == "-NaN")
        return std::nan("");
    if (s == "Infinity")
        return HUGE_VAL;
    if (s == "-Infinity")
        return -HUGE_VAL;
    return std::strtod(s.c_str(), nullptr);
}

bool Decimal128::isNaN() const {
    return (_v.high64 & 0x7C00000000000000ull) == 0x7C00000000000000ull;
}

}  // namespace mongo
