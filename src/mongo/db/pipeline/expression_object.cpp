// Object operators: $mergeObjects $getField $setField $unsetField; date string and
// parts operators: $dateToString $dateFromString $dateToParts $dateFromParts; $rand.
#include <random>

#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

ExprPtr makeCustom(StringData name, const BSONElement& e, ExprVector children,
                   ExpressionCustom::Fn fn) {
    BSONObjBuilder b;
    b.appendAs(e, name);
    return std::make_unique<ExpressionCustom>(std::string(name), b.obj(), std::move(children),
                                              std::move(fn));
}

struct Named {
    std::map<std::string, const Expression*> args;
    const Expression* get(const char* n) const {
        auto it = args.find(n);
        return it == args.end() ? nullptr : it->second;
    }
};

Named parseNamed(ExpressionContext* expCtx, const BSONElement& e, const VariablesParseState& vps,
                 StringData op, std::initializer_list<const char*> allowed, ExprVector* owned,
                 int notObjectCode, int unknownCode) {
    uassert(notObjectCode, std::string(op) + " only supports an object as its argument",
            e.type() == BSONType::kObject);
    Named out;
    for (auto f : e.Obj()) {
        std::string n(f.fieldNameStringData());
        bool ok = false;
        for (const char* a : allowed)
            ok = ok || n == a;
        uassert(unknownCode, "Unrecognized argument to " + std::string(op) + ": " + n, ok);
        owned->push_back(Expression::parseOperand(expCtx, f, vps));
        out.args[n] = owned->back().get();
    }
    return out;
}

Value mergeObjectsFn(const ValueArgs& a) {
    std::vector<std::pair<std::string, BSONElement>> fields;
    std::vector<Value> keep;
    for (const auto& v : a) {
        if (v.nullish())
            continue;
        uassert(40400,
                "$mergeObjects requires object inputs, but input " + v.toString() + " is of type " +
                    typeNameOf(v),
                v.isObject());
        keep.push_back(v);
        for (auto e : keep.back().getDocument()) {
            bool replaced = false;
            for (auto& f : fields)
                if (f.first == e.fieldNameStringData()) {
                    f.second = e;
                    replaced = true;
                }
            if (!replaced)
                fields.emplace_back(std::string(e.fieldNameStringData()), e);
        }
    }
    BSONObjBuilder b;
    for (const auto& [n, e] : fields)
        b.appendAs(e, n);
    return Value(b.obj());
}

/** Shared parsing of $getField/$setField/$unsetField: field must be a constant string. */
ExprPtr parseFieldOp(ExpressionContext* expCtx, const BSONElement& e,
                     const VariablesParseState& vps, StringData op) {
    ExprVector owned;
    std::string field;
    const Expression* input = nullptr;
    const Expression* value = nullptr;
    bool isGet = op == "$getField", isSet = op == "$setField";
    // 'field': a string, or an expression of constants ({$literal: "$a"}, {$concat: [...]})
    // evaluated here; one that reads the document is 5654601, as upstream.
    auto checkField = [&](const BSONElement& f) {
        if (f.type() == BSONType::kString && !f.valueStringData().starts_with("$")) {
            field = f.str();
            return;
        }
        uassert(5654602, std::string(op) + " requires 'field' to evaluate to type String",
                f.type() == BSONType::kObject || f.type() == BSONType::kString);
        auto v = Expression::evaluateConstantOperand(expCtx, f, vps);
        uassert(5654601,
                std::string(op) +
                    " requires 'field' to evaluate to a constant, but got a non-constant argument",
                v.has_value());
        uassert(5654602,
                std::string(op) + " requires 'field' to evaluate to type String, but got " +
                    typeNameOf(*v),
                v->isString());
        field = std::string(v->getStringData());
    };
    // Shorthand: {$getField: "a"} or {$getField: <expression>} ({$literal: "a"}, not the
    // {field, input} form).
    if (isGet && (e.type() != BSONType::kObject ||
                  e.Obj().firstElementFieldNameStringData().starts_with("$"))) {
        checkField(e);
    } else {
        uassert(isGet ? 3041703 : 4161100,
                std::string(op) +
                    " only supports an object as its "
                    "argument",
                e.type() == BSONType::kObject);
        bool haveField = false;
        for (auto f : e.Obj()) {
            StringData n = f.fieldNameStringData();
            if (n == "field") {
                checkField(f);
                haveField = true;
            } else if (n == "input") {
                owned.push_back(Expression::parseOperand(expCtx, f, vps));
                input = owned.back().get();
            } else if (n == "value" && isSet) {
                owned.push_back(Expression::parseOperand(expCtx, f, vps));
                value = owned.back().get();
            } else {
                uasserted(isGet ? 3041701 : 4161101,
                          std::string(op) + " found an unknown argument: " + std::string(n));
            }
        }
        uassert(isGet ? 3041702 : 4161102, std::string(op) + " requires 'field' to be specified",
                haveField);
        if (!isGet)
            uassert(4161103, std::string(op) + " requires 'input' to be specified", input);
        if (isSet)
            uassert(4161104, "$setField requires 'value' to be specified", value);
    }
    if (!input) {
        // $getField without input reads $$CURRENT: the whole document for dependency analysis
        // too (a time-series unpacking must not prune the field it names), as upstream.
        BSONObj current = BSON("input"
                               << "$$CURRENT");
        owned.push_back(Expression::parseOperand(expCtx, current.firstElement(), vps));
        input = owned.back().get();
    }
    std::string opName(op);
    return makeCustom(op, e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
        Value in = input->evaluate(root, vars);
        if (isGet) {
            if (in.nullish())
                return Value::null();
            if (!in.isObject())
                return Value();
            return Value::copyOf(in.getDocument().getField(field));
        }
        if (in.nullish())
            return Value::null();
        uassert(4161105, opName + " requires 'input' to evaluate to type Object", in.isObject());
        Value v = value ? value->evaluate(root, vars) : Value();
        BSONObjBuilder b;
        bool found = false;
        for (auto el : in.getDocument()) {
            if (el.fieldNameStringData() == field) {
                found = true;
                v.addToBsonObj(&b, field);
            } else {
                b.append(el);
            }
        }
        if (!found)
            v.addToBsonObj(&b, field);
        return Value(b.obj());
    });
}

/** A timezone expression resolved per document. */
bool resolveTz(const Expression* tzExpr, const BSONObj& root, Variables* vars,
               absl::TimeZone* out) {
    if (!tzExpr) {
        *out = absl::UTCTimeZone();
        return true;
    }
    Value v = tzExpr->evaluate(root, vars);
    if (v.nullish())
        return false;
    uassert(40517, "timezone must evaluate to a string, found " + typeNameOf(v), v.isString());
    *out = parseTimeZone(v.getStringData());
    return true;
}

ExprPtr parseDateToString(ExpressionContext* expCtx, const BSONElement& e,
                          const VariablesParseState& vps) {
    ExprVector owned;
    Named n = parseNamed(expCtx, e, vps, "$dateToString", {"date", "format", "timezone", "onNull"},
                         &owned, 18629, 18534);
    uassert(18628, "Missing 'date' parameter to $dateToString", n.get("date"));
    const Expression *date = n.get("date"), *format = n.get("format"), *tz = n.get("timezone"),
                     *onNull = n.get("onNull");
    return makeCustom("$dateToString", e, std::move(owned),
                      [=](const BSONObj& root, Variables* vars) {
                          Value d = date->evaluate(root, vars);
                          std::string fmt(kIsoFormatStringZ);
                          if (format) {
                              Value f = format->evaluate(root, vars);
                              if (f.nullish())
                                  return Value::null();
                              uassert(18533,
                                      "$dateToString requires that 'format' be a string, found: " +
                                          typeNameOf(f) + " with value " + f.toString(),
                                      f.isString());
                              fmt = f.getString();
                          }
                          absl::TimeZone zone;
                          if (!resolveTz(tz, root, vars, &zone))
                              return Value::null();
                          if (d.nullish())
                              return onNull ? onNull->evaluate(root, vars) : Value::null();
                          if (!format && tz)
                              fmt = "%Y-%m-%dT%H:%M:%S.%L";
                          return Value(formatDate(fmt, d.coerceToDate(), zone));
                      });
}

ExprPtr parseDateFromString(ExpressionContext* expCtx, const BSONElement& e,
                            const VariablesParseState& vps) {
    ExprVector owned;
    Named n =
        parseNamed(expCtx, e, vps, "$dateFromString",
                   {"dateString", "format", "timezone", "onError", "onNull"}, &owned, 40540, 40541);
    uassert(40542, "Missing 'dateString' parameter to $dateFromString", n.get("dateString"));
    const Expression *ds = n.get("dateString"), *format = n.get("format"), *tz = n.get("timezone"),
                     *onError = n.get("onError"), *onNull = n.get("onNull");
    return makeCustom(
        "$dateFromString", e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
            Value s = ds->evaluate(root, vars);
            absl::TimeZone zone;
            if (!resolveTz(tz, root, vars, &zone))
                return Value::null();
            std::string fmt;
            if (format) {
                Value f = format->evaluate(root, vars);
                if (f.nullish())
                    return Value::null();
                uassert(
                    40684,
                    "$dateFromString requires that 'format' be a string, found: " + typeNameOf(f),
                    f.isString());
                fmt = f.getString();
            }
            if (s.nullish())
                return onNull ? onNull->evaluate(root, vars) : Value::null();
            if (!s.isString()) {
                if (onError)
                    return onError->evaluate(root, vars);
                uasserted(ErrorCodes::ConversionFailure,
                          "$dateFromString requires that 'dateString' be a string, found: " +
                              typeNameOf(s) + " with value " + s.toString());
            }
            auto sw = parseDateString(s.getStringData(), zone, fmt);
            if (!sw.isOK()) {
                if (onError && sw.getStatus().code() == ErrorCodes::ConversionFailure)
                    return onError->evaluate(root, vars);
                uassertStatusOK(sw.getStatus());
            }
            return Value(sw.getValue());
        });
}

ExprPtr parseDateToParts(ExpressionContext* expCtx, const BSONElement& e,
                         const VariablesParseState& vps) {
    ExprVector owned;
    Named n = parseNamed(expCtx, e, vps, "$dateToParts", {"date", "timezone", "iso8601"}, &owned,
                         40524, 40520);
    uassert(40522, "Missing 'date' parameter to $dateToParts", n.get("date"));
    const Expression *date = n.get("date"), *tz = n.get("timezone"), *iso = n.get("iso8601");
    return makeCustom(
        "$dateToParts", e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
            Value d = date->evaluate(root, vars);
            absl::TimeZone zone;
            if (!resolveTz(tz, root, vars, &zone))
                return Value::null();
            bool isoMode = false;
            if (iso) {
                Value i = iso->evaluate(root, vars);
                if (i.nullish())
                    return Value::null();
                uassert(40521, "iso8601 must evaluate to a bool, found " + typeNameOf(i),
                        i.getType() == BSONType::kBool);
                isoMode = i.getBool();
            }
            if (d.nullish())
                return Value::null();
            Date_t dt = d.coerceToDate();
            auto info = zone.At(toAbsl(dt));
            absl::CivilSecond cs = info.cs;
            long long ms = dt.toMillisSinceEpoch() % 1000;
            if (ms < 0)
                ms += 1000;
            BSONObjBuilder b;
            if (isoMode) {
                absl::CivilDay day(cs);
                int dow = static_cast<int>(absl::GetWeekday(day)) + 1;
                absl::CivilDay thursday = day + (4 - dow);
                int y = static_cast<int>(thursday.year());
                b.append("isoWeekYear", y);
                b.append("isoWeek", static_cast<int>((thursday - absl::CivilDay(y, 1, 1)) / 7) + 1);
                b.append("isoDayOfWeek", dow);
            } else {
                b.append("year", static_cast<int>(cs.year()));
                b.append("month", cs.month());
                b.append("day", cs.day());
            }
            b.append("hour", cs.hour());
            b.append("minute", cs.minute());
            b.append("second", cs.second());
            b.append("millisecond", static_cast<int>(ms));
            return Value(b.obj());
        });
}

ExprPtr parseDateFromParts(ExpressionContext* expCtx, const BSONElement& e,
                           const VariablesParseState& vps) {
    ExprVector owned;
    Named n = parseNamed(expCtx, e, vps, "$dateFromParts",
                         {"year", "month", "day", "hour", "minute", "second", "millisecond",
                          "isoWeekYear", "isoWeek", "isoDayOfWeek", "timezone"},
                         &owned, 40519, 40518);
    bool iso = n.get("isoWeekYear") != nullptr;
    uassert(40516, "$dateFromParts requires either 'year' or 'isoWeekYear' to be present",
            n.get("year") || iso);
    uassert(40489, "$dateFromParts does not allow mixing natural dates with ISO dates",
            !(iso && (n.get("year") || n.get("month") || n.get("day"))));
    return makeCustom(
        "$dateFromParts", e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
            // Upstream's order: the time parts, the timezone, then the date parts; the first
            // nullish input makes the result null without evaluating the rest.
            auto part = [&](const char* name, long long def, long long* out) -> bool {
                const Expression* x = n.get(name);
                if (!x) {
                    *out = def;
                    return true;
                }
                Value v = x->evaluate(root, vars);
                if (v.nullish())
                    return false;
                uassert(40515,
                        std::string("'") + name + "' must evaluate to an integer, found " +
                            typeNameOf(v) + " with value " + v.toString(),
                        v.integral64Bit());
                *out = v.getLong();  // exact: integral64Bit()
                return true;
            };
            auto boundedPart = [&](const char* name, long long def, long long* out) -> bool {
                if (!part(name, def, out))
                    return false;
                uassert(31034,
                        std::string("'") + name +
                            "' must evaluate to a value in the range [-32768, 32767]; value " +
                            std::to_string(*out) + " is not in range",
                        *out >= -32768 && *out <= 32767);
                return true;
            };
            long long hour, minute, second, ms;
            if (!boundedPart("hour", 0, &hour) || !boundedPart("minute", 0, &minute) ||
                !part("second", 0, &second) || !part("millisecond", 0, &ms))
                return Value::null();
            absl::TimeZone zone;
            if (!resolveTz(n.get("timezone"), root, vars, &zone))
                return Value::null();
            absl::CivilDay day;
            if (iso) {
                long long y, w, d;
                if (!part("isoWeekYear", 1970, &y) || !boundedPart("isoWeek", 1, &w) ||
                    !boundedPart("isoDayOfWeek", 1, &d))
                    return Value::null();
                uassert(31095,
                        "'isoWeekYear' must evaluate to an integer in the range 1 to 9999, "
                        "found " +
                            std::to_string(y),
                        y >= 1 && y <= 9999);
                absl::CivilDay jan4(y, 1, 4);
                int dow = static_cast<int>(absl::GetWeekday(jan4)) + 1;
                absl::CivilDay week1Monday = jan4 - (dow - 1);
                day = week1Monday + (w - 1) * 7 + (d - 1);
            } else {
                long long y, m, d;
                if (!part("year", 1970, &y) || !boundedPart("month", 1, &m) ||
                    !boundedPart("day", 1, &d))
                    return Value::null();
                uassert(40523,
                        "'year' must evaluate to an integer in the range 1 to 9999, found " +
                            std::to_string(y),
                        y >= 1 && y <= 9999);
                day = absl::CivilDay(absl::CivilMonth(y, 1) + (m - 1)) + (d - 1);
            }
            // Hours, minutes and seconds are wall-clock time in `zone`; seconds and milliseconds
            // are unbounded, so their sum in milliseconds must fit.
            long long secondMillis = 0;
            uassert(
                ErrorCodes::DurationOverflow,
                "Overflow casting from a lower-precision duration to a higher-precision duration",
                !__builtin_mul_overflow(second, 1000LL, &secondMillis));
            absl::CivilSecond cs(day.year(), day.month(), day.day(), 0, 0, 0);
            cs += hour * 3600 + minute * 60;
            cs += second;
            long long millis = absl::ToUnixMillis(absl::FromCivil(cs, zone));
            uassert(
                ErrorCodes::DurationOverflow,
                "Overflow casting from a lower-precision duration to a higher-precision duration",
                !__builtin_add_overflow(millis, ms, &millis));
            return Value(Date_t::fromMillisSinceEpoch(millis));
        });
}

const bool kRegistered = [] {
    registerNaryExpression("$mergeObjects", 0, -1, mergeObjectsFn);
    for (const char* op : {"$getField", "$setField", "$unsetField"}) {
        std::string name = op;
        Expression::registerParser(
            op, [name](ExpressionContext* c, const BSONElement& e, const VariablesParseState& v) {
                return parseFieldOp(c, e, v, name);
            });
    }
    Expression::registerParser("$dateToString", parseDateToString);
    registerNaryExpression("$bsonSize", 1, 1, [](const ValueArgs& a) {
        if (a[0].nullish())
            return Value::null();
        uassert(31393, "$bsonSize requires a document input, found: " + typeNameOf(a[0]),
                a[0].isObject());
        return Value(a[0].getDocument().objsize());
    });
    registerNaryExpression("$binarySize", 1, 1, [](const ValueArgs& a) {
        if (a[0].nullish())
            return Value::null();
        if (a[0].isString())
            return Value(static_cast<int>(a[0].getStringData().size()));
        uassert(51276,
                "$binarySize requires a string or BinData argument, found: " + typeNameOf(a[0]),
                a[0].getType() == BSONType::kBinData);
        int len;
        a[0].elem().binData(len);
        return Value(len);
    });
    registerNaryExpression("$tsSecond", 1, 1, [](const ValueArgs& a) {
        if (a[0].nullish())
            return Value::null();
        uassert(5687301, "$tsSecond requires a timestamp argument, found: " + typeNameOf(a[0]),
                a[0].getType() == BSONType::kTimestamp);
        return Value(static_cast<long long>(a[0].elem().timestamp().getSecs()));
    });
    registerNaryExpression("$tsIncrement", 1, 1, [](const ValueArgs& a) {
        if (a[0].nullish())
            return Value::null();
        uassert(5687302, "$tsIncrement requires a timestamp argument, found: " + typeNameOf(a[0]),
                a[0].getType() == BSONType::kTimestamp);
        return Value(static_cast<long long>(a[0].elem().timestamp().getInc()));
    });
    Expression::registerParser("$dateFromString", parseDateFromString);
    Expression::registerParser("$dateToParts", parseDateToParts);
    Expression::registerParser("$dateFromParts", parseDateFromParts);
    Expression::registerParser(
        "$rand",
        [](ExpressionContext*, const BSONElement& e, const VariablesParseState&) -> ExprPtr {
            uassert(3040500, "$rand not allowed inside collection validators",
                    e.type() == BSONType::kObject && e.Obj().isEmpty());
            return makeCustom("$rand", e, {}, [](const BSONObj&, Variables*) {
                thread_local std::mt19937_64 gen{std::random_device{}()};
                return Value(std::uniform_real_distribution<double>(0.0, 1.0)(gen));
            });
        });
    return true;
}();

}  // namespace
}  // namespace mongo
