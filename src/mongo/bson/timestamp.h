// Timestamp: the BSON timestamp type (seconds in the high 32 bits, an increment in the low).
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace mongo {

class Timestamp {
public:
    constexpr Timestamp() = default;
    constexpr Timestamp(std::uint32_t secs, std::uint32_t inc) : _secs(secs), _inc(inc) {}
    static constexpr Timestamp fromULL(unsigned long long v) {
        return Timestamp(static_cast<std::uint32_t>(v >> 32), static_cast<std::uint32_t>(v));
    }
    constexpr unsigned long long asULL() const {
        return (static_cast<unsigned long long>(_secs) << 32) | _inc;
    }
    constexpr std::uint32_t getSecs() const {
        return _secs;
    }
    constexpr std::uint32_t getInc() const {
        return _inc;
    }
    constexpr bool isNull() const {
        return _secs == 0 && _inc == 0;
    }
    constexpr auto operator<=>(const Timestamp& o) const {
        return asULL() <=> o.asULL();
    }
    constexpr bool operator==(const Timestamp& o) const = default;
    std::string toString() const {
        return "Timestamp(" + std::to_string(_secs) + ", " + std::to_string(_inc) + ")";
    }

private:
    std::uint32_t _secs = 0;
    std::uint32_t _inc = 0;
};

}  // namespace mongo
