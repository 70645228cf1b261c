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
#include "mongo/util/exact_sum.h"

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
    /**
     * Called once on a new group's accumulators with the group's key: the `n` of
     * $minN/$maxN/$firstN/$lastN/$topN/$bottomN may be an expression of the key's fields.
     */
    virtual void startNewGroup(const Value& groupKey) {}
    /** True when startNewGroup() reads the key ($bucketAuto has none to give: 4544714). */
    virtual bool needsGroupKey() const {
        return false;
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

    /** A new group's accumulator: factory(), then startNewGroup(key). */
    std::unique_ptr<Accumulator> makeForGroup(const Value& key) const {
        auto acc = factory();
        acc->startNewGroup(key);
        return acc;
    }
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

/**
 * The running sum of $sum and $avg. Ints, longs and doubles are summed exactly (ExactSum:
 * the order of the inputs does not matter) and rounded once when read; the result's type is
 * the widest input type (int -> long -> double), an int or long total that does not fit
 * becoming a long or a double as upstream's. Decimal inputs are summed on their own; once any
 * is seen the result is a decimal.
 */
class SumState {
public:
    void add(const Value& v);
    /** Adds an int (`isLong` false) or long. */
    void addInteger(long long v, bool isLong) {
        if (isLong && _kind < 1)
            _kind = 1;
        long long r;
        if (__builtin_add_overflow(_long, v, &r)) {
            _exact.addInt64(_long);  // the int64 part moves into the exact sum
            r = v;
        }
        _long = r;
    }
    void addDouble(double d) {
        _kind = 2;
        _exact.addDouble(d);
    }
    /**
     * Adds every double `each` passes to the callback it is given, at most `maxCount` (for
     * the block loops over columns): as addDouble() of each.
     */
    template <typename Each>
    void addDoubles(size_t maxCount, Each&& each) {
        bool any = false;
        _exact.addDoubleRun(maxCount, [&](auto&& add) {
            each([&](double d) {
                any = true;
                add(d);
            });
        });
        if (any)
            _kind = 2;
    }
    /** Adds the `n` doubles at `v` (for the block loops over a run with no missing value). */
    void addDoubleArray(const double* v, size_t n) {
        if (n == 0)
            return;
        _kind = 2;
        if (!_exact.addDoubleArray(v, n))
            _exact.addDoubleRun(n, [&](auto&& add) {
                for (size_t i = 0; i < n; ++i)
                    add(v[i]);
            });
    }
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
    /** Heap bytes held beyond the object (ExactSum's wide form). */
    size_t heapBytes() const {
        return _exact.heapBytes();
    }
    /** The whole state as an array, for mergePartial() (group spilling). */
    Value toPartial() const;
    /** Adds the sum described by a toPartial() value. */
    void mergePartial(const Value& partial);

private:
    /** The exact non-decimal total (the int64 part included). */
    ExactSum total() const;

    int _kind = 0;  // 0 int, 1 long, 2 double: the widest non-decimal input
    bool _decimal = false;
    long long _long = 0;                     // ints and longs, until an addition would overflow
    ExactSum _exact;                         // doubles, and the int64 part on overflow
    Decimal128 _decimalSum = Decimal128(0);  // decimal inputs only
};

/** $avg's result from the sum of `count` numeric inputs: null for none, decimal or double. */
Value averageOf(const SumState& sum, long long count);

}  // namespace mongo
