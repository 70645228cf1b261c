// Date_t: a BSON UTC datetime (milliseconds since the Unix epoch, signed 64-bit).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace mongo {

class Date_t {
public:
    constexpr Date_t() = default;
    static constexpr Date_t fromMillisSinceEpoch(long long ms) {
        Date_t d;
        d._millis = ms;
        return d;
    }
    static Date_t now();
    static constexpr Date_t max() {
        return fromMillisSinceEpoch(INT64_MAX);
    }
    static constexpr Date_t min() {
        return fromMillisSinceEpoch(INT64_MIN);
    }

    constexpr long long toMillisSinceEpoch() const {
        return _millis;
    }
    /** ISO-8601 in UTC with milliseconds, e.g. 2024-01-02T03:04:05.678Z. */
    std::string toString() const;

    constexpr auto operator<=>(const Date_t&) const = default;
    Date_t operator+(std::chrono::milliseconds d) const {
        return fromMillisSinceEpoch(_millis + d.count());
    }
    Date_t operator-(std::chrono::milliseconds d) const {
        return fromMillisSinceEpoch(_millis - d.count());
    }
    std::chrono::milliseconds operator-(Date_t o) const {
        return std::chrono::milliseconds(_millis - o._millis);
    }

private:
    long long _millis = 0;
};

/** Microseconds from a monotonic clock, for durations. */
long long curTimeMicros64();

}  // namespace mongo
