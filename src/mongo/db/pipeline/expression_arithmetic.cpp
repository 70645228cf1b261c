// Arithmetic ($add $subtract $multiply $divide $mod $abs $ceil $floor $trunc $round
// $sqrt $exp $ln $log $log10 $pow), comparison ($eq $ne $gt $gte $lt $lte $cmp) and
// boolean ($and $or $not) operators.
#include <cmath>
#include <limits>
#include <optional>

#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

enum class NumKind { kInt = 0, kLong = 1, kDouble = 2, kDecimal = 3 };

NumKind kindOf(const Value& v) {
    switch (v.getType()) {
        case BSONType::kNumberInt:
            return NumKind::kInt;
        case BSONType::kNumberLong:
            return NumKind::kLong;
        case BSONType::kNumberDecimal:
            return NumKind::kDecimal;
        default:
            return NumKind::kDouble;
    }
}

/** Builds the result of an integer-or-double computation in the widest kind. */
Value makeNumber(NumKind kind, long long l, double d) {
    switch (kind) {
        case NumKind::kInt:
            if (l >= std::numeric_limits<int>::min() && l <= std::numeric_limits<int>::max())
                return Value(static_cast<int>(l));
            return Value(l);
        case NumKind::kLong:
            return Value(l);
        case NumKind::kDouble:
            return Value(d);
        case NumKind::kDecimal:
            return Value(Decimal128::fromDouble(d));
    }
    return Value();
}

/** Running sum/product with int -> long -> double promotion on overflow. */
class NumberFolder {
public:
    explicit NumberFolder(bool multiply) : _mul(multiply), _l(multiply ? 1 : 0), _d(_l) {}
    void add(const Value& v) {
        NumKind k = kindOf(v);
        if (k == NumKind::kDecimal && _kind != NumKind::kDecimal) {
            // From here on the running value is an exact decimal.
            _dec = _kind <= NumKind::kLong ? Decimal128(_l) : Decimal128(_d);
        }
        if (k > _kind)
            _kind = k;
        if (_kind == NumKind::kDecimal) {
            _dec = _mul ? _dec.multiply(v.getDecimal()) : _dec.add(v.getDecimal());
            return;
        }
        if (_kind <= NumKind::kLong) {
            long long x = v.getLong(), r;
            bool overflow =
                _mul ? __builtin_mul_overflow(_l, x, &r) : __builtin_add_overflow(_l, x, &r);
            if (!overflow) {
                _l = r;
                _d = _mul ? _d * v.getDouble() : _d + v.getDouble();
                return;
            }
            _kind = NumKind::kDouble;
        }
        _d = _mul ? _d * v.getDouble() : _d + v.getDouble();
    }
    Value result() const {
        if (_kind == NumKind::kDecimal)
            return Value(_dec);
        return makeNumber(_kind, _l, _d);
    }
    NumKind kind() const {
        return _kind;
    }
    double asDouble() const {
        if (_kind == NumKind::kDecimal)
            return _dec.toDouble();
        return _kind <= NumKind::kLong ? static_cast<double>(_l) : _d;
    }
    long long asLong() const {
        return _l;
    }

private:
    bool _mul;
    NumKind _kind = NumKind::kInt;
    long long _l;
    double _d;
    Decimal128 _dec;
};

long long roundToLong(double d) {
    return static_cast<long long>(std::llround(d));
}

/**
 * Milliseconds to add to a date: integers as they are, doubles and decimals rounded to the
 * nearest (half away from zero); one out of the range of a long is Overflow (15).
 */
long long millisToAdd(NumKind kind, long long asLong, double asDouble) {
    if (kind <= NumKind::kLong)
        return asLong;
    // 2^63 is the first double past LLONG_MAX; NaN and infinities fail the test too.
    uassert(ErrorCodes::Overflow, "date overflow in $add",
            std::isfinite(asDouble) && asDouble > -9223372036854775808.0 &&
                asDouble < 9223372036854775808.0);
    return roundToLong(asDouble);
}

long long addMillis(long long ms, long long delta) {
    long long out;
    uassert(ErrorCodes::Overflow, "date overflow in $add",
            !__builtin_add_overflow(ms, delta, &out));
    return out;
}

/**
 * $add. With a date (at most one) the result is a date, summed as upstream does: the numbers
 * before the date are added together (widening as usual) and rounded once to milliseconds when
 * the date is met; each number after it is rounded and added on its own. So
 * [date, 0.6, 0.6] is date + 2 ms, while [0.6, 0.6, date] is date + 1 ms.
 */
Value addFn(const ValueArgs& args) {
    NumberFolder f(false);
    std::optional<long long> dateMs;
    for (const auto& v : args) {
        if (v.nullish())
            return Value::null();
        if (v.getType() == BSONType::kDate) {
            uassert(16612, "only one date allowed in an $add expression", !dateMs);
            dateMs = addMillis(v.getDate().toMillisSinceEpoch(),
                               millisToAdd(f.kind(), f.asLong(), f.asDouble()));
            continue;
        }
        uassert(16554, "$add only supports numeric or date types, not " + typeNameOf(v),
                v.numeric());
        if (dateMs) {
            const NumKind k = kindOf(v);
            *dateMs = addMillis(
                *dateMs, millisToAdd(k, k <= NumKind::kLong ? v.getLong() : 0, v.getDouble()));
            continue;
        }
        f.add(v);
    }
    if (dateMs)
        return Value(Date_t::fromMillisSinceEpoch(*dateMs));
    return f.result();
}

Value subtractFn(const ValueArgs& args) {
    const Value& l = args[0];
    const Value& r = args[1];
    if (l.nullish() || r.nullish())
        return Value::null();
    if (l.getType() == BSONType::kDate) {
        long long lm = l.getDate().toMillisSinceEpoch();
        if (r.getType() == BSONType::kDate)
            return Value(lm - r.getDate().toMillisSinceEpoch());
        uassert(16613, "cant $subtract a " + typeNameOf(r) + " from a Date", r.numeric());
        long long delta =
            r.getType() == BSONType::kNumberDouble || r.getType() == BSONType::kNumberDecimal
                ? roundToLong(r.getDouble())
                : r.getLong();
        return Value(Date_t::fromMillisSinceEpoch(lm - delta));
    }
    uassert(16556, "cant $subtract a " + typeNameOf(r) + " from a " + typeNameOf(l),
            l.numeric() && r.numeric());
    NumKind k = std::max(kindOf(l), kindOf(r));
    if (k == NumKind::kDecimal)
        return Value(l.getDecimal().subtract(r.getDecimal()));
    if (k <= NumKind::kLong) {
        long long res;
        if (!__builtin_sub_overflow(l.getLong(), r.getLong(), &res))
            return makeNumber(k, res, 0);
        k = NumKind::kDouble;
    }
    return makeNumber(k, 0, l.getDouble() - r.getDouble());
}

Value multiplyFn(const ValueArgs& args) {
    NumberFolder f(true);
    for (const auto& v : args) {
        if (v.nullish())
            return Value::null();
        uassert(16555, "$multiply only supports numeric types, not " + typeNameOf(v), v.numeric());
        f.add(v);
    }
    return f.result();
}

Value divideFn(const ValueArgs& args) {
    const Value& l = args[0];
    const Value& r = args[1];
    if (l.nullish() || r.nullish())
        return Value::null();
    uassert(16609,
            "$divide only supports numeric types, not " + typeNameOf(l) + " and " + typeNameOf(r),
            l.numeric() && r.numeric());
    if (kindOf(l) == NumKind::kDecimal || kindOf(r) == NumKind::kDecimal) {
        Decimal128 divisor = r.getDecimal();
        uassert(16608, "can't $divide by zero", !divisor.isZero());
        return Value(l.getDecimal().divide(divisor));
    }
    uassert(16608, "can't $divide by zero", r.getDouble() != 0);
    return Value(l.getDouble() / r.getDouble());
}

Value modFn(const ValueArgs& args) {
    const Value& l = args[0];
    const Value& r = args[1];
    if (l.nullish() || r.nullish())
        return Value::null();
    uassert(16611,
            "$mod only supports numeric types, not " + typeNameOf(l) + " and " + typeNameOf(r),
            l.numeric() && r.numeric());
    NumKind k = std::max(kindOf(l), kindOf(r));
    if (k <= NumKind::kLong) {
        uassert(16610, "can't $mod by zero", r.getLong() != 0);
        if (r.getLong() == -1)
            return makeNumber(k, 0, 0);
        return makeNumber(k, l.getLong() % r.getLong(), 0);
    }
    if (k == NumKind::kDecimal) {
        Decimal128 divisor = r.getDecimal();
        uassert(16610, "can't $mod by zero", !divisor.isZero());
        return Value(l.getDecimal().modulo(divisor));
    }
    uassert(16610, "can't $mod by zero", r.getDouble() != 0);
    return makeNumber(k, 0, std::fmod(l.getDouble(), r.getDouble()));
}

/** Registers a one-argument numeric function (null in, null out). */
void registerUnaryMath(StringData name, int typeCode, double (*fn)(double), bool keepIntegers,
                       Decimal128 (*decFn)(const Decimal128&) = nullptr) {
    std::string n(name);
    registerNaryExpression(name, 1, 1, [n, typeCode, fn, keepIntegers, decFn](const ValueArgs& a) {
        const Value& v = a[0];
        if (v.nullish())
            return Value::null();
        uassert(typeCode, n + " only supports numeric types, not " + typeNameOf(v), v.numeric());
        NumKind k = kindOf(v);
        if (keepIntegers && k <= NumKind::kLong)
            return v;
        if (k == NumKind::kDecimal && decFn)
            return Value(decFn(v.getDecimal()));
        double r = fn(v.getDouble());
        return k == NumKind::kDecimal ? Value(Decimal128::fromDouble(r)) : Value(r);
    });
}

Value absFn(const ValueArgs& a) {
    const Value& v = a[0];
    if (v.nullish())
        return Value::null();
    uassert(28765, "$abs only supports numeric types, not " + typeNameOf(v), v.numeric());
    switch (kindOf(v)) {
        case NumKind::kInt:
            return makeNumber(NumKind::kInt, std::llabs(static_cast<long long>(v.getInt())), 0);
        case NumKind::kLong:
            uassert(28680, "can't take $abs of long long min",
                    v.getLong() != std::numeric_limits<long long>::min());
            return Value(std::llabs(v.getLong()));
        case NumKind::kDouble:
            return Value(std::fabs(v.getDouble()));
        case NumKind::kDecimal:
            return Value(v.getDecimal().toAbs());
    }
    return Value();
}

/** $round / $trunc with an optional place argument (-20 .. 100). */
Value roundLike(const ValueArgs& a, bool isRound) {
    const Value& v = a[0];
    StringData name = isRound ? "$round" : "$trunc";
    if (v.nullish())
        return Value::null();
    long long place = 0;
    if (a.size() > 1) {
        if (a[1].nullish())
            return Value::null();
        uassert(5155300, std::string(name) + " requires \"place\" argument to be an integer",
                a[1].integral());
        place = a[1].getLong();
        uassert(5155301,
                std::string(name) + " requires \"place\" argument to be between -20 and 100",
                place >= -20 && place < 101);
    }
    uassert(51081, std::string(name) + " only supports numeric types, not " + typeNameOf(v),
            v.numeric());
    NumKind k = kindOf(v);
    auto op = [&](double x) {
        if (!isRound)
            return std::trunc(x);
        // Round half to even.
        double r = std::nearbyint(x);
        return r;
    };
    if (k <= NumKind::kLong) {
        if (place >= 0)
            return v;
        long long p10 = 1;
        for (long long i = 0; i < -place && i < 19; ++i)
            p10 *= 10;
        long long x = v.getLong();
        long long q = x / p10, rem = x % p10;
        if (isRound) {
            long long twice = std::llabs(rem) * 2;
            if (twice > p10 || (twice == p10 && (q % 2 != 0)))
                q += x < 0 ? -1 : 1;
        }
        return makeNumber(k, q * p10, 0);
    }
    if (k == NumKind::kDecimal) {
        Decimal128 dec = v.getDecimal();
        // Only values with digits beyond `place` change; others keep their form.
        if (!dec.isFinite() ||
            static_cast<long long>(dec.getBiasedExponent()) - Decimal128::kExponentBias >= -place)
            return v;
        return Value(
            dec.quantize(Decimal128::makeQuantum(static_cast<int>(-place)),
                         isRound ? Decimal128::kRoundTiesToEven : Decimal128::kRoundTowardZero));
    }
    double x = v.getDouble();
    double scale = std::pow(10.0, static_cast<double>(place));
    double r = place == 0 ? op(x) : op(x * scale) / scale;
    return k == NumKind::kDecimal ? Value(Decimal128::fromDouble(r)) : Value(r);
}

Value powFn(const ValueArgs& a) {
    const Value& b = a[0];
    const Value& e = a[1];
    if (b.nullish() || e.nullish())
        return Value::null();
    uassert(28762, "$pow's base must be numeric, not " + typeNameOf(b), b.numeric());
    uassert(28763, "$pow's exponent must be numeric, not " + typeNameOf(e), e.numeric());
    NumKind k = std::max(kindOf(b), kindOf(e));
    if (k == NumKind::kDecimal) {
        Decimal128 base = b.getDecimal(), exp = e.getDecimal();
        uassert(28764, "$pow cannot take a base of 0 and a negative exponent",
                !(base.isZero() && exp.isLess(Decimal128(0))));
        return Value(base.power(exp));
    }
    uassert(28764, "$pow cannot take a base of 0 and a negative exponent",
            !(b.getDouble() == 0 && e.getDouble() < 0));
    if (k <= NumKind::kLong && e.getLong() >= 0) {
        long long base = b.getLong(), result = 1;
        bool overflow = false;
        for (long long i = 0; i < e.getLong() && !overflow; ++i)
            overflow = __builtin_mul_overflow(result, base, &result);
        if (!overflow && (base == 0 || base == 1 || base == -1 || e.getLong() < 64))
            return makeNumber(k, result, 0);
        if (overflow && kindOf(b) == NumKind::kInt && kindOf(e) == NumKind::kInt)
            return Value(std::pow(b.getDouble(), e.getDouble()));
        return Value(std::pow(b.getDouble(), e.getDouble()));
    }
    double r = std::pow(b.getDouble(), e.getDouble());
    return k == NumKind::kDecimal ? Value(Decimal128::fromDouble(r)) : Value(r);
}

Value logFn(const ValueArgs& a) {
    if (a[0].nullish() || a[1].nullish())
        return Value::null();
    uassert(28756, "$log's argument must be numeric, not " + typeNameOf(a[0]), a[0].numeric());
    uassert(28757, "$log's base must be numeric, not " + typeNameOf(a[1]), a[1].numeric());
    if (kindOf(a[0]) == NumKind::kDecimal || kindOf(a[1]) == NumKind::kDecimal) {
        Decimal128 x = a[0].getDecimal(), b = a[1].getDecimal();
        uassert(28758, "$log's argument must be a positive number, but is " + a[0].toString(),
                x.isGreater(Decimal128(0)) || x.isNaN());
        uassert(28759,
                "$log's base must be a positive number not equal to 1, but is " + a[1].toString(),
                (b.isGreater(Decimal128(0)) && !b.isEqual(Decimal128(1))) || b.isNaN());
        return Value(x.logarithm(b));
    }
    double x = a[0].getDouble(), b = a[1].getDouble();
    uassert(28758, "$log's argument must be a positive number, but is " + a[0].toString(),
            x > 0 || std::isnan(x));
    uassert(28759,
            "$log's base must be a positive number not equal to 1, but is " + a[1].toString(),
            (b > 0 && b != 1) || std::isnan(b));
    return Value(std::log(x) / std::log(b));
}

void registerCheckedLog(StringData name, int typeCode, int domainCode, double (*fn)(double),
                        bool allowZero, Decimal128 (*decFn)(const Decimal128&)) {
    std::string n(name);
    registerNaryExpression(name, 1, 1, [=](const ValueArgs& a) {
        const Value& v = a[0];
        if (v.nullish())
            return Value::null();
        uassert(typeCode, n + " only supports numeric types, not " + typeNameOf(v), v.numeric());
        if (kindOf(v) == NumKind::kDecimal) {
            Decimal128 x = v.getDecimal();
            if (!x.isNaN()) {
                if (allowZero)
                    uassert(domainCode, n + "'s argument must be greater than or equal to 0",
                            x.isGreaterEqual(Decimal128(0)));
                else
                    uassert(domainCode,
                            n + "'s argument must be a positive number, but is " + v.toString(),
                            x.isGreater(Decimal128(0)));
            }
            return Value(decFn(x));
        }
        double x = v.getDouble();
        if (!std::isnan(x)) {
            if (allowZero)
                uassert(domainCode, n + "'s argument must be greater than or equal to 0", x >= 0);
            else
                uassert(domainCode,
                        n + "'s argument must be a positive number, but is " + v.toString(), x > 0);
        }
        double r = fn(x);
        return kindOf(v) == NumKind::kDecimal ? Value(Decimal128::fromDouble(r)) : Value(r);
    });
}

ExprPtr parseAndOr(ExpressionContext* expCtx, const BSONElement& e, const VariablesParseState& vps,
                   bool isAnd) {
    ExprVector args = Expression::parseArguments(expCtx, e, vps);
    // As upstream's optimisation: a constant operand that decides the result (false for
    // $and, true for $or) makes the whole expression that constant.
    for (const auto& a : args)
        if (a->isConstant() && a->evaluate(BSONObj(), nullptr).coerceToBool() != isAnd)
            return std::make_unique<ExpressionConstant>(Value(!isAnd));
    std::vector<const Expression*> raw;
    for (auto& a : args)
        raw.push_back(a.get());
    auto out =
        std::make_unique<ExpressionCustom>(isAnd ? "$and" : "$or", BSONObj(), std::move(args),
                                           [raw, isAnd](const BSONObj& root, Variables* vars) {
                                               for (const auto* x : raw) {
                                                   bool t = x->evaluate(root, vars).coerceToBool();
                                                   if (isAnd && !t)
                                                       return Value(false);
                                                   if (!isAnd && t)
                                                       return Value(true);
                                               }
                                               return Value(isAnd);
                                           });
    out->setChildrenAreArguments();
    return out;
}

/**
 * $bitAnd/$bitOr/$bitXor: every operand an int or a long (TypeMismatch otherwise), null if one
 * is nullish; the result is a long when an operand is, else an int. No operand gives `identity`.
 */
/** True for a long operand of a bitwise operator; TypeMismatch unless an int or a long. */
bool bitwiseOperandIsLong(const std::string& opName, const Value& v) {
    BSONType t = v.getType();
    uassert(ErrorCodes::TypeMismatch, opName + " only supports int and long operands.",
            t == BSONType::kNumberInt || t == BSONType::kNumberLong);
    return t == BSONType::kNumberLong;
}

void registerBitwise(StringData name, long long identity, long long (*op)(long long, long long)) {
    std::string opName(name);
    registerNaryExpression(name, 0, -1, [opName, identity, op](const ValueArgs& a) {
        bool anyLong = false;
        long long acc = identity;
        for (const auto& v : a) {
            if (v.nullish())
                return Value::null();
            anyLong = bitwiseOperandIsLong(opName, v) || anyLong;
            acc = op(acc, v.getLong());
        }
        return anyLong ? Value(acc) : Value(static_cast<int>(acc));
    });
}

void registerComparison(StringData name, bool (*pred)(int)) {
    registerCollatedNaryExpression(name, 2, 2,
                                   [pred](const ValueArgs& a, const StringComparator* strings) {
                                       return Value(pred(Value::compare(a[0], a[1], strings)));
                                   });
}

const bool kRegistered = [] {
    registerNaryExpression("$add", 0, -1, addFn);
    registerNaryExpression("$subtract", 2, 2, subtractFn);
    registerNaryExpression("$multiply", 0, -1, multiplyFn);
    registerNaryExpression("$divide", 2, 2, divideFn);
    registerNaryExpression("$mod", 2, 2, modFn);
    registerNaryExpression("$abs", 1, 1, absFn);
    registerUnaryMath(
        "$ceil", 28765, [](double d) { return std::ceil(d); }, true,
        [](const Decimal128& d) { return d.ceil(); });
    registerUnaryMath(
        "$floor", 28765, [](double d) { return std::floor(d); }, true,
        [](const Decimal128& d) { return d.floor(); });
    registerUnaryMath(
        "$exp", 28765, [](double d) { return std::exp(d); }, false,
        [](const Decimal128& d) { return d.exponential(); });
    registerCheckedLog(
        "$sqrt", 28765, 28714, [](double d) { return std::sqrt(d); }, true,
        [](const Decimal128& d) { return d.squareRoot(); });
    registerCheckedLog(
        "$ln", 28765, 28766, [](double d) { return std::log(d); }, false,
        [](const Decimal128& d) { return d.logarithm(); });
    registerCheckedLog(
        "$log10", 28765, 28761, [](double d) { return std::log10(d); }, false,
        [](const Decimal128& d) { return d.log10(); });
    registerNaryExpression("$log", 2, 2, logFn);
    registerUnaryMath(
        "$sin", 28765, [](double d) { return std::sin(d); }, false);
    registerUnaryMath(
        "$cos", 28765, [](double d) { return std::cos(d); }, false);
    registerUnaryMath(
        "$tan", 28765, [](double d) { return std::tan(d); }, false);
    registerUnaryMath(
        "$asin", 28765, [](double d) { return std::asin(d); }, false);
    registerUnaryMath(
        "$acos", 28765, [](double d) { return std::acos(d); }, false);
    registerUnaryMath(
        "$atan", 28765, [](double d) { return std::atan(d); }, false);
    registerUnaryMath(
        "$sinh", 28765, [](double d) { return std::sinh(d); }, false);
    registerUnaryMath(
        "$cosh", 28765, [](double d) { return std::cosh(d); }, false);
    registerUnaryMath(
        "$tanh", 28765, [](double d) { return std::tanh(d); }, false);
    registerUnaryMath(
        "$asinh", 28765, [](double d) { return std::asinh(d); }, false);
    registerUnaryMath(
        "$acosh", 28765, [](double d) { return std::acosh(d); }, false);
    registerUnaryMath(
        "$atanh", 28765, [](double d) { return std::atanh(d); }, false);
    registerUnaryMath(
        "$degreesToRadians", 28765, [](double d) { return d * M_PI / 180.0; }, false);
    registerUnaryMath(
        "$radiansToDegrees", 28765, [](double d) { return d * 180.0 / M_PI; }, false);
    registerNaryExpression("$atan2", 2, 2, [](const ValueArgs& a) {
        if (a[0].nullish() || a[1].nullish())
            return Value::null();
        uassert(51044, "$atan2 only supports numeric types", a[0].numeric() && a[1].numeric());
        return Value(std::atan2(a[0].getDouble(), a[1].getDouble()));
    });
    registerNaryExpression("$pow", 2, 2, powFn);
    registerBitwise("$bitAnd", -1, [](long long x, long long y) { return x & y; });
    registerBitwise("$bitOr", 0, [](long long x, long long y) { return x | y; });
    registerBitwise("$bitXor", 0, [](long long x, long long y) { return x ^ y; });
    registerNaryExpression("$bitNot", 1, 1, [](const ValueArgs& a) {
        if (a[0].nullish())
            return Value::null();
        return bitwiseOperandIsLong("$bitNot", a[0]) ? Value(~a[0].getLong())
                                                     : Value(~a[0].getInt());
    });
    registerNaryExpression("$round", 1, 2, [](const ValueArgs& a) { return roundLike(a, true); });
    registerNaryExpression("$trunc", 1, 2, [](const ValueArgs& a) { return roundLike(a, false); });

    registerComparison("$eq", [](int c) { return c == 0; });
    registerComparison("$ne", [](int c) { return c != 0; });
    registerComparison("$gt", [](int c) { return c > 0; });
    registerComparison("$gte", [](int c) { return c >= 0; });
    registerComparison("$lt", [](int c) { return c < 0; });
    registerComparison("$lte", [](int c) { return c <= 0; });
    registerCollatedNaryExpression("$cmp", 2, 2,
                                   [](const ValueArgs& a, const StringComparator* strings) {
                                       int c = Value::compare(a[0], a[1], strings);
                                       return Value(c < 0 ? -1 : (c > 0 ? 1 : 0));
                                   });
    Expression::registerParser(
        "$and", [](ExpressionContext* c, const BSONElement& e, const VariablesParseState& v) {
            return parseAndOr(c, e, v, true);
        });
    Expression::registerParser(
        "$or", [](ExpressionContext* c, const BSONElement& e, const VariablesParseState& v) {
            return parseAndOr(c, e, v, false);
        });
    registerNaryExpression("$not", 1, 1,
                           [](const ValueArgs& a) { return Value(!a[0].coerceToBool()); });
    return true;
}();

}  // namespace
}  // namespace mongo
