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
            addDouble(v.getDouble());
            return;
        default:
            return;
    }
}

ExactSum SumState::total() const {
    ExactSum t = _exact;
    t.addInt64(_long);
    return t;
}

Value SumState::toPartial() const {
    std::vector<Value> words;
    for (int64_t w : _exact.toWords())
        words.push_back(Value(static_cast<long long>(w)));
    return Value(std::vector<Value>{Value(_kind), Value(_long), Value(words), Value(_decimal),
                                    Value(_decimalSum)});
}

void SumState::mergePartial(const Value& partial) {
    // Our own spill format (toPartial()); checked all the same.
    std::vector<Value> p = partial.getArray();
    invariant(p.size() == 5 && p[2].getType() == BSONType::kArray);
    _kind = std::max(_kind, p[0].getInt());
    if (p[3].getBool()) {
        _decimal = true;
        _decimalSum = _decimalSum.add(p[4].getDecimal());
    }
    addInteger(p[1].getLong(), false);
    std::vector<int64_t> words;
    for (const Value& w : p[2].getArray())
        words.push_back(w.getLong());
    const bool added = _exact.addWords(words);
    invariant(added);
}

double SumState::asDouble() const {
    if (!_exact.anyAdded())
        return static_cast<double>(_long);  // ints and longs that never overflowed
    return total().toDouble();
}

Decimal128 SumState::asDecimal() const {
    ExactSum t = total();
    if (auto i = t.toInt64())
        return _decimalSum.add(Decimal128(static_cast<long long>(*i)));
    return _decimalSum.add(Decimal128(t.toDouble()));
}

Value SumState::sum() const {
    if (_decimal)
        return Value(asDecimal());
    if (_kind <= 1) {
        // The total of ints and longs: an int while it fits one (ints only), else a long,
        // else (beyond int64) a double.
        std::optional<int64_t> v;
        if (!_exact.anyAdded())
            v = _long;
        else
            v = total().toInt64();
        if (v) {
            if (_kind == 0 && *v >= std::numeric_limits<int>::min() &&
                *v <= std::numeric_limits<int>::max())
                return Value(static_cast<int>(*v));
            return Value(static_cast<long long>(*v));
        }
    }
    return Value(total().toDouble());
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
    size_t memUsage() const override {
        return 64 + _s.heapBytes();
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
    size_t memUsage() const override {
        return 64 + _s.heapBytes();
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
