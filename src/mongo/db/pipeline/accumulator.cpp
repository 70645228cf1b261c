#include "mongo/db/pipeline/accumulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <type_traits>
#include <vector>

#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

std::map<std::string, AccumulatorParser, std::less<>>& registry() {
    static std::map<std::string, AccumulatorParser, std::less<>> r;
    return r;
}

}  // namespace

void registerAccumulator(StringData name, AccumulatorParser parser) {
    registry()[std::string(name)] = std::move(parser);
}

bool isAccumulatorRegistered(StringData name) {
    return registry().find(name) != registry().end();
}

AccumulationStatement parseAccumulationStatement(ExpressionContext* expCtx, const BSONElement& e,
                                                 const VariablesParseState& vps) {
    StringData field = e.fieldNameStringData();
    uassert(40235, "The field name '" + std::string(field) + "' cannot contain '.'",
            field.find('.') == StringData::npos);
    uassert(40236, "The field name '" + std::string(field) + "' cannot be an operator name",
            !field.starts_with("$"));
    uassert(40234, "The field '" + std::string(field) + "' must be an accumulator object",
            e.type() == BSONType::kObject);
    BSONObj spec = e.Obj();
    uassert(40238, "The field '" + std::string(field) + "' must specify one accumulator",
            spec.nFields() == 1);
    BSONElement op = spec.firstElement();
    auto it = registry().find(op.fieldNameStringData());
    uassert(15952, "unknown group operator '" + std::string(op.fieldNameStringData()) + "'",
            it != registry().end());
    AccumulationStatement st;
    st.fieldName = std::string(field);
    st.opName = std::string(op.fieldNameStringData());
    auto [expr, factory] = it->second(expCtx, op, vps);
    st.expr = std::move(expr);
    st.factory = std::move(factory);
    st.spec = spec.getOwned();
    return st;
}

// ---------------------------------------------------------------------------------------

void SumState::add(const Value& v) {
    switch (v.getType()) {
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
            addInteger(v.getLong(), v.getType() == BSONType::kNumberLong);
            return;
        case BSONType::kNumberDecimal:
            _decimal = true;
            _decimalSum = _decimalSum.add(v.getDecimal());
            return;
        case BSONType::kNumberDouble:
            if (_kind < 2) {
                _kind = 2;
                _double += static_cast<double>(_long);
                _long = 0;
            }
            addDouble(v.getDouble());
            return;
        default:
            return;
    }
}

void SumState::addInteger(long long v, bool isLong) {
    if (_kind < 2) {
        long long r;
        if (!__builtin_add_overflow(_long, v, &r)) {
            _long = r;
            if (isLong)
                _kind = 1;
            return;
        }
        _kind = 2;  // overflow: continue in double
        _double = static_cast<double>(_long);
        _long = 0;
    }
    addDouble(static_cast<double>(v));
}

bool SumState::addExactIntegralDoublesSum(double exactSum) {
    // What addDoubles() does first for a state holding integers.
    const double start = _kind < 2 ? _double + static_cast<double>(_long) : _double;
    constexpr double kLimit = 4503599627370496.0;  // 2^52
    if (_compensation != 0 || !(start > -kLimit && start < kLimit) ||
        start != static_cast<double>(static_cast<long long>(start)))
        return false;
    // |start| < 2^52 and every partial sum of the run is below 2^52 in magnitude: each Kahan
    // step adds exactly, leaving the compensation 0.
    _kind = 2;
    _long = 0;
    _double = start + exactSum;
    return true;
}

bool SumState::addIntegerSum(long long sum, long long maxAbsEach, bool isLong) {
    // Sequential adds overflow only if a partial sum leaves int64; with |_long| <= 2^62 and a
    // run of at most 2^22 values each at most 2^31 (int32) or maxAbsEach, none can.
    constexpr long long kHalf = 1LL << 62;
    if (_kind >= 2 || _long > kHalf || _long < -kHalf || maxAbsEach > (1LL << 38))
        return false;
    _long += sum;
    if (isLong)
        _kind = 1;
    return true;
}

void SumState::addDouble(double d) {
    // Kahan summation. Once the sum is infinite or NaN the compensation would be NaN (and
    // [Infinity, 1] would sum to NaN): it is dropped, so the sum goes on as plain addition.
    double y = d - _compensation;
    double t = _double + y;
    _compensation = std::isfinite(t) ? (t - _double) - y : 0;
    _double = t;
}

Value SumState::toPartial() const {
    return Value(std::vector<Value>{Value(_kind), Value(_long), Value(_double),
                                    Value(_compensation), Value(_decimal), Value(_decimalSum)});
}

void SumState::mergePartial(const Value& partial) {
    std::vector<Value> p = partial.getArray();
    invariant(p.size() == 6);
    int kind = p[0].getInt();
    if (p[4].getBool()) {
        _decimal = true;
        _decimalSum = _decimalSum.add(p[5].getDecimal());
    }
    if (kind < 2) {
        long long other = p[1].getLong();
        if (_kind < 2) {
            long long r;
            if (!__builtin_add_overflow(_long, other, &r)) {
                _long = r;
                _kind = std::max(_kind, kind);
                return;
            }
            _kind = 2;
            _double = static_cast<double>(_long);
            _long = 0;
        }
        addDouble(static_cast<double>(other));
        return;
    }
    if (_kind < 2) {
        _kind = 2;
        _double = static_cast<double>(_long);
        _long = 0;
    }
    addDouble(p[2].getDouble());
    addDouble(-p[3].getDouble());
}

double SumState::asDouble() const {
    return _kind < 2 ? static_cast<double>(_long) : _double;
}

Decimal128 SumState::asDecimal() const {
    if (_kind < 2)
        return _decimalSum.add(Decimal128(_long));
    return _decimalSum.add(Decimal128(_double));
}

Value SumState::sum() const {
    if (_decimal)
        return Value(asDecimal());
    if (_kind == 0 && _long >= std::numeric_limits<int>::min() &&
        _long <= std::numeric_limits<int>::max())
        return Value(static_cast<int>(_long));
    if (_kind <= 1)
        return Value(_long);
    return Value(_double);
}

void AccumulatorMinMax::mergePartial(const Value& p) {
    process(p);  // null (nothing seen) is skipped
}

void AccumulatorMinMax::process(const Value& v) {
    if (v.nullish())
        return;
    if (_val.missing()) {
        _val = v.getOwned();
        return;
    }
    int c = Value::compare(v, _val, _strings);
    if (_max ? c > 0 : c < 0)
        _val = v.getOwned();
}

void uassertAccumulatorMemory(StringData op, size_t used, long long limit) {
    uassert(ErrorCodes::ExceededMemoryLimit,
            std::string(op) + " used too much memory and cannot spill to disk. Used: " +
                std::to_string(used) + " bytes. Memory limit: " + std::to_string(limit) + " bytes",
            used <= static_cast<size_t>(limit));
}

namespace {

class AccumulatorSum final : public Accumulator {
public:
    void process(const Value& v) override {
        _s.add(v);
    }
    Value getValue() const override {
        return _s.sum();
    }
    void reset() override {
        _s.reset();
    }
    bool canSpill() const override {
        return true;
    }
    Value getPartial() const override {
        return _s.toPartial();
    }
    void mergePartial(const Value& p) override {
        _s.mergePartial(p);
    }

private:
    SumState _s;
};

class AccumulatorAvg final : public Accumulator {
public:
    void process(const Value& v) override {
        if (!v.numeric())
            return;
        _s.add(v);
        ++_count;
    }
    Value getValue() const override {
        return averageOf(_s, _count);
    }
    void reset() override {
        _s.reset();
        _count = 0;
    }
    bool canSpill() const override {
        return true;
    }
    Value getPartial() const override {
        return Value(std::vector<Value>{_s.toPartial(), Value(_count)});
    }
    void mergePartial(const Value& p) override {
        std::vector<Value> parts = p.getArray();
        _s.mergePartial(parts[0]);
        _count += parts[1].getLong();
    }

private:
    SumState _s;
    long long _count = 0;
};

class AccumulatorFirstLast final : public Accumulator {
public:
    explicit AccumulatorFirstLast(bool isLast) : _last(isLast) {}
    void process(const Value& v) override {
        if (_seen && !_last)
            return;
        _seen = true;
        _val = v.getOwned();
    }
    bool needsInput() const override {
        return _last || !_seen;
    }
    Value getValue() const override {
        return _val.missing() ? Value::null() : _val;
    }
    size_t memUsage() const override {
        return 64 + static_cast<size_t>(_val.elem().size());
    }
    void reset() override {
        _val = Value();
        _seen = false;
    }
    bool canSpill() const override {
        return true;
    }
    Value getPartial() const override {
        return Value(std::vector<Value>{Value(_seen), getValue()});
    }
    void mergePartial(const Value& p) override {
        std::vector<Value> parts = p.getArray();
        if (parts[0].getBool())
            process(parts[1]);
    }

private:
    bool _last;
    bool _seen = false;
    Value _val;
};

class AccumulatorPush final : public Accumulator {
public:
    void process(const Value& v) override {
        if (v.missing())
            return;
        size_t add = v.byteSize() + sizeof(Value);
        uassertAccumulatorMemory("$push", _bytes + add, gInternalQueryMaxPushBytes.load());
        _vals.push_back(v.getOwned());
        _bytes += add;
    }
    Value getValue() const override {
        return Value(_vals);
    }
    size_t memUsage() const override {
        return 64 + _bytes;
    }
    void reset() override {
        _vals.clear();
        _bytes = 0;
    }
    bool canSpill() const override {
        return true;
    }
    void mergePartial(const Value& p) override {
        for (const auto& v : p.getArray())
            process(v);
    }

private:
    std::vector<Value> _vals;
    size_t _bytes = 0;
};

class AccumulatorAddToSet final : public Accumulator {
public:
    /** Values equal under `strings` (the collation; null: simple) are one member. */
    explicit AccumulatorAddToSet(const StringComparator* strings) : _set(ValueLess{strings}) {}
    void process(const Value& v) override {
        if (v.missing())
            return;
        if (_set.count(v))
            return;
        size_t add = v.byteSize() + sizeof(Value) + 32;
        uassertAccumulatorMemory("$addToSet", _bytes + add, gInternalQueryMaxAddToSetBytes.load());
        _set.insert(v.getOwned());
        _bytes += add;
    }
    Value getValue() const override {
        return Value(std::vector<Value>(_set.begin(), _set.end()));
    }
    size_t memUsage() const override {
        return 64 + _bytes;
    }
    void reset() override {
        _set.clear();
        _bytes = 0;
    }
    bool canSpill() const override {
        return true;
    }
    void mergePartial(const Value& p) override {
        for (const auto& v : p.getArray())
            process(v);
    }

private:
    std::set<Value, ValueLess> _set;
    size_t _bytes = 0;
};

class AccumulatorMergeObjects final : public Accumulator {
public:
    void process(const Value& v) override {
        if (v.nullish())
            return;
        uassert(40400,
                "$mergeObjects requires object inputs, but input " + v.toString() + " is of type " +
                    typeNameOf(v),
                v.isObject());
        BSONObj add = v.getDocument();
        // Keep the original order: fields already present are replaced in place.
        BSONObjBuilder out;
        for (auto e : _doc) {
            BSONElement repl = add.getField(e.fieldNameStringData());
            out.append(repl.eoo() ? e : repl);
        }
        for (auto e : add)
            if (!_doc.hasField(e.fieldNameStringData()))
                out.append(e);
        _doc = out.obj();
    }
    Value getValue() const override {
        return Value(_doc);
    }
    size_t memUsage() const override {
        return 64 + _doc.objsize();
    }
    void reset() override {
        _doc = BSONObj();
    }
    bool canSpill() const override {
        return true;
    }
    void mergePartial(const Value& p) override {
        process(p);
    }

private:
    BSONObj _doc;
};

class AccumulatorStdDev final : public Accumulator {
public:
    explicit AccumulatorStdDev(bool sample) : _sample(sample) {}
    void process(const Value& v) override {
        if (!v.numeric())
            return;
        double x = v.getDouble();
        ++_n;
        double delta = x - _mean;
        _mean += delta / static_cast<double>(_n);
        _m2 += delta * (x - _mean);
    }
    Value getValue() const override {
        long long denom = _sample ? _n - 1 : _n;
        if (denom <= 0)
            return Value::null();
        return Value(std::sqrt(_m2 / static_cast<double>(denom)));
    }
    void reset() override {
        _n = 0;
        _mean = _m2 = 0;
    }
    bool canSpill() const override {
        return true;
    }
    Value getPartial() const override {
        return Value(std::vector<Value>{Value(_n), Value(_mean), Value(_m2)});
    }
    void mergePartial(const Value& p) override {
        // Chan et al.'s pairwise combination of (count, mean, M2).
        std::vector<Value> parts = p.getArray();
        long long n = parts[0].getLong();
        if (n == 0)
            return;
        double mean = parts[1].getDouble(), m2 = parts[2].getDouble();
        long long total = _n + n;
        double delta = mean - _mean;
        _mean += delta * static_cast<double>(n) / static_cast<double>(total);
        _m2 += m2 + delta * delta * static_cast<double>(_n) * static_cast<double>(n) /
                        static_cast<double>(total);
        _n = total;
    }

private:
    bool _sample;
    long long _n = 0;
    double _mean = 0, _m2 = 0;
};

template <typename Make>
AccumulatorParser simpleParser(Make make) {
    return [make](ExpressionContext* expCtx, const BSONElement& arg,
                  const VariablesParseState& vps) -> std::pair<ExprPtr, AccumulatorFactory> {
        return {Expression::parseOperand(expCtx, arg, vps), AccumulatorFactory(make)};
    };
}

/**
 * Accumulators that take exactly one operand: reject an array argument (40237). A
 * `make` taking a `const StringComparator*` gets the collation in force.
 */
template <typename Make>
AccumulatorParser unaryParser(StringData name, Make make) {
    std::string n(name);
    return [n, make](ExpressionContext* expCtx, const BSONElement& arg,
                     const VariablesParseState& vps) -> std::pair<ExprPtr, AccumulatorFactory> {
        uassert(40237, "The " + n + " accumulator is a unary operator",
                arg.type() != BSONType::kArray);
        if constexpr (std::is_invocable_v<Make, const StringComparator*>) {
            return {Expression::parseOperand(expCtx, arg, vps),
                    [make, expCtx] { return make(expCtx->getCollator()); }};
        } else {
            return {Expression::parseOperand(expCtx, arg, vps), AccumulatorFactory(make)};
        }
    };
}

const bool kRegistered = [] {
    registerAccumulator("$sum",
                        unaryParser("$sum", [] { return std::make_unique<AccumulatorSum>(); }));
    registerAccumulator("$avg",
                        unaryParser("$avg", [] { return std::make_unique<AccumulatorAvg>(); }));
    registerAccumulator("$min", unaryParser("$min", [](const StringComparator* strings) {
                            return std::make_unique<AccumulatorMinMax>(false, strings);
                        }));
    registerAccumulator("$max", unaryParser("$max", [](const StringComparator* strings) {
                            return std::make_unique<AccumulatorMinMax>(true, strings);
                        }));
    registerAccumulator("$first", unaryParser("$first", [] {
                            return std::make_unique<AccumulatorFirstLast>(false);
                        }));
    registerAccumulator(
        "$last", unaryParser("$last", [] { return std::make_unique<AccumulatorFirstLast>(true); }));
    registerAccumulator("$push",
                        unaryParser("$push", [] { return std::make_unique<AccumulatorPush>(); }));
    registerAccumulator("$addToSet", unaryParser("$addToSet", [](const StringComparator* strings) {
                            return std::make_unique<AccumulatorAddToSet>(strings);
                        }));
    registerAccumulator("$mergeObjects", unaryParser("$mergeObjects", [] {
                            return std::make_unique<AccumulatorMergeObjects>();
                        }));
    registerAccumulator("$stdDevPop",
                        simpleParser([] { return std::make_unique<AccumulatorStdDev>(false); }));
    registerAccumulator("$stdDevSamp",
                        simpleParser([] { return std::make_unique<AccumulatorStdDev>(true); }));
    registerAccumulator("$count",
                        [](ExpressionContext*, const BSONElement& arg,
                           const VariablesParseState&) -> std::pair<ExprPtr, AccumulatorFactory> {
                            uassert(ErrorCodes::TypeMismatch,
                                    "$count takes no arguments, i.e. $count:{}",
                                    arg.type() == BSONType::kObject && arg.Obj().isEmpty());
                            return {std::make_unique<ExpressionConstant>(Value(1)),
                                    [] { return std::make_unique<AccumulatorSum>(); }};
                        });
    return true;
}();

}  // namespace

std::unique_ptr<Accumulator> makeAccumulatorForExpression(StringData name,
                                                          const StringComparator* strings) {
    if (name == "$sum")
        return std::make_unique<AccumulatorSum>();
    if (name == "$avg")
        return std::make_unique<AccumulatorAvg>();
    if (name == "$min" || name == "$max")
        return std::make_unique<AccumulatorMinMax>(name == "$max", strings);
    invariant(name == "$stdDevPop" || name == "$stdDevSamp");
    return std::make_unique<AccumulatorStdDev>(name == "$stdDevSamp");
}

BSONObj AccumulatedGroup::release(const std::vector<AccumulationStatement>& stmts) {
    BSONObjBuilder b;
    key.addToBsonObj(&b, "_id");
    for (size_t i = 0; i < stmts.size(); ++i)
        accs[i]->getValue().addToBsonObj(&b, stmts[i].fieldName);
    accs.clear();
    key = Value();
    return b.obj();
}

Value averageOf(const SumState& sum, long long count) {
    if (count == 0)
        return Value::null();
    if (sum.isDecimal())
        return Value(sum.asDecimal().divide(Decimal128(count)));
    return Value(sum.asDouble() / static_cast<double>(count));
}

}  // namespace mongo
