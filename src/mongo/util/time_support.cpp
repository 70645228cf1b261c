#include "mongo/util/time_support.h"

#include <cstdio>
#include <ctime>

namespace mongo {

Date_t Date_t::now() {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
    return fromMillisSinceEpoch(ms);
}

std::string Date_t::toString() const {
    long long ms = _millis;
    long long secs = ms / 1000;
    long long rem = ms % 1000;
    if (rem < 0) {
        rem += 1000;
        secs -= 1;
    }
    time_t t = static_cast<time_t>(secs);
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return std::to_string(ms);
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03lldZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, rem);
    return buf;
}

long long curTimeMicros64() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace mongo
