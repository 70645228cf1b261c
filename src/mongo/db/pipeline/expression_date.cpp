// Date operators: $dateTrunc $dateAdd $dateSubtract $dateDiff and the date-part
// extractors ($year ... $millisecond, $dayOfWeek, $dayOfYear, $week, $isoWeek,
// $isoWeekYear, $isoDayOfWeek), with time zones (date_util.h).
#include <limits>
#include <optional>

#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** A named-argument object parsed into expressions ({date: ..., unit: ...}). */
struct NamedArgs {
    std::map<std::string, const Expression*> byName;
    ExprVector owned;
    const Expression* get(StringData n) const {
        auto it = byName.find(std::string(n));
        return it == byName.end() ? nullptr : it->second;
    }
};

NamedArgs parseNamed(ExpressionContext* expCtx, const BSONElement& e,
                     const VariablesParseState& vps, StringData op, int notObjectCode,
                     int unknownCode, std::initializer_list<StringData> allowed) {
    uassert(notObjectCode, std::string(op) + " only supports an object as its argument",
            e.type() == BSONType::kObject);
    NamedArgs out;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        bool ok = false;
        for (auto a : allowed)
            ok = ok || a == n;
        uassert(unknownCode, "Unrecognized argument to " + std::string(op) + ": " + std::string(n),
                ok);
        out.owned.push_back(Expression::parseOperand(expCtx, f, vps));
        out.byName[std::string(n)] = out.owned.back().get();
    }
    return out;
}

ExprPtr makeCustom(StringData name, const BSONElement& e, ExprVector children,
                   ExpressionCustom::Fn fn) {
    BSONObjBuilder b;
    b.appendAs(e, name);
    return std::make_unique<ExpressionCustom>(std::string(name), b.obj(), std::move(children),
                                              std::move(fn));
}

/** A time zone argument, resolved once when constant. */
struct TimeZoneArg {
    const Expression* expr = nullptr;
    std::optional<absl::TimeZone> constant;

    void init(const Expression* e) {
        expr = e;
        if (e && e->isConstant()) {
            Value v = static_cast<const ExpressionConstant*>(e)->getValue();
            if (!v.nullish()) {
                uassert(40517, "timezone must evaluate to a string, found " + typeNameOf(v),
                        v.isString());
                constant = parseTimeZone(v.getStringData());
            }
        }
    }
    /** False when the time zone evaluates to null (the result is then null). */
    bool resolve(const BSONObj& root, Variables* vars, absl::TimeZone* out) const {
        if (!expr) {
            *out = absl::UTCTimeZone();
            return true;
        }
        if (constant) {
            *out = *constant;
            return true;
        }
        Value v = expr->evaluate(root, vars);
        if (v.nullish())
            return false;
        uassert(40517, "timezone must evaluate to a string, found " + typeNameOf(v), v.isString());
        *out = parseTimeZone(v.getStringData());
        return true;
    }
};

TimeUnit evalUnit(const Value& v, StringData op, int typeCode, int valueCode) {
    uassert(typeCode, std::string(op) + " requires 'unit' to be a string, but got " + typeNameOf(v),
            v.isString());
    TimeUnit u;
    uassert(valueCode,
            std::string(op) +
                " parameter 'unit' value cannot be recognized as a time unit: " + v.getString(),
            parseTimeUnit(v.getStringData(), &u));
    return u;
}

int evalStartOfWeek(const Expression* e, const BSONObj& root, Variables* vars, StringData op,
                    bool* isNull) {
    if (!e)
        return 0;
    Value v = e->evaluate(root, vars);
    if (v.nullish()) {
        *isNull = true;
        return 0;
    }
    uassert(5439015,
            std::string(op) + " requires 'startOfWeek' to be a string, but got " + typeNameOf(v),
            v.isString());
    int d = parseDayOfWeek(v.getStringData());
    uassert(5439016,
            std::string(op) +
                " parameter 'startOfWeek' value cannot be recognized as a day of a "
                "week: " +
                v.getString(),
            d >= 0);
    return d;
}

ExprPtr parseDateTrunc(ExpressionContext* expCtx, const BSONElement& e,
                       const VariablesParseState& vps) {
    auto args = std::make_shared<NamedArgs>(
        parseNamed(expCtx, e, vps, "$dateTrunc", 5439007, 5439008,
                   {"date", "unit", "binSize", "timezone", "startOfWeek"}));
    uassert(5439009, "Missing 'date' parameter to $dateTrunc", args->get("date"));
    uassert(5439010, "Missing 'unit' parameter to $dateTrunc", args->get("unit"));
    auto tz = std::make_shared<TimeZoneArg>();
    tz->init(args->get("timezone"));
    const Expression* dateE = args->get("date");
    const Expression* unitE = args->get("unit");
    const Expression* binE = args->get("binSize");
    const Expression* sowE = args->get("startOfWeek");
    return makeCustom(
        "$dateTrunc", e, std::move(args->owned), [=](const BSONObj& root, Variables* vars) {
            Value date = dateE->evaluate(root, vars);
            Value unitV = unitE->evaluate(root, vars);
            if (date.nullish() || unitV.nullish())
                return Value::null();
            long long binSize = 1;
            if (binE) {
                Value bv = binE->evaluate(root, vars);
                if (bv.nullish())
                    return Value::null();
                uassert(5439017,
                        "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '" +
                            bv.toString() + "' of type " + typeNameOf(bv),
                        bv.integral64Bit());
                binSize = bv.getLong();
                uassert(5439018,
                        "$dateTrunc requires 'binSize' to be greater than 0, but got value " +
                            std::to_string(binSize),
                        binSize > 0);
            }
            absl::TimeZone zone;
            if (!tz->resolve(root, vars, &zone))
                return Value::null();
            TimeUnit unit = evalUnit(unitV, "$dateTrunc", 5439013, 5439014);
            // A bin wider than the whole range of dates is refused, so that truncation
            // arithmetic (in milliseconds, days or months) cannot overflow.
            long long binMs;
            uassert(ErrorCodes::BadValue,
                    "$dateTrunc: 'binSize' " + std::to_string(binSize) + " " + unitV.toString() +
                        " is larger than the range of dates",
                    !__builtin_mul_overflow(longestUnitMillis(unit), binSize, &binMs) &&
                        binMs <= (1LL << 62));
            bool sowNull = false;
            int sow = unit == TimeUnit::kWeek
                          ? evalStartOfWeek(sowE, root, vars, "$dateTrunc", &sowNull)
                          : 0;
            if (sowNull)
                return Value::null();
            uassert(5439012, "$dateTrunc requires 'date' to be a date, but got " + typeNameOf(date),
                    date.getType() == BSONType::kDate || date.getType() == BSONType::kTimestamp ||
                        date.getType() == BSONType::kOid);
            return Value(truncateDate(date.coerceToDate(), unit, binSize, zone, sow));
        });
}

ExprPtr parseDateAddSub(ExpressionContext* expCtx, const BSONElement& e,
                        const VariablesParseState& vps, bool subtract) {
    StringData op = subtract ? "$dateSubtract" : "$dateAdd";
    auto args = std::make_shared<NamedArgs>(parseNamed(
        expCtx, e, vps, op, 5166400, 5166401, {"startDate", "unit", "amount", "timezone"}));
    uassert(5166402, "$dateAdd requires startDate, unit, and amount to be present",
            args->get("startDate") && args->get("unit") && args->get("amount"));
    auto tz = std::make_shared<TimeZoneArg>();
    tz->init(args->get("timezone"));
    std::string opName(op);
    return makeCustom(
        op, e, std::move(args->owned),
        [args, tz, subtract, opName](const BSONObj& root, Variables* vars) {
            Value start = args->get("startDate")->evaluate(root, vars);
            Value unitV = args->get("unit")->evaluate(root, vars);
            Value amount = args->get("amount")->evaluate(root, vars);
            if (start.nullish() || unitV.nullish() || amount.nullish())
                return Value::null();
            absl::TimeZone zone;
            if (!tz->resolve(root, vars, &zone))
                return Value::null();
            uassert(5166403, opName + " requires startDate to be convertible to a date",
                    start.getType() == BSONType::kDate || start.getType() == BSONType::kTimestamp ||
                        start.getType() == BSONType::kOid);
            TimeUnit unit = evalUnit(unitV, opName, 5166404, 5166405);
            uassert(5166405, opName + " expects integer amount of time units",
                    amount.integral64Bit());
            long long n = amount.getLong();
            Date_t from = start.coerceToDate();
            // The amount, as milliseconds of the unit's longest length, must keep the result
            // inside the 64-bit millisecond range; then no arithmetic below can overflow.
            long long longestUnitMs = longestUnitMillis(unit);
            long long deltaMs, endMs;
            bool overflow = (subtract && n == std::numeric_limits<long long>::min()) ||
                            __builtin_mul_overflow(subtract ? -n : n, longestUnitMs, &deltaMs) ||
                            __builtin_add_overflow(from.toMillisSinceEpoch(), deltaMs, &endMs);
            uassert(5976500,
                    "invalid " + opName + " 'amount' parameter value: " + amount.toString() + " " +
                        unitV.toString(),
                    !overflow);
            return Value(addToDate(from, unit, subtract ? -n : n, zone));
        });
}

ExprPtr parseDateDiff(ExpressionContext* expCtx, const BSONElement& e,
                      const VariablesParseState& vps) {
    auto args = std::make_shared<NamedArgs>(
        parseNamed(expCtx, e, vps, "$dateDiff", 5166301, 5166302,
                   {"startDate", "endDate", "unit", "timezone", "startOfWeek"}));
    uassert(5166303, "Missing 'startDate' parameter to $dateDiff", args->get("startDate"));
    uassert(5166304, "Missing 'endDate' parameter to $dateDiff", args->get("endDate"));
    uassert(5166305, "Missing 'unit' parameter to $dateDiff", args->get("unit"));
    auto tz = std::make_shared<TimeZoneArg>();
    tz->init(args->get("timezone"));
    return makeCustom(
        "$dateDiff", e, std::move(args->owned), [args, tz](const BSONObj& root, Variables* vars) {
            Value s = args->get("startDate")->evaluate(root, vars);
            Value en = args->get("endDate")->evaluate(root, vars);
            Value unitV = args->get("unit")->evaluate(root, vars);
            if (s.nullish() || en.nullish() || unitV.nullish())
                return Value::null();
            absl::TimeZone zone;
            if (!tz->resolve(root, vars, &zone))
                return Value::null();
            auto isDate = [](const Value& v) {
                return v.getType() == BSONType::kDate || v.getType() == BSONType::kTimestamp ||
                       v.getType() == BSONType::kOid;
            };
            uassert(5166307,
                    "$dateDiff requires 'startDate' to be a date, but got " + typeNameOf(s),
                    isDate(s));
            uassert(5166307, "$dateDiff requires 'endDate' to be a date, but got " + typeNameOf(en),
                    isDate(en));
            TimeUnit unit = evalUnit(unitV, "$dateDiff", 5439013, 5439014);
            bool sowNull = false;
            int sow = unit == TimeUnit::kWeek ? evalStartOfWeek(args->get("startOfWeek"), root,
                                                                vars, "$dateDiff", &sowNull)
                                              : 0;
            if (sowNull)
                return Value::null();
            return Value(dateDiff(s.coerceToDate(), en.coerceToDate(), unit, zone, sow));
        });
}

enum class DatePart {
    kYear,
    kMonth,
    kDayOfMonth,
    kHour,
    kMinute,
    kSecond,
    kMillisecond,
    kDayOfWeek,
    kDayOfYear,
    kWeek,
    kIsoWeek,
    kIsoWeekYear,
    kIsoDayOfWeek
};

int isoDayOfWeek(absl::CivilDay d) {
    int w = static_cast<int>(absl::GetWeekday(d));  // monday = 0 in Abseil
    return w + 1;
}

/** ISO 8601 week-numbering year and week of `d`. */
std::pair<int, int> isoWeekAndYear(absl::CivilDay d) {
    absl::CivilDay thursday = d + (4 - isoDayOfWeek(d));
    int year = static_cast<int>(thursday.year());
    absl::CivilDay jan1(year, 1, 1);
    int week = static_cast<int>((thursday - jan1) / 7) + 1;
    return {year, week};
}

long long extractPart(DatePart part, Date_t date, const absl::TimeZone& tz) {
    absl::Time t = toAbsl(date);
    auto info = tz.At(t);
    absl::CivilSecond cs = info.cs;
    absl::CivilDay day(cs);
    switch (part) {
        case DatePart::kYear:
            return cs.year();
        case DatePart::kMonth:
            return cs.month();
        case DatePart::kDayOfMonth:
            return cs.day();
        case DatePart::kHour:
            return cs.hour();
        case DatePart::kMinute:
            return cs.minute();
        case DatePart::kSecond:
            return cs.second();
        case DatePart::kMillisecond: {
            long long ms = date.toMillisSinceEpoch() % 1000;
            return ms < 0 ? ms + 1000 : ms;
        }
        case DatePart::kDayOfWeek:
            return isoDayOfWeek(day) % 7 + 1;  // Sunday = 1
        case DatePart::kDayOfYear:
            return absl::GetYearDay(day);
        case DatePart::kWeek: {
            // Weeks start on Sunday; days before the first Sunday are week 0.
            int yday = absl::GetYearDay(day) - 1;
            int dow = isoDayOfWeek(day) % 7;  // Sunday = 0
            return (yday - dow + 7) / 7;
        }
        case DatePart::kIsoWeek:
            return isoWeekAndYear(day).second;
        case DatePart::kIsoWeekYear:
            return isoWeekAndYear(day).first;
        case DatePart::kIsoDayOfWeek:
            return isoDayOfWeek(day);
    }
    return 0;
}

void registerDatePart(StringData name, DatePart part) {
    std::string n(name);
    Expression::registerParser(
        name,
        [n, part](ExpressionContext* expCtx, const BSONElement& e,
                  const VariablesParseState& vps) -> ExprPtr {
            ExprVector children;
            const Expression* dateExpr = nullptr;
            auto tz = std::make_shared<TimeZoneArg>();
            BSONElement arg = e;
            if (arg.type() == BSONType::kArray) {
                auto elems = arg.Array();
                checkArity(n, elems.size(), 1, 1);
                arg = elems[0];
            }
            if (arg.type() == BSONType::kObject && arg.Obj().hasField("date")) {
                const Expression* tzExpr = nullptr;
                for (auto f : arg.Obj()) {
                    StringData fn = f.fieldNameStringData();
                    if (fn == "date") {
                        children.push_back(Expression::parseOperand(expCtx, f, vps));
                        dateExpr = children.back().get();
                    } else if (fn == "timezone") {
                        children.push_back(Expression::parseOperand(expCtx, f, vps));
                        tzExpr = children.back().get();
                    } else {
                        uasserted(40535,
                                  "unrecognized option to " + n + ": \"" + std::string(fn) + "\"");
                    }
                }
                tz->init(tzExpr);
            } else {
                children.push_back(Expression::parseOperand(expCtx, arg, vps));
                dateExpr = children.back().get();
            }
            return makeCustom(n, e, std::move(children),
                              [dateExpr, tz, part](const BSONObj& root, Variables* vars) {
                                  Value d = dateExpr->evaluate(root, vars);
                                  if (d.nullish())
                                      return Value::null();
                                  absl::TimeZone zone;
                                  if (!tz->resolve(root, vars, &zone))
                                      return Value::null();
                                  long long r = extractPart(part, d.coerceToDate(), zone);
                                  // $isoWeekYear is a long upstream; the other parts are ints.
                                  if (part == DatePart::kIsoWeekYear)
                                      return Value(r);
                                  return Value(static_cast<int>(r));
                              });
        });
}

const bool kRegistered = [] {
    Expression::registerParser("$dateTrunc", parseDateTrunc);
    Expression::registerParser(
        "$dateAdd", [](ExpressionContext* c, const BSONElement& e, const VariablesParseState& v) {
            return parseDateAddSub(c, e, v, false);
        });
    Expression::registerParser("$dateSubtract", [](ExpressionContext* c, const BSONElement& e,
                                                   const VariablesParseState& v) {
        return parseDateAddSub(c, e, v, true);
    });
    Expression::registerParser("$dateDiff", parseDateDiff);
    registerDatePart("$year", DatePart::kYear);
    registerDatePart("$month", DatePart::kMonth);
    registerDatePart("$dayOfMonth", DatePart::kDayOfMonth);
    registerDatePart("$hour", DatePart::kHour);
    registerDatePart("$minute", DatePart::kMinute);
    registerDatePart("$second", DatePart::kSecond);
    registerDatePart("$millisecond", DatePart::kMillisecond);
    registerDatePart("$dayOfWeek", DatePart::kDayOfWeek);
    registerDatePart("$dayOfYear", DatePart::kDayOfYear);
    registerDatePart("$week", DatePart::kWeek);
    registerDatePart("$isoWeek", DatePart::kIsoWeek);
    registerDatePart("$isoWeekYear", DatePart::kIsoWeekYear);
    registerDatePart("$isoDayOfWeek", DatePart::kIsoDayOfWeek);
    return true;
}();

}  // namespace
}  // namespace mongo
