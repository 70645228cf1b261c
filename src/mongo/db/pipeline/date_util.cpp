#include "mongo/db/pipeline/date_util.h"

#include <cctype>
#include <limits>
#include <map>
#include <mutex>

#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

std::string lower(StringData s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/** Parses "+HH", "+HHMM", "+HH:MM" (or '-'); false if not an offset. */
bool parseOffset(StringData s, int* seconds) {
    if (s.size() < 3 || (s[0] != '+' && s[0] != '-'))
        return false;
    std::string digits;
    for (size_t i = 1; i < s.size(); ++i) {
        if (s[i] == ':' && i == 3)
            continue;
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return false;
        digits += s[i];
    }
    if (digits.size() != 2 && digits.size() != 4)
        return false;
    int h = std::stoi(digits.substr(0, 2));
    int m = digits.size() == 4 ? std::stoi(digits.substr(2, 2)) : 0;
    *seconds = (h * 3600 + m * 60) * (s[0] == '-' ? -1 : 1);
    return true;
}

constexpr long long kMillisPerDay = 86400000LL;

}  // namespace

absl::TimeZone parseTimeZone(StringData spec) {
    static std::mutex mutex;
    static std::map<std::string, absl::TimeZone, std::less<>> cache;
    {
        std::lock_guard<std::mutex> lk(mutex);
        auto it = cache.find(spec);
        if (it != cache.end())
            return it->second;
    }
    absl::TimeZone tz;
    int offset = 0;
    if (spec == "UTC" || spec == "GMT" || spec == "Z") {
        tz = absl::UTCTimeZone();
    } else if (parseOffset(spec, &offset)) {
        tz = absl::FixedTimeZone(offset);
    } else {
        uassert(40485, "unrecognized time zone identifier: \"" + std::string(spec) + "\"",
                !spec.empty() && spec.find("..") == StringData::npos &&
                    absl::LoadTimeZone(std::string(spec), &tz));
    }
    std::lock_guard<std::mutex> lk(mutex);
    cache.emplace(std::string(spec), tz);
    return tz;
}

bool parseTimeUnit(StringData s, TimeUnit* out) {
    static const std::map<std::string, TimeUnit, std::less<>> kUnits = {
        {"millisecond", TimeUnit::kMillisecond},
        {"second", TimeUnit::kSecond},
        {"minute", TimeUnit::kMinute},
        {"hour", TimeUnit::kHour},
        {"day", TimeUnit::kDay},
        {"week", TimeUnit::kWeek},
        {"month", TimeUnit::kMonth},
        {"quarter", TimeUnit::kQuarter},
        {"year", TimeUnit::kYear}};
    auto it = kUnits.find(s);
    if (it == kUnits.end())
        return false;
    *out = it->second;
    return true;
}

long long unitMillis(TimeUnit u) {
    switch (u) {
        case TimeUnit::kMillisecond:
            return 1;
        case TimeUnit::kSecond:
            return 1000;
        case TimeUnit::kMinute:
            return 60000;
        case TimeUnit::kHour:
            return 3600000;
        case TimeUnit::kDay:
            return kMillisPerDay;
        case TimeUnit::kWeek:
            return 7 * kMillisPerDay;
        default:
            return 0;
    }
}

int parseDayOfWeek(StringData s) {
    static const char* kNames[] = {"sunday",   "monday", "tuesday", "wednesday",
                                   "thursday", "friday", "saturday"};
    std::string l = lower(s);
    for (int i = 0; i < 7; ++i) {
        std::string full = kNames[i];
        if (l == full || l == full.substr(0, 3))
            return i;
    }
    return -1;
}

namespace {

int weekdayIndex(absl::CivilDay d) {
    switch (absl::GetWeekday(d)) {
        case absl::Weekday::sunday:
            return 0;
        case absl::Weekday::monday:
            return 1;
        case absl::Weekday::tuesday:
            return 2;
        case absl::Weekday::wednesday:
            return 3;
        case absl::Weekday::thursday:
            return 4;
        case absl::Weekday::friday:
            return 5;
        case absl::Weekday::saturday:
            return 6;
    }
    return 0;
}

long long monthsSince2000(absl::CivilSecond cs) {
    return (cs.year() - 2000) * 12 + (cs.month() - 1);
}

}  // namespace

long long longestUnitMillis(TimeUnit u) {
    switch (u) {
        case TimeUnit::kMonth:
            return 31 * kMillisPerDay;
        case TimeUnit::kQuarter:
            return 92 * kMillisPerDay;
        case TimeUnit::kYear:
            return 366 * kMillisPerDay;
        default:
            return unitMillis(u);
    }
}

Date_t truncateDate(Date_t date, TimeUnit unit, long long binSize, const absl::TimeZone& tz,
                    int startOfWeek) {
    absl::Time t = toAbsl(date);
    long long ms = date.toMillisSinceEpoch();
    constexpr long long kRef = 946684800000LL;  // 2000-01-01T00:00:00 (local)
    switch (unit) {
        case TimeUnit::kMillisecond:
        case TimeUnit::kSecond:
        case TimeUnit::kMinute:
        case TimeUnit::kHour: {
            // UTC (the common case) needs no zone lookup.
            long long offsetMs =
                tz == absl::UTCTimeZone() ? 0 : static_cast<long long>(tz.At(t).offset) * 1000;
            // 128-bit: dates near the ends of the range must not overflow.
            __int128 width = static_cast<__int128>(unitMillis(unit)) * binSize;
            __int128 rel = static_cast<__int128>(ms) + offsetMs - kRef;
            __int128 q = rel / width;
            if (rel % width != 0 && rel < 0)
                --q;
            __int128 truncUtc = kRef + q * width - offsetMs;
            uassert(ErrorCodes::Overflow, "$dateTrunc: the truncated date is out of range",
                    truncUtc >= std::numeric_limits<long long>::min() &&
                        truncUtc <= std::numeric_limits<long long>::max());
            if (offsetMs != 0 && std::abs(static_cast<long long>(truncUtc) / 1000) < (1LL << 40)) {
                // The bin starts at a local time whose UTC offset may differ from the date's
                // (a daylight-saving change inside the bin): that local time in UTC.
                long long local = static_cast<long long>(truncUtc) + offsetMs;
                long long sec = local / 1000, rem = local % 1000;
                if (rem < 0) {
                    --sec;
                    rem += 1000;
                }
                absl::CivilSecond cs =
                    absl::ToCivilSecond(absl::FromUnixSeconds(sec), absl::UTCTimeZone());
                long long utcSec = absl::ToUnixSeconds(absl::FromCivil(cs, tz));
                return Date_t::fromMillisSinceEpoch(utcSec * 1000 + rem);
            }
            return Date_t::fromMillisSinceEpoch(static_cast<long long>(truncUtc));
        }
        case TimeUnit::kDay:
        case TimeUnit::kWeek: {
            absl::CivilDay day(absl::ToCivilSecond(t, tz));
            absl::CivilDay ref(2000, 1, 1);
            long long width = binSize;
            if (unit == TimeUnit::kWeek) {
                while (weekdayIndex(ref) != startOfWeek)
                    ref += 1;
                width = 7 * binSize;
            }
            long long days = day - ref;
            absl::CivilDay start = ref + floorDiv(days, width) * width;
            return fromAbsl(absl::FromCivil(absl::CivilSecond(start), tz));
        }
        case TimeUnit::kMonth:
        case TimeUnit::kQuarter:
        case TimeUnit::kYear: {
            long long width = binSize * (unit == TimeUnit::kMonth     ? 1
                                         : unit == TimeUnit::kQuarter ? 3
                                                                      : 12);
            long long months = monthsSince2000(absl::ToCivilSecond(t, tz));
            long long start = floorDiv(months, width) * width;
            absl::CivilMonth m(2000 + floorDiv(start, 12), 1 + (start - floorDiv(start, 12) * 12));
            return fromAbsl(absl::FromCivil(absl::CivilSecond(m), tz));
        }
    }
    return date;
}

Date_t addToDate(Date_t date, TimeUnit unit, long long amount, const absl::TimeZone& tz) {
    absl::Time t = toAbsl(date);
    switch (unit) {
        case TimeUnit::kMillisecond:
        case TimeUnit::kSecond:
        case TimeUnit::kMinute:
        case TimeUnit::kHour:
            return Date_t::fromMillisSinceEpoch(date.toMillisSinceEpoch() +
                                                amount * unitMillis(unit));
        default:
            break;
    }
    auto info = tz.At(t);
    absl::CivilSecond cs = info.cs;
    long long subMs = absl::ToInt64Milliseconds(info.subsecond);
    absl::CivilSecond out;
    if (unit == TimeUnit::kDay || unit == TimeUnit::kWeek) {
        out = cs + amount * 86400 * (unit == TimeUnit::kWeek ? 7 : 1);
        absl::CivilDay d = absl::CivilDay(cs) + amount * (unit == TimeUnit::kWeek ? 7 : 1);
        out = absl::CivilSecond(d.year(), d.month(), d.day(), cs.hour(), cs.minute(), cs.second());
    } else {
        long long months = amount * (unit == TimeUnit::kMonth     ? 1
                                     : unit == TimeUnit::kQuarter ? 3
                                                                  : 12);
        absl::CivilMonth m = absl::CivilMonth(cs) + months;
        // Clamp the day to the last day of the target month.
        int lastDay = (absl::CivilDay(absl::CivilMonth(m) + 1) - 1).day();
        int day = std::min(cs.day(), lastDay);
        out = absl::CivilSecond(m.year(), m.month(), day, cs.hour(), cs.minute(), cs.second());
    }
    return Date_t::fromMillisSinceEpoch(absl::ToUnixMillis(absl::FromCivil(out, tz)) + subMs);
}

long long dateDiff(Date_t start, Date_t end, TimeUnit unit, const absl::TimeZone& tz,
                   int startOfWeek) {
    switch (unit) {
        case TimeUnit::kMillisecond:
            return end.toMillisSinceEpoch() - start.toMillisSinceEpoch();
        case TimeUnit::kSecond:
        case TimeUnit::kMinute:
        case TimeUnit::kHour: {
            long long w = unitMillis(unit);
            auto offS = static_cast<long long>(tz.At(toAbsl(start)).offset) * 1000;
            auto offE = static_cast<long long>(tz.At(toAbsl(end)).offset) * 1000;
            return floorDiv(end.toMillisSinceEpoch() + offE, w) -
                   floorDiv(start.toMillisSinceEpoch() + offS, w);
        }
        case TimeUnit::kDay:
            return absl::CivilDay(absl::ToCivilSecond(toAbsl(end), tz)) -
                   absl::CivilDay(absl::ToCivilSecond(toAbsl(start), tz));
        case TimeUnit::kWeek: {
            Date_t s = truncateDate(start, TimeUnit::kWeek, 1, tz, startOfWeek);
            Date_t e = truncateDate(end, TimeUnit::kWeek, 1, tz, startOfWeek);
            return (absl::CivilDay(absl::ToCivilSecond(toAbsl(e), tz)) -
                    absl::CivilDay(absl::ToCivilSecond(toAbsl(s), tz))) /
                   7;
        }
        default: {
            long long ms = monthsSince2000(absl::ToCivilSecond(toAbsl(start), tz));
            long long me = monthsSince2000(absl::ToCivilSecond(toAbsl(end), tz));
            if (unit == TimeUnit::kMonth)
                return me - ms;
            if (unit == TimeUnit::kQuarter)
                return floorDiv(me, 3) - floorDiv(ms, 3);
            return floorDiv(me, 12) - floorDiv(ms, 12);
        }
    }
}

namespace {

const char* kMonthsShort[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
const char* kMonthsLong[] = {"January", "February", "March",     "April",   "May",      "June",
                             "July",    "August",   "September", "October", "November", "December"};

void pad(std::string* out, long long v, int width) {
    std::string d = std::to_string(v < 0 ? -v : v);
    if (v < 0)
        out->push_back('-');
    for (int i = static_cast<int>(d.size()); i < width; ++i)
        out->push_back('0');
    out->append(d);
}

int isoDow(absl::CivilDay d) {
    return static_cast<int>(absl::GetWeekday(d)) + 1;  // Monday = 1
}

std::pair<int, int> isoWeekYear(absl::CivilDay d) {
    absl::CivilDay thursday = d + (4 - isoDow(d));
    int year = static_cast<int>(thursday.year());
    return {year, static_cast<int>((thursday - absl::CivilDay(year, 1, 1)) / 7) + 1};
}

}  // namespace

std::string formatDate(StringData format, Date_t date, const absl::TimeZone& tz) {
    absl::Time t = toAbsl(date);
    auto info = tz.At(t);
    absl::CivilSecond cs = info.cs;
    absl::CivilDay day(cs);
    long long ms = date.toMillisSinceEpoch() % 1000;
    if (ms < 0)
        ms += 1000;
    std::string out;
    for (size_t i = 0; i < format.size(); ++i) {
        char c = format[i];
        if (c != '%') {
            out.push_back(c);
            continue;
        }
        uassert(18535, "Unmatched '%' at end of format string", i + 1 < format.size());
        char f = format[++i];
        switch (f) {
            case 'Y':
                pad(&out, cs.year(), 4);
                break;
            case 'm':
                pad(&out, cs.month(), 2);
                break;
            case 'd':
                pad(&out, cs.day(), 2);
                break;
            case 'H':
                pad(&out, cs.hour(), 2);
                break;
            case 'M':
                pad(&out, cs.minute(), 2);
                break;
            case 'S':
                pad(&out, cs.second(), 2);
                break;
            case 'L':
                pad(&out, ms, 3);
                break;
            case 'j':
                pad(&out, absl::GetYearDay(day), 3);
                break;
            case 'w':
                pad(&out, isoDow(day) % 7 + 1, 1);
                break;
            case 'u':
                pad(&out, isoDow(day), 1);
                break;
            case 'U': {
                int yday = absl::GetYearDay(day) - 1;
                int dow = isoDow(day) % 7;
                pad(&out, (yday - dow + 7) / 7, 2);
                break;
            }
            case 'V':
                pad(&out, isoWeekYear(day).second, 2);
                break;
            case 'G':
                pad(&out, isoWeekYear(day).first, 4);
                break;
            case 'z': {
                int off = info.offset / 60;
                out.push_back(off < 0 ? '-' : '+');
                pad(&out, std::abs(off) / 60, 2);
                pad(&out, std::abs(off) % 60, 2);
                break;
            }
            case 'Z':
                pad(&out, info.offset / 60, 1);
                break;
            case 'b':
                out += kMonthsShort[cs.month() - 1];
                break;
            case 'B':
                out += kMonthsLong[cs.month() - 1];
                break;
            case '%':
                out.push_back('%');
                break;
            default:
                uasserted(18536,
                          "Invalid format character '%" + std::string(1, f) + "' in format string");
        }
    }
    return out;
}

namespace {

bool readInt(StringData s, size_t* pos, int minDigits, int maxDigits, long long* out) {
    size_t start = *pos;
    bool neg = false;
    if (*pos < s.size() && (s[*pos] == '-' || s[*pos] == '+') && maxDigits > 4) {
        neg = s[*pos] == '-';
        ++*pos;
    }
    long long v = 0;
    int n = 0;
    while (*pos < s.size() && n < maxDigits && std::isdigit(static_cast<unsigned char>(s[*pos]))) {
        v = v * 10 + (s[*pos] - '0');
        ++*pos;
        ++n;
    }
    if (n < minDigits) {
        *pos = start;
        return false;
    }
    *out = neg ? -v : v;
    return true;
}

bool readZone(StringData s, size_t* pos, std::optional<int>* offsetSeconds) {
    if (*pos >= s.size())
        return true;
    char c = s[*pos];
    if (c == 'Z') {
        ++*pos;
        *offsetSeconds = 0;
        return true;
    }
    if (c != '+' && c != '-')
        return false;
    ++*pos;
    long long h = 0, m = 0;
    if (!readInt(s, pos, 2, 2, &h))
        return false;
    if (*pos < s.size() && s[*pos] == ':')
        ++*pos;
    readInt(s, pos, 2, 2, &m);
    *offsetSeconds = static_cast<int>((h * 3600 + m * 60) * (c == '-' ? -1 : 1));
    return true;
}

Status parseFailure(StringData s) {
    return Status(ErrorCodes::ConversionFailure,
                  "Error parsing date string '" + std::string(s) + "'");
}

}  // namespace

StatusWith<Date_t> parseDateString(StringData s, const absl::TimeZone& tz, StringData format) {
    long long year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, millis = 0;
    std::optional<int> offset;
    size_t pos = 0;
    if (!format.empty()) {
        for (size_t i = 0; i < format.size(); ++i) {
            if (format[i] != '%') {
                if (pos >= s.size() || s[pos] != format[i])
                    return parseFailure(s);
                ++pos;
                continue;
            }
            if (++i >= format.size())
                return Status(ErrorCodes::Error(18535), "Unmatched '%' at end of format string");
            bool ok = true;
            switch (format[i]) {
                case 'Y':
                    ok = readInt(s, &pos, 4, 4, &year);
                    break;
                case 'm':
                    ok = readInt(s, &pos, 1, 2, &month);
                    break;
                case 'd':
                    ok = readInt(s, &pos, 1, 2, &day);
                    break;
                case 'H':
                    ok = readInt(s, &pos, 1, 2, &hour);
                    break;
                case 'M':
                    ok = readInt(s, &pos, 1, 2, &minute);
                    break;
                case 'S':
                    ok = readInt(s, &pos, 1, 2, &second);
                    break;
                case 'L':
                    ok = readInt(s, &pos, 1, 3, &millis);
                    break;
                case 'z':
                case 'Z':
                    ok = readZone(s, &pos, &offset);
                    break;
                case '%':
                    ok = pos < s.size() && s[pos++] == '%';
                    break;
                default:
                    return Status(ErrorCodes::Error(18536), "Invalid format character");
            }
            if (!ok)
                return parseFailure(s);
        }
        if (pos != s.size())
            return parseFailure(s);
    } else {
        if (!readInt(s, &pos, 4, 4, &year))
            return parseFailure(s);
        if (pos < s.size() && s[pos] == '-') {
            ++pos;
            if (!readInt(s, &pos, 2, 2, &month) || pos >= s.size() || s[pos] != '-')
                return parseFailure(s);
            ++pos;
            if (!readInt(s, &pos, 2, 2, &day))
                return parseFailure(s);
        } else if (!readInt(s, &pos, 2, 2, &month) || !readInt(s, &pos, 2, 2, &day)) {
            return parseFailure(s);
        }
        if (pos < s.size() && (s[pos] == 'T' || s[pos] == ' ')) {
            ++pos;
            if (!readInt(s, &pos, 2, 2, &hour))
                return parseFailure(s);
            if (pos < s.size() && s[pos] == ':') {
                ++pos;
                if (!readInt(s, &pos, 2, 2, &minute))
                    return parseFailure(s);
                if (pos < s.size() && s[pos] == ':') {
                    ++pos;
                    if (!readInt(s, &pos, 2, 2, &second))
                        return parseFailure(s);
                    if (pos < s.size() && s[pos] == '.') {
                        ++pos;
                        size_t before = pos;
                        long long frac = 0;
                        if (!readInt(s, &pos, 1, 9, &frac))
                            return parseFailure(s);
                        int digits = static_cast<int>(pos - before);
                        while (digits > 3) {
                            frac /= 10;
                            --digits;
                        }
                        while (digits < 3) {
                            frac *= 10;
                            ++digits;
                        }
                        millis = frac;
                    }
                }
            }
            if (!readZone(s, &pos, &offset))
                return parseFailure(s);
        }
        if (pos != s.size())
            return parseFailure(s);
    }
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
        return parseFailure(s);
    // A day past the end of its month (2024-02-30) is invalid, as upstream, not rolled over.
    if (absl::CivilDay(year, month, day).day() != day)
        return Status(
            ErrorCodes::ConversionFailure,
            "Error parsing date string '" + std::string(s) + "'; 11: The parsed date was invalid");
    absl::CivilSecond cs(year, month, day, hour, minute, second);
    absl::Time t =
        offset ? absl::FromCivil(cs, absl::FixedTimeZone(*offset)) : absl::FromCivil(cs, tz);
    return Date_t::fromMillisSinceEpoch(absl::ToUnixMillis(t) + millis);
}

}  // namespace mongo
