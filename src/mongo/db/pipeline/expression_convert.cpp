// Type operators: $type $isNumber $convert $toBool $toInt $toLong $toDouble $toDecimal
// $toString $toDate $toObjectId. Conversion failures are ConversionFailure 241
// unless $convert's onError/onNull say otherwise.
#include <charconv>
#include <cmath>
#include <limits>

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

[[noreturn]] void conversionFailure(const std::string& msg) {
    uasserted(ErrorCodes::ConversionFailure, msg);
}

[[noreturn]] void unsupported(const Value& v, BSONType to) {
    conversionFailure("Unsupported conversion from " + typeNameOf(v) + " to " +
                      std::string(typeName(to)) + " in $convert with no onError value");
}

std::string doubleToString(double d) {
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof(buf), d);
    return std::string(buf, r.ptr);
}

bool parseLong(StringData s, long long* out) {
    if (s.empty())
        return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), *out, 10);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parseDouble(StringData s, double* out) {
    if (s.empty())
        return false;
    std::string str(s);
    if (str == "NaN" || str == "nan") {
        *out = std::nan("");
        return true;
    }
    if (str == "Infinity" || str == "inf") {
        *out = std::numeric_limits<double>::infinity();
        return true;
    }
    if (str == "-Infinity" || str == "-inf") {
        *out = -std::numeric_limits<double>::infinity();
        return true;
    }
    char* end = nullptr;
    *out = std::strtod(str.c_str(), &end);
    return end == str.c_str() + str.size() && !std::isspace(static_cast<unsigned char>(str[0]));
}

Value convertTo(const Value& v, BSONType to) {
    BSONType from = v.getType();
    switch (to) {
        case BSONType::kBool:
            if (v.numeric())
                return Value(v.coerceToBool());
            return Value(true);
        case BSONType::kNumberInt:
        case BSONType::kNumberLong: {
            bool toInt = to == BSONType::kNumberInt;
            long long r;
            if (from == BSONType::kBool) {
                r = v.getBool() ? 1 : 0;
            } else if (from == BSONType::kNumberInt || from == BSONType::kNumberLong) {
                r = v.getLong();
            } else if (from == BSONType::kNumberDecimal) {
                Decimal128 dec = v.getDecimal();
                if (dec.isNaN() || dec.isInfinite())
                    conversionFailure(
                        "Attempt to convert NaN or infinity value to integer type "
                        "in $convert with no onError value: " +
                        v.toString());
                std::uint32_t flags = 0;
                r = dec.toLong(&flags, Decimal128::kRoundTowardZero);
                if (Decimal128::hasFlag(flags, Decimal128::kInvalid))
                    conversionFailure(
                        "Conversion would overflow target type in $convert with "
                        "no onError value: " +
                        v.toString());
            } else if (from == BSONType::kNumberDouble) {
                double d = v.getDouble();
                if (std::isnan(d) || std::isinf(d))
                    conversionFailure(
                        "Attempt to convert NaN or infinity value to integer type "
                        "in $convert with no onError value: " +
                        v.toString());
                if (d >= 9223372036854775808.0 || d < -9223372036854775808.0)
                    conversionFailure(
                        "Conversion would overflow target type in $convert with "
                        "no onError value: " +
                        v.toString());
                r = static_cast<long long>(std::trunc(d));
            } else if (from == BSONType::kString) {
                if (!parseLong(v.getStringData(), &r))
                    conversionFailure("Failed to parse number '" + v.getString() +
                                      "' in $convert with no onError value: Did not consume "
                                      "whole string.");
            } else if (from == BSONType::kDate && !toInt) {
                r = v.getDate().toMillisSinceEpoch();
            } else {
                unsupported(v, to);
            }
            if (toInt) {
                if (r < std::numeric_limits<int>::min() || r > std::numeric_limits<int>::max())
                    conversionFailure(
                        "Conversion would overflow target type in $convert with no "
                        "onError value: " +
                        v.toString());
                return Value(static_cast<int>(r));
            }
            return Value(r);
        }
        case BSONType::kNumberDouble:
        case BSONType::kNumberDecimal: {
            if (to == BSONType::kNumberDecimal && from == BSONType::kString) {
                auto sw = Decimal128::parse(v.getStringData());
                if (sw.isOK())
                    return Value(sw.getValue());
            }
            if (to == BSONType::kNumberDouble && from == BSONType::kNumberDecimal) {
                std::uint32_t flags = 0;
                double r = v.getDecimal().toDouble(&flags);
                if (flags != Decimal128::kNoFlag && flags != Decimal128::kInexact)
                    conversionFailure(
                        "Conversion would overflow target type in $convert with "
                        "no onError value: " +
                        v.toString());
                return Value(r);
            }
            double d;
            if (from == BSONType::kBool)
                d = v.getBool() ? 1 : 0;
            else if (v.numeric())
                d = v.getDouble();
            else if (from == BSONType::kDate)
                d = static_cast<double>(v.getDate().toMillisSinceEpoch());
            else if (from == BSONType::kString) {
                if (!parseDouble(v.getStringData(), &d))
                    conversionFailure("Failed to parse number '" + v.getString() +
                                      "' in $convert with no onError value: Did not consume "
                                      "whole string.");
            } else {
                unsupported(v, to);
            }
            if (to == BSONType::kNumberDecimal) {
                if (from == BSONType::kNumberDecimal)
                    return v;
                if (from == BSONType::kNumberInt || from == BSONType::kNumberLong)
                    return Value(Decimal128::fromInt64(v.getLong()));
                if (from == BSONType::kBool)
                    return Value(Decimal128(v.getBool() ? 1 : 0));
                if (from == BSONType::kDate)
                    return Value(Decimal128(v.getDate().toMillisSinceEpoch()));
                return Value(Decimal128::fromDouble(d));
            }
            return Value(d);
        }
        case BSONType::kString:
            switch (from) {
                case BSONType::kString:
                    return v;
                case BSONType::kBool:
                    return Value(StringData(v.getBool() ? "true" : "false"));
                case BSONType::kNumberInt:
                case BSONType::kNumberLong:
                    return Value(std::to_string(v.getLong()));
                case BSONType::kNumberDouble:
                    return Value(doubleToString(v.getDouble()));
                case BSONType::kNumberDecimal:
                    return Value(v.getDecimal().toString());
                case BSONType::kOid:
                    return Value(v.elem().OID().toString());
                case BSONType::kDate:
                    return Value(formatDate(kIsoFormatStringZ, v.getDate(), absl::UTCTimeZone()));
                default:
                    unsupported(v, to);
            }
        case BSONType::kDate:
            switch (from) {
                case BSONType::kDate:
                    return v;
                case BSONType::kNumberLong:
                    return Value(Date_t::fromMillisSinceEpoch(v.getLong()));
                case BSONType::kNumberDecimal: {
                    std::uint32_t flags = 0;
                    long long ms = v.getDecimal().toLong(&flags, Decimal128::kRoundTowardZero);
                    if (Decimal128::hasFlag(flags, Decimal128::kInvalid))
                        conversionFailure(
                            "Conversion would overflow target type in $convert "
                            "with no onError value: " +
                            v.toString());
                    return Value(Date_t::fromMillisSinceEpoch(ms));
                }
                case BSONType::kNumberDouble: {
                    double d = v.getDouble();
                    if (std::isnan(d) || std::isinf(d) || std::fabs(d) >= 9.2e18)
                        conversionFailure(
                            "Conversion would overflow target type in $convert "
                            "with no onError value: " +
                            v.toString());
                    return Value(Date_t::fromMillisSinceEpoch(static_cast<long long>(d)));
                }
                case BSONType::kOid:
                case BSONType::kTimestamp:
                    return Value(v.coerceToDate());
                case BSONType::kString:
                    return Value(
                        uassertStatusOK(parseDateString(v.getStringData(), absl::UTCTimeZone())));
                default:
                    unsupported(v, to);
            }
        case BSONType::kOid:
            if (from == BSONType::kOid)
                return v;
            if (from == BSONType::kString) {
                StringData s = v.getStringData();
                bool ok = s.size() == 24;
                for (char c : s)
                    ok = ok && std::isxdigit(static_cast<unsigned char>(c));
                if (!ok)
                    conversionFailure("Failed to parse objectId '" + v.getString() +
                                      "' in $convert with no onError value: Invalid string "
                                      "length for parsing to OID, expected 24 but found " +
                                      std::to_string(s.size()));
                unsigned char bytes[12];
                for (int i = 0; i < 12; ++i)
                    bytes[i] = static_cast<unsigned char>(
                        std::stoi(std::string(s.substr(2 * i, 2)), nullptr, 16));
                return Value(OID::from(reinterpret_cast<const char*>(bytes)));
            }
            unsupported(v, to);
        default:
            unsupported(v, to);
    }
}

bool typeFromSpec(const Value& v, BSONType* out) {
    if (v.isString()) {
        static const std::pair<const char*, BSONType> kNames[] = {
            {"double", BSONType::kNumberDouble}, {"string", BSONType::kString},
            {"objectId", BSONType::kOid},        {"bool", BSONType::kBool},
            {"date", BSONType::kDate},           {"int", BSONType::kNumberInt},
            {"long", BSONType::kNumberLong},     {"decimal", BSONType::kNumberDecimal}};
        for (const auto& [n, t] : kNames)
            if (v.getStringData() == n) {
                *out = t;
                return true;
            }
        uasserted(ErrorCodes::BadValue, "Unknown type name: " + v.getString());
    }
    if (v.numeric()) {
        uassert(ErrorCodes::FailedToParse, "In $convert, numeric 'to' argument is not an integer",
                v.integral());
        int t = v.getInt();
        uassert(ErrorCodes::FailedToParse,
                "In $convert, numeric value for 'to' does not correspond to a BSON type: " +
                    std::to_string(t),
                isValidBSONType(t));
        *out = static_cast<BSONType>(t);
        return true;
    }
    uasserted(ErrorCodes::FailedToParse,
              "$convert's 'to' argument must be a string or number, but is " + typeNameOf(v));
}

ExprPtr parseConvert(ExpressionContext* expCtx, const BSONElement& e,
                     const VariablesParseState& vps) {
    uassert(ErrorCodes::FailedToParse,
            "$convert expects an object of named arguments but found: " + typeNameOf(Value(e)),
            e.type() == BSONType::kObject);
    ExprVector owned;
    const Expression *input = nullptr, *to = nullptr, *onError = nullptr, *onNull = nullptr;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        owned.push_back(Expression::parseOperand(expCtx, f, vps));
        const Expression* x = owned.back().get();
        if (n == "input")
            input = x;
        else if (n == "to")
            to = x;
        else if (n == "onError")
            onError = x;
        else if (n == "onNull")
            onNull = x;
        else if (n == "format" || n == "base" || n == "byteOrder")
            continue;
        else
            uasserted(ErrorCodes::FailedToParse,
                      "$convert found an unknown argument: " + std::string(n));
    }
    uassert(ErrorCodes::FailedToParse, "Missing 'input' parameter to $convert", input);
    uassert(ErrorCodes::FailedToParse, "Missing 'to' parameter to $convert", to);
    return makeCustom("$convert", e, std::move(owned), [=](const BSONObj& root, Variables* vars) {
        Value in = input->evaluate(root, vars);
        Value toV = to->evaluate(root, vars);
        if (in.nullish())
            return onNull ? onNull->evaluate(root, vars) : Value::null();
        if (toV.nullish())
            return Value::null();
        BSONType target;
        typeFromSpec(toV, &target);
        if (!onError)
            return convertTo(in, target);
        try {
            return convertTo(in, target);
        } catch (const DBException& ex) {
            if (ex.code() != ErrorCodes::ConversionFailure)
                throw;
            return onError->evaluate(root, vars);
        }
    });
}

void registerTo(StringData name, BSONType to) {
    registerNaryExpression(name, 1, 1, [to](const ValueArgs& a) {
        if (a[0].nullish())
            return Value::null();
        return convertTo(a[0], to);
    });
}

const bool kRegistered = [] {
    registerNaryExpression("$type", 1, 1,
                           [](const ValueArgs& a) { return Value(typeNameOf(a[0])); });
    registerNaryExpression("$isNumber", 1, 1,
                           [](const ValueArgs& a) { return Value(a[0].numeric()); });
    Expression::registerParser("$convert", parseConvert);
    registerTo("$toBool", BSONType::kBool);
    registerTo("$toInt", BSONType::kNumberInt);
    registerTo("$toLong", BSONType::kNumberLong);
    registerTo("$toDouble", BSONType::kNumberDouble);
    registerTo("$toDecimal", BSONType::kNumberDecimal);
    registerTo("$toString", BSONType::kString);
    registerTo("$toDate", BSONType::kDate);
    registerTo("$toObjectId", BSONType::kOid);
    return true;
}();

}  // namespace
}  // namespace mongo
