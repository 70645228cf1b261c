#include "mongo/db/matcher/expression_bits.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {

using MT = MatchExpression::MatchType;

/** The value of a number that is an integer representable in 64 bits; nullopt otherwise. */
std::optional<long long> asInt64(const BSONElement& e) {
    switch (e.type()) {
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
            return e.numberLong();
        case BSONType::kNumberDouble: {
            double d = e.numberDouble();
            // 2^63 is the first double past LLONG_MAX; NaN and infinities fail these tests too.
            if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || std::trunc(d) != d)
                return std::nullopt;
            return static_cast<long long>(d);
        }
        case BSONType::kNumberDecimal: {
            std::uint32_t flags = 0;
            long long v = e.numberDecimal().toLongExact(&flags);
            if (flags != 0)  // NaN, infinite, out of range or not an integer
                return std::nullopt;
            return v;
        }
        default:
            return std::nullopt;
    }
}

StringData opName(MT type) {
    switch (type) {
        case MT::kBitsAllSet:
            return "$bitsAllSet";
        case MT::kBitsAllClear:
            return "$bitsAllClear";
        case MT::kBitsAnySet:
            return "$bitsAnySet";
        default:
            return "$bitsAnyClear";
    }
}

Status badValue(std::string msg) {
    return Status(ErrorCodes::BadValue, std::move(msg));
}

}  // namespace

BitTestMatchExpression::BitTestMatchExpression(MatchType type, StringData path,
                                               std::vector<std::uint32_t> positions)
    : PathMatchExpression(type, path, LeafArrayBehavior::kTraverse),
      _positions(std::move(positions)) {}

bool BitTestMatchExpression::matchesSingleElement(const BSONElement& e, MatchDetails*) const {
    std::optional<long long> n;
    int len = 0;
    const unsigned char* bytes = nullptr;
    if (e.type() == BSONType::kBinData) {
        bytes = reinterpret_cast<const unsigned char*>(e.binData(len));
    } else {
        n = asInt64(e);
        if (!n)
            return false;
    }
    auto bit = [&](std::uint32_t p) -> bool {
        if (bytes)
            return p / 8 < static_cast<std::uint32_t>(len) && ((bytes[p / 8] >> (p % 8)) & 1);
        if (p >= 64)
            return *n < 0;  // sign extension
        return (static_cast<unsigned long long>(*n) >> p) & 1;
    };
    const bool wantSet = matchType() == MT::kBitsAllSet || matchType() == MT::kBitsAnySet;
    const bool all = matchType() == MT::kBitsAllSet || matchType() == MT::kBitsAllClear;
    for (std::uint32_t p : _positions) {
        bool hit = bit(p) == wantSet;
        if (all && !hit)
            return false;
        if (!all && hit)
            return true;
    }
    return all;
}

void BitTestMatchExpression::serialize(BSONObjBuilder* out) const {
    BSONObjBuilder sub(out->subobjStart(path()));
    BSONArrayBuilder arr(sub.subarrayStart(opName(matchType())));
    for (std::uint32_t p : _positions)
        arr.append(static_cast<int>(p));
}

bool isBitTestOperator(StringData name) {
    return name == "$bitsAllSet" || name == "$bitsAllClear" || name == "$bitsAnySet" ||
           name == "$bitsAnyClear";
}

StatusWith<std::unique_ptr<MatchExpression>> parseBitTest(StringData path, const BSONElement& op) {
    StringData name = op.fieldNameStringData();
    MT type = name == "$bitsAllSet"     ? MT::kBitsAllSet
              : name == "$bitsAllClear" ? MT::kBitsAllClear
              : name == "$bitsAnySet"   ? MT::kBitsAnySet
                                        : MT::kBitsAnyClear;
    std::vector<std::uint32_t> positions;
    if (op.isNumber()) {
        auto mask = asInt64(op);
        if (!mask)
            return badValue(std::string(name) +
                            " bitmask must be an integer representable as a 64-bit integer: " +
                            op.toString(false));
        if (*mask < 0)
            return badValue(std::string(name) +
                            " bitmask cannot be negative: " + op.toString(false));
        for (std::uint32_t p = 0; p < 64; ++p)
            if ((static_cast<unsigned long long>(*mask) >> p) & 1)
                positions.push_back(p);
    } else if (op.type() == BSONType::kArray) {
        for (auto el : op.Obj()) {
            if (!el.isNumber())
                return badValue(std::string(name) +
                                " bit positions must be numbers, got: " + el.toString(false));
            auto p = asInt64(el);
            if (!p || *p > std::numeric_limits<int>::max())
                return badValue(std::string(name) +
                                " bit positions must be integers representable as a 32-bit "
                                "signed integer: " +
                                el.toString(false));
            if (*p < 0)
                return badValue(std::string(name) +
                                " bit positions cannot be negative: " + el.toString(false));
            positions.push_back(static_cast<std::uint32_t>(*p));
        }
    } else if (op.type() == BSONType::kBinData) {
        int len = 0;
        const auto* bytes = reinterpret_cast<const unsigned char*>(op.binData(len));
        for (int i = 0; i < len; ++i)
            for (int j = 0; j < 8; ++j)
                if ((bytes[i] >> j) & 1)
                    positions.push_back(static_cast<std::uint32_t>(8 * i + j));
    } else {
        return badValue(std::string(name) +
                        " takes an Array, a number, or a BinData but received: " + op.toString());
    }
    return std::unique_ptr<MatchExpression>(
        std::make_unique<BitTestMatchExpression>(type, path, std::move(positions)));
}

}  // namespace mongo
