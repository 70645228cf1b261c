// Time-zone and calendar helpers for the date expressions, over Abseil's time-zone
// support (the system IANA database). A time zone is given as an Olson name
// ("America/New_York"), "UTC"/"GMT", or a UTC offset ("+05:30", "-0800", "+03").
#pragma once

#include <string>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/util/time_support.h"

namespace mongo {

/** The time zone named `spec`. Throws 40485 for an unknown identifier. */
absl::TimeZone parseTimeZone(StringData spec);

inline absl::Time toAbsl(Date_t d) {
    return absl::FromUnixMillis(d.toMillisSinceEpoch());
}
inline Date_t fromAbsl(absl::Time t) {
    return Date_t::fromMillisSinceEpoch(absl::ToUnixMillis(t));
}

/** Floor division (rounds toward negative infinity). */
inline long long floorDiv(long long a, long long b) {
    long long q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

/** Calendar units of $dateTrunc/$dateAdd/$dateDiff. */
enum class TimeUnit { kMillisecond, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kQuarter, kYear };

/** False for an unknown unit name. */
bool parseTimeUnit(StringData s, TimeUnit* out);
/** Milliseconds in one unit (for units up to week). */
long long unitMillis(TimeUnit u);
/** Milliseconds in the longest instance of a unit (a month counts 31 days, a year 366). */
long long longestUnitMillis(TimeUnit u);

/** Day of week 0 = Sunday ... 6 = Saturday from "sunday"/"sun" (case-insensitive); -1 if unknown.
 */
int parseDayOfWeek(StringData s);

/** $dateTrunc's computation. `startOfWeek` is 0 (Sunday) .. 6. */
Date_t truncateDate(Date_t date, TimeUnit unit, long long binSize, const absl::TimeZone& tz,
                    int startOfWeek);

/** Adds `amount` units in `tz` (calendar-aware for day and above). */
Date_t addToDate(Date_t date, TimeUnit unit, long long amount, const absl::TimeZone& tz);

/** Number of unit boundaries crossed from `start` to `end` in `tz` ($dateDiff). */
long long dateDiff(Date_t start, Date_t end, TimeUnit unit, const absl::TimeZone& tz,
                   int startOfWeek);

/**
 * Formats `date` in `tz` with $dateToString's specifiers (%Y %m %d %H %M %S %L %j %w %u
 * %U %V %G %Z %z %b %B %%). Throws 18535 (unknown specifier), 18536 (trailing '%').
 */
std::string formatDate(StringData format, Date_t date, const absl::TimeZone& tz);

/** The default format: "%Y-%m-%dT%H:%M:%S.%LZ". */
constexpr StringData kIsoFormatStringZ = "%Y-%m-%dT%H:%M:%S.%LZ";

/**
 * Parses a date string ($dateFromString/$toDate): ISO 8601 forms ("2021-03-04",
 * "2021-03-04T05:06:07[.123][Z|+hh:mm]", also ' ' instead of 'T') or, with `format`,
 * the same specifiers as formatDate. A zone in the string overrides `tz`.
 * ConversionFailure 241 when the string does not parse.
 */
StatusWith<Date_t> parseDateString(StringData s, const absl::TimeZone& tz,
                                   StringData format = StringData());

}  // namespace mongo
