// Accumulators returning several values or order statistics: $firstN $lastN $minN
// $maxN $topN $bottomN $top $bottom $median $percentile.
#include <algorithm>
#include <cmath>
#include <deque>

#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** A checked `n` of an N-accumulator (5787902 not a number, 5787903 not integral, 5787908). */
long long checkedN(const Value& v) {
    uassert(5787902, "Value for 'n' must be of integral type, but found " + v.toString(),
            v.numeric());
    uassert(5787903, "Value for 'n' must be of integral type, but found " + v.toString(),
            v.integral64Bit());
    uassert(5787908, "'n' must be greater than 0, found " + v.toString(), v.getLong() > 0);
    return v.getLong();
}

/**
 * The `n` of an N-accumulator: a constant, checked when parsed, or an expression of the group
 * key's fields (upstream's "n computed from the group key"), evaluated and checked per group.
 */
struct NSpec {
    long long n = 1;
    std::shared_ptr<Expression> expr;  // null: the constant n
    ExpressionContext* expCtx = nullptr;

    long long forGroup(const Value& key) const {
        if (!expr)
            return n;
        BSONObj doc;
        if (key.getType() == BSONType::kObject)
            doc = key.getDocument();
        return checkedN(expr->evaluate(doc, &expCtx->variables));
    }
};

NSpec parseN(ExpressionContext* expCtx, const BSONElement& nElem) {
    std::shared_ptr<Expression> expr =
        Expression::parseOperand(expCtx, nElem, expCtx->makeParseState());
    NSpec spec;
    spec.expCtx = expCtx;
    if (expr->isConstant())
        spec.n = checkedN(expr->evaluate(BSONObj(), &expCtx->variables));
    else
        spec.expr = std::move(expr);
    return spec;
}

/**
 * Whether a selection buffer holding `size` candidates for the best `n` should be trimmed:
 * once it holds twice what is kept (plus slack). `n` may be near LLONG_MAX: no overflow.
 */
bool bufferFull(size_t size, long long n) {
    const long long s = static_cast<long long>(size);
    return s > 16 && (s - 16) / 2 > n;
}

class AccumulatorN final : public Accumulator {
public:
    enum class Kind { kFirst, kLast, kMin, kMax };
    /** `strings`: the collation $minN/$maxN order by (null: simple). */
    AccumulatorN(Kind k, NSpec n, const StringComparator* strings)
        : _kind(k), _nSpec(std::move(n)), _n(_nSpec.n), _strings(strings) {}
    void startNewGroup(const Value& groupKey) override {
        _n = _nSpec.forGroup(groupKey);
    }
    bool needsGroupKey() const override {
        return static_cast<bool>(_nSpec.expr);
    }
    void process(const Value& v) override {
        if (_kind == Kind::kMin || _kind == Kind::kMax) {
            if (v.nullish())
                return;
        }
        if (_kind == Kind::kFirst && static_cast<long long>(_vals.size()) >= _n)
            return;
        Value x = v.missing() ? Value::null() : v.getOwned();
        size_t add = x.byteSize() + sizeof(Value);
        uassertAccumulatorMemory(opName(), _bytes + add, gInternalQueryTopNAccumulatorBytes.load());
        _bytes += add;
        _vals.push_back(std::move(x));
        if (_kind == Kind::kLast && static_cast<long long>(_vals.size()) > _n) {
            _bytes -= _vals.front().byteSize() + sizeof(Value);
            _vals.pop_front();
        }
        if ((_kind == Kind::kMin || _kind == Kind::kMax) && bufferFull(_vals.size(), _n))
            trim();
    }
    Value getValue() const override {
        if (_kind == Kind::kMin || _kind == Kind::kMax) {
            auto copy = *this;
            copy.trim();
            return Value(std::vector<Value>(copy._vals.begin(), copy._vals.end()));
        }
        return Value(std::vector<Value>(_vals.begin(), _vals.end()));
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
    StringData opName() const {
        switch (_kind) {
            case Kind::kFirst:
                return "$firstN";
            case Kind::kLast:
                return "$lastN";
            case Kind::kMin:
                return "$minN";
            case Kind::kMax:
                return "$maxN";
        }
        return "";
    }
    void trim() {
        bool isMax = _kind == Kind::kMax;
        std::stable_sort(_vals.begin(), _vals.end(), [&](const Value& a, const Value& b) {
            int c = Value::compare(a, b, _strings);
            return isMax ? c > 0 : c < 0;
        });
        while (static_cast<long long>(_vals.size()) > _n) {
            _bytes -= _vals.back().byteSize() + sizeof(Value);
            _vals.pop_back();
        }
    }
    Kind _kind;
    NSpec _nSpec;
    long long _n;
    const StringComparator* _strings;
    std::deque<Value> _vals;
    size_t _bytes = 0;
};

/** $top/$bottom/$topN/$bottomN: input is {sortKeyDoc, output} pairs built by the parser. */
class AccumulatorTopBottom final : public Accumulator {
public:
    AccumulatorTopBottom(std::shared_ptr<SortPattern> pattern, bool bottom, NSpec n, bool single)
        : _pattern(std::move(pattern)),
          _bottom(bottom),
          _nSpec(std::move(n)),
          _n(_nSpec.n),
          _single(single) {}
    void startNewGroup(const Value& groupKey) override {
        _n = _nSpec.forGroup(groupKey);
    }
    bool needsGroupKey() const override {
        return static_cast<bool>(_nSpec.expr);
    }
    void process(const Value& v) override {
        // v = {k: <document used for sorting>, o: <output>}
        BSONObj pair = v.getDocument().getOwned();
        size_t add = static_cast<size_t>(pair.objsize()) + sizeof(BSONObj);
        uassertAccumulatorMemory(opName(), _bytes + add, gInternalQueryTopNAccumulatorBytes.load());
        _bytes += add;
        _items.push_back(pair);
        if (bufferFull(_items.size(), _n))
            trim();
    }
    size_t memUsage() const override {
        return 64 + _bytes;
    }
    Value getValue() const override {
        auto copy = *this;
        copy.trim();
        std::vector<Value> out;
        for (const auto& p : copy._items) {
            BSONElement o = p["o"];
            out.push_back(o.eoo() ? Value::null() : Value::copyOf(o));
        }
        if (_single)
            return out.empty() ? Value::null() : out[0];
        return Value(out);
    }
    void reset() override {
        _items.clear();
        _bytes = 0;
    }
    bool canSpill() const override {
        return true;
    }
    Value getPartial() const override {
        auto copy = *this;
        copy.trim();
        std::vector<Value> pairs;
        for (const auto& p : copy._items)
            pairs.push_back(Value(p));
        return Value(pairs);
    }
    void mergePartial(const Value& p) override {
        for (const auto& pair : p.getArray())
            process(pair);
    }

private:
    void trim() {
        const SortPattern* pat = _pattern.get();
        bool bottom = _bottom;
        std::stable_sort(_items.begin(), _items.end(), [&](const BSONObj& a, const BSONObj& b) {
            int c = pat->compareSortKeys(a["k"].Obj(), b["k"].Obj());
            return bottom ? c > 0 : c < 0;
        });
        while (static_cast<long long>(_items.size()) > _n) {
            _bytes -= static_cast<size_t>(_items.back().objsize()) + sizeof(BSONObj);
            _items.pop_back();
        }
        if (bottom)
            std::reverse(_items.begin(), _items.end());  // back to sort order
    }
    StringData opName() const {
        if (_single)
            return _bottom ? "$bottom" : "$top";
        return _bottom ? "$bottomN" : "$topN";
    }
    std::shared_ptr<SortPattern> _pattern;
    bool _bottom;
    NSpec _nSpec;
    long long _n;
    bool _single;
    std::vector<BSONObj> _items;
    size_t _bytes = 0;
};

/** $median / $percentile (method 'approximate'): exact nearest-rank percentiles. */
class AccumulatorPercentile final : public Accumulator {
public:
    AccumulatorPercentile(std::vector<double> ps, bool single)
        : _ps(std::move(ps)), _single(single) {}
    void process(const Value& v) override {
        if (v.numeric())
            _vals.push_back(v.getDouble());
    }
    Value getValue() const override {
        if (_vals.empty()) {
            if (_single)
                return Value::null();
            std::vector<Value> nulls(_ps.size(), Value::null());
            return Value(nulls);
        }
        std::vector<double> sorted = _vals;
        std::sort(sorted.begin(), sorted.end());
        std::vector<Value> out;
        for (double p : _ps) {
            double rank = std::ceil(p * static_cast<double>(sorted.size()));
            size_t idx = rank <= 1 ? 0 : static_cast<size_t>(rank) - 1;
            out.push_back(Value(sorted[std::min(idx, sorted.size() - 1)]));
        }
        return _single ? out[0] : Value(out);
    }
    size_t memUsage() const override {
        return 64 + _vals.size() * sizeof(double);
    }
    void reset() override {
        _vals.clear();
    }
    bool canSpill() const override {
        return true;
    }
    Value getPartial() const override {
        std::vector<Value> vals;
        vals.reserve(_vals.size());
        for (double d : _vals)
            vals.push_back(Value(d));
        return Value(vals);
    }
    void mergePartial(const Value& p) override {
        for (const auto& v : p.getArray())
            process(v);
    }

private:
    std::vector<double> _ps;
    bool _single;
    std::vector<double> _vals;
};

AccumulatorParser nParser(StringData name, AccumulatorN::Kind kind) {
    std::string op(name);
    return [op, kind](ExpressionContext* expCtx, const BSONElement& arg,
                      const VariablesParseState& vps) -> std::pair<ExprPtr, AccumulatorFactory> {
        uassert(5787801, op + " specification must be an object; found " + typeNameOf(Value(arg)),
                arg.type() == BSONType::kObject);
        BSONElement nE, inputE;
        for (auto f : arg.Obj()) {
            if (f.fieldNameStringData() == "n")
                nE = f;
            else if (f.fieldNameStringData() == "input")
                inputE = f;
            else
                uasserted(5787901, "Unknown argument for 'n' operator: " +
                                       std::string(f.fieldNameStringData()));
        }
        uassert(5787906, "Missing value for 'n'", !nE.eoo());
        uassert(5787907, "Missing value for 'input'", !inputE.eoo());
        NSpec n = parseN(expCtx, nE);
        return {Expression::parseOperand(expCtx, inputE, vps), [kind, n, expCtx] {
                    return std::make_unique<AccumulatorN>(kind, n, expCtx->getCollator());
                }};
    };
}

AccumulatorParser topBottomParser(StringData name, bool bottom, bool single) {
    std::string op(name);
    return [=](ExpressionContext* expCtx, const BSONElement& arg,
               const VariablesParseState& vps) -> std::pair<ExprPtr, AccumulatorFactory> {
        uassert(5788001, op + " specification must be an object", arg.type() == BSONType::kObject);
        BSONElement nE, outputE, sortByE;
        for (auto f : arg.Obj()) {
            StringData fn = f.fieldNameStringData();
            if (fn == "n" && !single)
                nE = f;
            else if (fn == "output")
                outputE = f;
            else if (fn == "sortBy")
                sortByE = f;
            else
                uasserted(5788002, "Unknown argument to " + op + " '" + std::string(fn) + "'");
        }
        if (!single)
            uassert(5788003, "Missing value for 'n'", !nE.eoo());
        uassert(5788004, "Missing value for 'output'", !outputE.eoo());
        uassert(5788005, "Missing value for 'sortBy'", !sortByE.eoo());
        uassert(5788006, "'sortBy' must be an object", sortByE.type() == BSONType::kObject);
        NSpec n = single ? NSpec() : parseN(expCtx, nE);
        auto pattern =
            std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(sortByE.Obj())));
        // The input expression builds {k: <sort key fields>, o: <output>}.
        std::shared_ptr<Expression> output(Expression::parseOperand(expCtx, outputE, vps));
        BSONObjBuilder spec;
        spec.appendAs(arg, op);
        ExprPtr input = std::make_unique<ExpressionCustom>(
            op, spec.obj(), ExprVector{},
            [output, pattern, expCtx](const BSONObj& root, Variables* vars) {
                BSONObjBuilder b;
                // Collated keys: the accumulator compares them with the simple order.
                b.append("k", getCollatedSortKey(*pattern, root, expCtx->getCollator()));
                Value o = output->evaluate(root, vars);
                if (o.missing())
                    b.appendNull("o");
                else
                    o.addToBsonObj(&b, "o");
                return Value(b.obj());
            });
        return {std::move(input), [pattern, bottom, n, single] {
                    return std::make_unique<AccumulatorTopBottom>(pattern, bottom, n, single);
                }};
    };
}

AccumulatorParser percentileParser(bool median) {
    return [median](ExpressionContext* expCtx, const BSONElement& arg,
                    const VariablesParseState& vps) -> std::pair<ExprPtr, AccumulatorFactory> {
        StringData op = median ? "$median" : "$percentile";
        uassert(7436100, std::string(op) + " specification must be an object",
                arg.type() == BSONType::kObject);
        BSONElement inputE, pE, methodE;
        for (auto f : arg.Obj()) {
            StringData fn = f.fieldNameStringData();
            if (fn == "input")
                inputE = f;
            else if (fn == "p" && !median)
                pE = f;
            else if (fn == "method")
                methodE = f;
            else
                uasserted(40415, "BSON field '" + std::string(op) + "." + std::string(fn) +
                                     "' is an unknown field.");
        }
        uassert(40414,
                "BSON field '" + std::string(op) +
                    ".input' is missing but a required "
                    "field",
                !inputE.eoo());
        uassert(40414,
                "BSON field '" + std::string(op) +
                    ".method' is missing but a required "
                    "field",
                !methodE.eoo());
        uassert(ErrorCodes::BadValue, "Currently only 'approximate' can be used as method.",
                methodE.type() == BSONType::kString && methodE.valueStringData() == "approximate");
        std::vector<double> ps;
        if (median) {
            ps.push_back(0.5);
        } else {
            uassert(40414, "BSON field '$percentile.p' is missing but a required field", !pE.eoo());
            uassert(7750300, "The 'p' field must be an array of numbers",
                    pE.type() == BSONType::kArray && !pE.Obj().isEmpty());
            for (auto x : pE.Obj()) {
                uassert(7750301, "The 'p' field must be an array of numbers from [0.0, 1.0]",
                        x.isNumber() && x.numberDouble() >= 0 && x.numberDouble() <= 1);
                ps.push_back(x.numberDouble());
            }
        }
        return {Expression::parseOperand(expCtx, inputE, vps),
                [ps, median] { return std::make_unique<AccumulatorPercentile>(ps, median); }};
    };
}

const bool kRegistered = [] {
    registerAccumulator("$firstN", nParser("$firstN", AccumulatorN::Kind::kFirst));
    registerAccumulator("$lastN", nParser("$lastN", AccumulatorN::Kind::kLast));
    registerAccumulator("$minN", nParser("$minN", AccumulatorN::Kind::kMin));
    registerAccumulator("$maxN", nParser("$maxN", AccumulatorN::Kind::kMax));
    registerAccumulator("$top", topBottomParser("$top", false, true));
    registerAccumulator("$bottom", topBottomParser("$bottom", true, true));
    registerAccumulator("$topN", topBottomParser("$topN", false, false));
    registerAccumulator("$bottomN", topBottomParser("$bottomN", true, false));
    registerAccumulator("$median", percentileParser(true));
    registerAccumulator("$percentile", percentileParser(false));
    return true;
}();

}  // namespace
}  // namespace mongo
