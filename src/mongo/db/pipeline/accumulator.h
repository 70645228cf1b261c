// Accumulators: the per-group state of $group (and $bucket, $setWindowFields)
// operators such as $sum, $avg, $min, $push. One Accumulator object per group and
// output field; process() takes each input value, getValue() gives the result.
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {

class Accumulator {
public:
    virtual ~Accumulator() = default;
    /** Folds one input value in. Values that must outlive the call are copied. */
    virtual void process(const Value& input) = 0;
    /** The result so far. */
    virtual Value getValue() const = 0;
    /** Approximate bytes held (for the memory limit). */
    virtual size_t memUsage() const {
        return 64;
    }
    /** Back to the initial state. */
    virtual void reset() = 0;
    /**
     * False once further inputs cannot change the result ($first after its first input):
     * the caller may then skip evaluating an input that cannot fail (a field path).
     */
    virtual bool needsInput() const {
        return true;
    }

    // Partial states, for $group spilling: a group's accumulators are written out as
    // getPartial() values, and a fresh accumulator of the same kind folds them back in
    // with mergePartial(), in input order, giving the same getValue() as one pass.
    /** Whether getPartial()/mergePartial() are implemented. */
    virtual bool canSpill() const {
        return false;
    }
    /** The state so far as a value (never missing). Requires canSpill(). */
    virtual Value getPartial() const {
        return getValue();
    }
    /** Folds in a getPartial() of the inputs that came after this one's. */
    virtual void mergePartial(const Value& partial) {}
};

/**
 * Throws ExceededMemoryLimit 146 ("<op> used too much memory...") when an accumulator that
 * cannot shed state would hold `used` bytes, more than `limit` (internalQueryMaxPushBytes,
 * internalQueryMaxAddToSetBytes, internalQueryTopNAccumulatorBytes).
 */
void uassertAccumulatorMemory(StringData op, size_t used, long long limit);

using AccumulatorFactory = std::function<std::unique_ptr<Accumulator>()>;

/** One `field: {$op: <expr>}` of a $group. */
struct AccumulationStatement {
    std::string fieldName;
    std::string opName;
    ExprPtr expr;
    AccumulatorFactory factory;
    BSONObj spec;  // {$op: <arg>} as given (explain)
};

/** One group of a $group-like stage: its key and one accumulator per statement. */
struct AccumulatedGroup {
    Value key;
    std::vector<std::unique_ptr<Accumulator>> accs;

    /** {_id: key, <field>: <value>...} in statement order; releases key and accumulators. */
    BSONObj release(const std::vector<AccumulationStatement>& stmts);
};

/**
 * Parses `e` (`field: {$op: <arg>}`). Errors: 40234 not an object, 40238 not one
 * field, 15952 unknown operator, 40235 dotted name, 40236 '$'-prefixed name.
 */
AccumulationStatement parseAccumulationStatement(ExpressionContext* expCtx, const BSONElement& e,
                                                 const VariablesParseState& vps);

/** The factory for accumulator `name` with `arg` (the operator's argument), or null. */
using AccumulatorParser = std::function<std::pair<ExprPtr, AccumulatorFactory>(
    ExpressionContext*, const BSONElement& arg, const VariablesParseState&)>;
void registerAccumulator(StringData name, AccumulatorParser parser);
bool isAccumulatorRegistered(StringData name);

/**
 * A fresh accumulator for the expression forms of $sum $avg $min $max $stdDevPop
 * $stdDevSamp (`strings`: the collation $min/$max order by; null: simple). Requires one of
 * those names.
 */
std::unique_ptr<Accumulator> makeAccumulatorForExpression(StringData name,
                                                          const StringComparator* strings);

/**
 * Running sum with int -> long -> double promotion (shared by $sum, $avg). Decimal
 * inputs are summed exactly on their own; once any is seen the result is a decimal.
 */
/**
 * $min / $max: nullish values are ignored, a strictly smaller (larger) value replaces the
 * current one. Public so that fast paths (group_over_buckets.h) can feed it directly.
 */
class AccumulatorMinMax final : public Accumulator {
public:
    /** `strings`: the collation values are ordered by (null: simple). */
    explicit AccumulatorMinMax(bool isMax, const StringComparator* strings = nullptr)
        : _max(isMax), _strings(strings) {}
    void process(const Value& v) override;
    Value getValue() const override {
        return _val.missing() ? Value::null() : _val;
    }
    size_t memUsage() const override {
        return 64 + static_cast<size_t>(_val.elem().size());
    }
    void reset() override {
        _val = Value();
    }
    bool canSpill() const override {
        return true;
    }
    void mergePartial(const Value& p) override;
    bool isMax() const {
        return _max;
    }

private:
    bool _max;
    const StringComparator* _strings;
    Value _val;
};

class SumState {
public:
    void add(const Value& v);
    /** Adds an int (`isLong` false) or long; the arithmetic of add(). */
    void addInteger(long long v, bool isLong);
    /**
     * Adds every double `each` passes to the callback it is given, as add() of each in
     * turn, with the running sum kept in locals (for the block loops over columns).
     */
    template <typename Each>
    void addDoubles(Each&& each) {
        int kind = _kind;
        double sum = _double, comp = _compensation;
        long long lng = _long;
        each([&](double d) {
            if (kind < 2) {
                kind = 2;
                sum += static_cast<double>(lng);
                lng = 0;
            }
            double y = d - comp;
            double t = sum + y;
            comp = std::isfinite(t) ? (t - sum) - y : 0;  // see addDouble()
            sum = t;
        });
        _kind = kind;
        _double = sum;
        _compensation = comp;
        _long = lng;
    }
    /**
     * Adds doubles that are integers of magnitude at most 2^30, at most
     * BSONColumn::kMaxPositions of them, whose (exact) sum is `exactSum`: the state becomes
     * what addDoubles() of each in turn gives, when that is sure (every partial sum is then an
     * exact integer). Returns false, adding nothing, when it is not; the caller then adds
     * them one by one.
     */
    bool addExactIntegralDoublesSum(double exactSum);
    /**
     * Adds int32 values (`isLong` false) or int64 values whose sum is `sum` (no overflow),
     * as addInteger() of each would, when that is sure: the running sum is an integer far
     * from the int64 limits. Returns false, adding nothing, otherwise.
     */
    bool addIntegerSum(long long sum, long long maxAbsEach, bool isLong);
    Value sum() const;
    double asDouble() const;
    /** The whole sum as a decimal (non-decimal parts converted as $toDecimal does). */
    Decimal128 asDecimal() const;
    bool isDecimal() const {
        return _decimal;
    }
    void reset() {
        *this = SumState();
    }
    /** The whole state as an array, for mergePartial() (group spilling). */
    Value toPartial() const;
    /** Adds the sum described by a toPartial() value. */
    void mergePartial(const Value& partial);

private:
    void addDouble(double d);

    int _kind = 0;  // 0 int, 1 long, 2 double
    bool _decimal = false;
    long long _long = 0;
    double _double = 0;  // doubles (Kahan-compensated)
    double _compensation = 0;
    Decimal128 _decimalSum = Decimal128(0);  // decimal inputs only
};

/** $avg's result from the sum of `count` numeric inputs: null for none, decimal or double. */
Value averageOf(const SumState& sum, long long count);

}  // namespace mongo
