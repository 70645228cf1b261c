// $setWindowFields: computes window functions over partitions ordered by sortBy,
// with `documents` or `range` (optionally time-unit) bounds; and $fill, which
// rewrites into $setWindowFields ($locf / $linearFill) and $addFields.
//
// The stage holds its whole input (partitions are sorted in memory). Window
// bounds are located by index arithmetic (documents) or binary search on the
// single sortBy value (range); accumulator windows are recomputed per document.
#include <algorithm>
#include <cmath>

#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/document_path.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/document_source_project.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

struct Bound {
    enum Kind { kUnbounded, kCurrent, kValue } kind = kUnbounded;
    double value = 0;  // documents: offset; range: delta (in `unit` when set)
};

struct WindowSpec {
    bool present = false;
    bool isRange = false;
    Bound lower, upper;
    std::optional<TimeUnit> unit;
};

enum class FnKind {
    kAccumulator, kRank, kDenseRank, kDocumentNumber, kShift, kDerivative, kIntegral,
    kExpMovingAvg, kCovariancePop, kCovarianceSamp, kLocf, kLinearFill
};

struct OutputField {
    std::vector<std::string> path;
    std::string opName;
    FnKind kind;
    WindowSpec window;
    ExprPtr input;       // the accumulator input / the function's input
    ExprPtr second;      // $covariance: y; $shift: default
    AccumulatorFactory factory;
    long long shiftBy = 0;
    std::optional<TimeUnit> unit;  // $derivative/$integral output unit
    double alpha = 0;              // $expMovingAvg
};

Bound parseBound(const BSONElement& e, bool isRange) {
    Bound b;
    if (e.type() == BSONType::kString) {
        if (e.valueStringData() == "unbounded")
            b.kind = Bound::kUnbounded;
        else if (e.valueStringData() == "current")
            b.kind = Bound::kCurrent;
        else
            uasserted(ErrorCodes::FailedToParse,
                      "Window bounds must be 'unbounded', 'current', or a number");
        return b;
    }
    uassert(ErrorCodes::FailedToParse, "Window bounds must be 'unbounded', 'current', or a number",
            e.isNumber());
    if (!isRange)
        uassert(ErrorCodes::FailedToParse, "Numeric document-based bounds must be an integer",
                Value(e).integral());
    b.kind = Bound::kValue;
    b.value = e.numberDouble();
    return b;
}

WindowSpec parseWindow(const BSONElement& e) {
    WindowSpec w;
    uassert(ErrorCodes::FailedToParse, "'window' field must be an object",
            e.type() == BSONType::kObject);
    w.present = true;
    BSONElement docs, range, unit;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "documents")
            docs = f;
        else if (n == "range")
            range = f;
        else if (n == "unit")
            unit = f;
        else
            uasserted(ErrorCodes::FailedToParse, "'window' field that must be an object "
                                                 "containing 'documents' or 'range', found: " +
                                                     std::string(n));
    }
    uassert(ErrorCodes::FailedToParse, "Window bounds can specify either 'documents' or 'range'",
            docs.eoo() != range.eoo());
    BSONElement bounds = docs.eoo() ? range : docs;
    w.isRange = !range.eoo();
    uassert(ErrorCodes::FailedToParse, "Window bounds must be a 2-element array",
            bounds.type() == BSONType::kArray && bounds.Obj().nFields() == 2);
    auto elems = bounds.Array();
    w.lower = parseBound(elems[0], w.isRange);
    w.upper = parseBound(elems[1], w.isRange);
    if (!unit.eoo()) {
        uassert(ErrorCodes::FailedToParse, "'unit' is only valid with 'range' windows", w.isRange);
        TimeUnit u;
        uassert(ErrorCodes::FailedToParse, "unknown time unit value: " + unit.toString(false),
                unit.type() == BSONType::kString && parseTimeUnit(unit.valueStringData(), &u));
        w.unit = u;
    }
    if (w.lower.kind == Bound::kValue && w.upper.kind == Bound::kValue)
        uassert(5339900, "Lower bound must not exceed upper bound",
                w.lower.value <= w.upper.value);
    uassert(5339901, "Lower bound must not be 'unbounded' upper / upper 'unbounded' lower",
            true);
    return w;
}

std::optional<TimeUnit> parseUnitArg(const BSONElement& e) {
    TimeUnit u;
    uassert(5490704, "unit must be a string naming a time unit",
            e.type() == BSONType::kString && parseTimeUnit(e.valueStringData(), &u));
    uassert(5490700, "unit must be at most 'week'", unitMillis(u) > 0);
    return u;
}

OutputField parseOutput(ExpressionContext* expCtx, const BSONElement& e) {
    OutputField out;
    out.path = splitFieldPath(e.fieldNameStringData());
    uassert(ErrorCodes::FailedToParse,
            "$setWindowFields 'output' field '" + std::string(e.fieldNameStringData()) +
                "' must be an object",
            e.type() == BSONType::kObject);
    BSONElement fn;
    for (auto f : e.Obj()) {
        if (f.fieldNameStringData() == "window") {
            out.window = parseWindow(f);
            continue;
        }
        uassert(ErrorCodes::FailedToParse,
                "Window function found an unknown argument or more than one function: " +
                    std::string(f.fieldNameStringData()),
                fn.eoo() && f.fieldNameStringData().starts_with("$"));
        fn = f;
    }
    uassert(ErrorCodes::FailedToParse, "Expected a $-prefixed window function", !fn.eoo());
    out.opName = std::string(fn.fieldNameStringData());
    auto vps = expCtx->makeParseState();
    auto noWindow = [&] {
        uassert(5371601, out.opName + " does not accept a 'window' field", !out.window.present);
    };
    const std::string& op = out.opName;
    if (op == "$rank" || op == "$denseRank" || op == "$documentNumber") {
        uassert(5371603, op + " must be specified with '{}' as the value",
                fn.type() == BSONType::kObject && fn.Obj().isEmpty());
        noWindow();
        out.kind = op == "$rank" ? FnKind::kRank
            : op == "$denseRank" ? FnKind::kDenseRank
                                 : FnKind::kDocumentNumber;
    } else if (op == "$shift") {
        noWindow();
        uassert(ErrorCodes::FailedToParse, "Argument to $shift must be an object",
                fn.type() == BSONType::kObject);
        bool haveBy = false;
        for (auto f : fn.Obj()) {
            StringData n = f.fieldNameStringData();
            if (n == "output") {
                out.input = Expression::parseOperand(expCtx, f, vps);
            } else if (n == "by") {
                uassert(ErrorCodes::FailedToParse, "'$shift:by' field must be an integer",
                        f.isNumber() && Value(f).integral());
                out.shiftBy = f.numberLong();
                haveBy = true;
            } else if (n == "default") {
                out.second = Expression::parseOperand(expCtx, f, vps);
                uassert(ErrorCodes::FailedToParse, "'$shift:default' expression must yield a constant value.",
                        out.second->isConstant());
            } else {
                uasserted(ErrorCodes::FailedToParse,
                          "Unknown argument in $shift: " + std::string(n));
            }
        }
        uassert(ErrorCodes::FailedToParse, "$shift requires an 'output' expression.", out.input);
        uassert(ErrorCodes::FailedToParse, "$shift requires a 'by' field.", haveBy);
        out.kind = FnKind::kShift;
    } else if (op == "$derivative" || op == "$integral") {
        uassert(ErrorCodes::FailedToParse, op + " expects an object argument",
                fn.type() == BSONType::kObject);
        for (auto f : fn.Obj()) {
            StringData n = f.fieldNameStringData();
            if (n == "input")
                out.input = Expression::parseOperand(expCtx, f, vps);
            else if (n == "unit")
                out.unit = parseUnitArg(f);
            else
                uasserted(ErrorCodes::FailedToParse, op + " got unexpected argument: " +
                                                         std::string(n));
        }
        uassert(ErrorCodes::FailedToParse, op + " requires an 'input' expression", out.input);
        if (op == "$derivative")
            uassert(ErrorCodes::FailedToParse,
                    "$derivative requires explicit window bounds", out.window.present);
        out.kind = op == "$derivative" ? FnKind::kDerivative : FnKind::kIntegral;
    } else if (op == "$expMovingAvg") {
        noWindow();
        uassert(ErrorCodes::FailedToParse, "$expMovingAvg must have exactly one argument that is "
                                           "an object",
                fn.type() == BSONType::kObject);
        bool haveN = false, haveAlpha = false;
        for (auto f : fn.Obj()) {
            StringData n = f.fieldNameStringData();
            if (n == "input") {
                out.input = Expression::parseOperand(expCtx, f, vps);
            } else if (n == "N") {
                uassert(ErrorCodes::FailedToParse, "'N' field must be an integer greater than 0",
                        f.isNumber() && Value(f).integral() && f.numberLong() > 0);
                out.alpha = 2.0 / (static_cast<double>(f.numberLong()) + 1.0);
                haveN = true;
            } else if (n == "alpha") {
                uassert(ErrorCodes::FailedToParse, "'alpha' must be between 0 and 1 (exclusive)",
                        f.isNumber() && f.numberDouble() > 0 && f.numberDouble() < 1);
                out.alpha = f.numberDouble();
                haveAlpha = true;
            } else {
                uasserted(ErrorCodes::FailedToParse,
                          "Got unrecognized field in $expMovingAvg: " + std::string(n));
            }
        }
        uassert(ErrorCodes::FailedToParse, "$expMovingAvg requires an 'input' expression",
                out.input);
        uassert(ErrorCodes::FailedToParse, "$expMovingAvg requires exactly one of 'N' and 'alpha'",
                haveN != haveAlpha);
        out.kind = FnKind::kExpMovingAvg;
    } else if (op == "$covariancePop" || op == "$covarianceSamp") {
        uassert(ErrorCodes::FailedToParse, op + " requires an array of two expressions",
                fn.type() == BSONType::kArray && fn.Obj().nFields() == 2);
        auto elems = fn.Array();
        out.input = Expression::parseOperand(expCtx, elems[0], vps);
        out.second = Expression::parseOperand(expCtx, elems[1], vps);
        out.kind = op == "$covariancePop" ? FnKind::kCovariancePop : FnKind::kCovarianceSamp;
    } else if (op == "$locf" || op == "$linearFill") {
        noWindow();
        out.input = Expression::parseOperand(expCtx, fn, vps);
        out.kind = op == "$locf" ? FnKind::kLocf : FnKind::kLinearFill;
    } else {
        uassert(ErrorCodes::FailedToParse, "Unrecognized window function, " + op,
                isAccumulatorRegistered(op));
        BSONObj wrapped = BSON("f" << BSON(op << fn));
        auto st = parseAccumulationStatement(expCtx, wrapped.firstElement(), vps);
        out.input = std::move(st.expr);
        out.factory = std::move(st.factory);
        out.kind = FnKind::kAccumulator;
    }
    return out;
}

/** Takes `bytes` back from the charged total when it goes out of scope. */
struct ReleaseOnExit {
    size_t* total;
    size_t bytes;
    ~ReleaseOnExit() {
        *total -= std::min(*total, bytes);
    }
};

class DocumentSourceSetWindowFields final : public DocumentSourceMaterialized {
public:
    DocumentSourceSetWindowFields(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSourceMaterialized(std::move(expCtx)), _spec(spec.getOwned()) {
        BSONElement output;
        for (auto f : _spec) {
            StringData n = f.fieldNameStringData();
            if (n == "partitionBy") {
                uassert(ErrorCodes::TypeMismatch, "partitionBy must be an expression",
                        f.type() != BSONType::kArray);
                _partitionBy = Expression::parseOperand(_expCtx.get(), f, _expCtx->makeParseState());
            } else if (n == "sortBy") {
                uassert(ErrorCodes::TypeMismatch, "sortBy must be an object",
                        f.type() == BSONType::kObject);
                _sortBy = std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(f.Obj())));
            } else if (n == "output") {
                output = f;
            } else {
                uasserted(40415, "BSON field '$setWindowFields." + std::string(n) +
                                     "' is an unknown field.");
            }
        }
        uassert(40414, "BSON field '$setWindowFields.output' is missing but a required field",
                !output.eoo());
        uassert(ErrorCodes::TypeMismatch, "output must be an object",
                output.type() == BSONType::kObject);
        for (auto f : output.Obj()) {
            _outputs.push_back(parseOutput(_expCtx.get(), f));
            const auto& o = _outputs.back();
            bool needsSort = o.kind == FnKind::kRank || o.kind == FnKind::kDenseRank ||
                o.kind == FnKind::kDocumentNumber || o.kind == FnKind::kShift ||
                o.kind == FnKind::kDerivative || o.kind == FnKind::kIntegral ||
                o.kind == FnKind::kExpMovingAvg || o.kind == FnKind::kLinearFill ||
                (o.window.present && (o.window.isRange ||
                                      o.window.lower.kind != Bound::kUnbounded ||
                                      o.window.upper.kind != Bound::kUnbounded));
            if (needsSort)
                uassert(5339902, o.opName + " requires a sortBy",
                        _sortBy && !_sortBy->parts().empty());
            bool needsSingle = o.kind == FnKind::kRank || o.kind == FnKind::kDenseRank ||
                o.window.isRange || o.kind == FnKind::kDerivative ||
                o.kind == FnKind::kIntegral || o.kind == FnKind::kLinearFill;
            if (needsSingle && o.kind != FnKind::kDocumentNumber)
                uassert(5371602, o.opName + " must be specified with a top level sortBy "
                                            "expression with exactly one element",
                        _sortBy && _sortBy->parts().size() == 1);
        }
    }

    const char* getSourceName() const override {
        return "$setWindowFields";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$setWindowFields", _spec);
    }

private:
    struct Row {
        Value partition;
        BSONObj doc;
        Value sortValue;  // first sortBy field (range windows, rank, derivative...)
        BSONObj sortKey;
    };

    std::vector<BSONObj> materialize() override {
        populate();
        return std::move(_out);
    }

    /**
     * Counts `bytes` more held by the stage (buffered input rows and produced output).
     * This stage cannot spill, so past internalDocumentSourceSetWindowFieldsMaxMemoryBytes
     * it fails with 5414201 whether or not disk use is allowed.
     */
    void chargeMemory(size_t bytes) {
        _memBytes += bytes;
        const long long limit = gInternalDocumentSourceSetWindowFieldsMaxMemoryBytes.load();
        uassert(5414201,
                "Exceeded memory limit in DocumentSourceSetWindowFields, used " +
                    std::to_string(_memBytes) + " bytes, memory limit: " + std::to_string(limit) +
                    " bytes (this stage cannot spill to disk)",
                _memBytes <= static_cast<size_t>(limit));
    }

    void populate() {
        std::vector<Row> rows;
        Variables* vars = &_expCtx->variables;
        while (auto d = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            Row r;
            r.doc = d->getOwned();
            if (_partitionBy) {
                r.partition = _partitionBy->evaluate(r.doc, vars).getOwned();
                if (r.partition.missing())
                    r.partition = Value::null();
            }
            if (_sortBy) {
                // Collated keys (strings as comparison keys) compare with the simple order.
                r.sortKey = getCollatedSortKey(*_sortBy, r.doc, _expCtx->getCollator());
                r.sortValue = Value::copyOf(r.sortKey.firstElement());
            }
            chargeMemory(r.doc.objsize() + r.sortKey.objsize() + sizeof(Row));
            rows.push_back(std::move(r));
        }
        const SortPattern* pat = _sortBy.get();
        const StringComparator* strings = _expCtx->getCollator();
        std::stable_sort(rows.begin(), rows.end(), [pat, strings](const Row& a, const Row& b) {
            int c = Value::compare(a.partition, b.partition, strings);
            if (c != 0)
                return c < 0;
            return pat ? pat->compareSortKeys(a.sortKey, b.sortKey) < 0 : false;
        });
        size_t start = 0;
        while (start < rows.size()) {
            size_t end = start + 1;
            while (end < rows.size() &&
                   Value::compare(rows[end].partition, rows[start].partition, strings) == 0)
                ++end;
            processPartition(rows, start, end);
            start = end;
        }
    }

    /** The sortBy value as a number for range arithmetic (dates in millis). */
    static double numericSortValue(const Value& v, bool* ok) {
        *ok = true;
        if (v.numeric())
            return v.getDouble();
        if (v.getType() == BSONType::kDate)
            return static_cast<double>(v.getDate().toMillisSinceEpoch());
        *ok = false;
        return 0;
    }

    /** Computes [lo, hi) row indexes of the window of row i in [start, end). */
    std::pair<size_t, size_t> windowOf(const std::vector<Row>& rows, size_t start, size_t end,
                                       size_t i, const WindowSpec& w) {
        if (!w.present)
            return {start, end};
        if (!w.isRange) {
            long long lo = w.lower.kind == Bound::kUnbounded ? static_cast<long long>(start)
                : w.lower.kind == Bound::kCurrent ? static_cast<long long>(i)
                                                  : static_cast<long long>(i) + static_cast<long long>(w.lower.value);
            long long hi = w.upper.kind == Bound::kUnbounded ? static_cast<long long>(end) - 1
                : w.upper.kind == Bound::kCurrent ? static_cast<long long>(i)
                                                  : static_cast<long long>(i) + static_cast<long long>(w.upper.value);
            lo = std::max<long long>(lo, start);
            hi = std::min<long long>(hi, static_cast<long long>(end) - 1);
            if (lo > hi)
                return {i, i};
            return {static_cast<size_t>(lo), static_cast<size_t>(hi) + 1};
        }
        const Value& v = rows[i].sortValue;
        bool ok;
        double x = numericSortValue(v, &ok);
        if (w.unit) {
            uassert(5429513, "Invalid range: Expected the sortBy field to be a Date, but it was " +
                                 typeNameOf(v),
                    v.getType() == BSONType::kDate);
        } else {
            uassert(5429414, "Invalid range: Expected the sortBy field to be a number, but it "
                             "was " + typeNameOf(v),
                    v.numeric());
        }
        bool ascending = _sortBy->parts()[0].ascending;
        auto boundValue = [&](const Bound& b, bool lower) -> std::optional<double> {
            if (b.kind == Bound::kUnbounded)
                return std::nullopt;
            if (b.kind == Bound::kCurrent)
                return x;
            if (w.unit) {
                if (unitMillis(*w.unit) > 0)
                    return x + b.value * static_cast<double>(unitMillis(*w.unit));
                return static_cast<double>(
                    addToDate(v.getDate(), *w.unit, static_cast<long long>(b.value),
                              absl::UTCTimeZone())
                        .toMillisSinceEpoch());
            }
            return x + b.value;
        };
        auto lo = boundValue(w.lower, true), hi = boundValue(w.upper, false);
        // Rows are ordered by the sortBy value; map it to a monotone key (non-numbers sort
        // to one side by type rank) and binary search the window's ends.
        int targetRank = canonicalizeBSONType(v.getType());
        auto key = [&](size_t j) {
            bool jok;
            double y = numericSortValue(rows[j].sortValue, &jok);
            int r = canonicalizeBSONType(rows[j].sortValue.getType());
            if (!jok || r != targetRank)
                y = r < targetRank ? -HUGE_VAL : HUGE_VAL;
            return ascending ? y : -y;
        };
        // In key space the window is [loKey, hiKey] (descending order negates values).
        double loKey = ascending ? (lo ? *lo : -HUGE_VAL) : (hi ? -*hi : -HUGE_VAL);
        double hiKey = ascending ? (hi ? *hi : HUGE_VAL) : (lo ? -*lo : HUGE_VAL);
        size_t a = start, b = end;
        while (a < b) {  // first row with key >= loKey
            size_t m = (a + b) / 2;
            if (key(m) < loKey)
                a = m + 1;
            else
                b = m;
        }
        size_t first = a;
        b = end;
        while (a < b) {  // first row with key > hiKey
            size_t m = (a + b) / 2;
            if (key(m) <= hiKey)
                a = m + 1;
            else
                b = m;
        }
        size_t last = a;
        if (first >= last)
            return {i, i};
        return {first, last};
    }

    void processPartition(std::vector<Row>& rows, size_t start, size_t end) {
        Variables* vars = &_expCtx->variables;
        size_t n = end - start;
        std::vector<std::vector<Value>> results(_outputs.size(), std::vector<Value>(n));
        for (size_t o = 0; o < _outputs.size(); ++o) {
            OutputField& out = _outputs[o];
            auto& res = results[o];
            switch (out.kind) {
                case FnKind::kAccumulator: {
                    std::vector<Value> inputs;
                    std::vector<BSONObj> keep;
                    size_t inputBytes = 0;
                    for (size_t j = start; j < end; ++j) {
                        inputs.push_back(out.input->evaluate(rows[j].doc, vars).getOwned());
                        inputBytes += inputs.back().byteSize() + sizeof(Value);
                        chargeMemory(inputs.back().byteSize() + sizeof(Value));
                    }
                    // The inputs are freed when this output is computed.
                    ReleaseOnExit release{&_memBytes, inputBytes};
                    bool whole = !out.window.present ||
                        (!out.window.isRange && out.window.lower.kind == Bound::kUnbounded &&
                         out.window.upper.kind == Bound::kUnbounded);
                    if (whole) {
                        auto acc = out.factory();
                        for (const auto& v : inputs)
                            acc->process(v);
                        Value r = acc->getValue().getOwned();
                        for (size_t i = 0; i < n; ++i)
                            res[i] = r;
                        break;
                    }
                    for (size_t i = start; i < end; ++i) {
                        _expCtx->checkForInterruptEvery128();
                        auto [lo, hi] = windowOf(rows, start, end, i, out.window);
                        auto acc = out.factory();
                        for (size_t j = lo; j < hi; ++j) {
                            vars->checkForInterruptEvery128();
                            acc->process(inputs[j - start]);
                        }
                        res[i - start] = acc->getValue().getOwned();
                        // Each row's result is held until the partition is output.
                        chargeMemory(res[i - start].byteSize() + sizeof(Value));
                    }
                    break;
                }
                case FnKind::kRank:
                case FnKind::kDenseRank:
                case FnKind::kDocumentNumber: {
                    long long rank = 0, dense = 0;
                    for (size_t i = start; i < end; ++i) {
                        _expCtx->checkForInterruptEvery128();
                        bool tie = i > start &&
                            _sortBy->compareSortKeys(rows[i].sortKey, rows[i - 1].sortKey) == 0;
                        if (!tie) {
                            rank = static_cast<long long>(i - start) + 1;
                            ++dense;
                        }
                        long long v = out.kind == FnKind::kRank ? rank
                            : out.kind == FnKind::kDenseRank    ? dense
                                                                : static_cast<long long>(i - start) + 1;
                        res[i - start] = Value(static_cast<int>(v));
                    }
                    break;
                }
                case FnKind::kShift: {
                    Value dflt = out.second ? out.second->evaluate(BSONObj(), vars).getOwned()
                                            : Value::null();
                    for (size_t i = start; i < end; ++i) {
                        _expCtx->checkForInterruptEvery128();
                        long long j = static_cast<long long>(i) + out.shiftBy;
                        if (j < static_cast<long long>(start) || j >= static_cast<long long>(end)) {
                            res[i - start] = dflt;
                        } else {
                            Value v = out.input->evaluate(rows[j].doc, vars).getOwned();
                            res[i - start] = v.missing() ? Value::null() : v;
                        }
                    }
                    break;
                }
                case FnKind::kDerivative:
                case FnKind::kIntegral: {
                    std::vector<Value> ys;
                    for (size_t j = start; j < end; ++j)
                        ys.push_back(out.input->evaluate(rows[j].doc, vars).getOwned());
                    double unitMs = out.unit ? static_cast<double>(unitMillis(*out.unit)) : 1.0;
                    if (out.unit)
                        for (size_t j = start; j < end; ++j)
                            uassert(5624900, out.opName + " with 'unit' expects the sortBy field "
                                                          "to be a Date",
                                    rows[j].sortValue.getType() == BSONType::kDate);
                    for (size_t i = start; i < end; ++i) {
                        _expCtx->checkForInterruptEvery128();
                        auto [lo, hi] = windowOf(rows, start, end, i, out.window);
                        if (out.kind == FnKind::kDerivative) {
                            if (hi - lo < 2) {
                                res[i - start] = Value::null();
                                continue;
                            }
                            bool ok1, ok2;
                            double x1 = numericSortValue(rows[lo].sortValue, &ok1);
                            double x2 = numericSortValue(rows[hi - 1].sortValue, &ok2);
                            const Value &y1 = ys[lo - start], &y2 = ys[hi - 1 - start];
                            if (!ok1 || !ok2 || !y1.numeric() || !y2.numeric() || x1 == x2) {
                                res[i - start] = Value::null();
                                continue;
                            }
                            res[i - start] =
                                Value((y2.getDouble() - y1.getDouble()) / ((x2 - x1) / unitMs));
                        } else {
                            double sum = 0;
                            for (size_t j = lo; j + 1 < hi; ++j) {
                                bool ok1, ok2;
                                double x1 = numericSortValue(rows[j].sortValue, &ok1);
                                double x2 = numericSortValue(rows[j + 1].sortValue, &ok2);
                                const Value &y1 = ys[j - start], &y2 = ys[j + 1 - start];
                                if (ok1 && ok2 && y1.numeric() && y2.numeric())
                                    sum += (x2 - x1) / unitMs * (y1.getDouble() + y2.getDouble()) / 2;
                            }
                            res[i - start] = Value(sum);
                        }
                    }
                    break;
                }
                case FnKind::kExpMovingAvg: {
                    std::optional<double> ema;
                    for (size_t i = start; i < end; ++i) {
                        _expCtx->checkForInterruptEvery128();
                        Value y = out.input->evaluate(rows[i].doc, vars);
                        if (!y.numeric()) {
                            res[i - start] = Value::null();
                            continue;
                        }
                        ema = ema ? out.alpha * y.getDouble() + (1 - out.alpha) * *ema
                                  : y.getDouble();
                        res[i - start] = Value(*ema);
                    }
                    break;
                }
                case FnKind::kCovariancePop:
                case FnKind::kCovarianceSamp: {
                    std::vector<std::pair<Value, Value>> xy;
                    for (size_t j = start; j < end; ++j)
                        xy.emplace_back(out.input->evaluate(rows[j].doc, vars).getOwned(),
                                        out.second->evaluate(rows[j].doc, vars).getOwned());
                    for (size_t i = start; i < end; ++i) {
                        _expCtx->checkForInterruptEvery128();
                        auto [lo, hi] = windowOf(rows, start, end, i, out.window);
                        double sx = 0, sy = 0, sxy = 0;
                        long long cnt = 0;
                        for (size_t j = lo; j < hi; ++j) {
                            const auto& [x, y] = xy[j - start];
                            if (!x.numeric() || !y.numeric())
                                continue;
                            sx += x.getDouble();
                            sy += y.getDouble();
                            sxy += x.getDouble() * y.getDouble();
                            ++cnt;
                        }
                        long long denom = out.kind == FnKind::kCovariancePop ? cnt : cnt - 1;
                        if (cnt == 0 || denom <= 0) {
                            res[i - start] = Value::null();
                            continue;
                        }
                        double c = (sxy - sx * sy / static_cast<double>(cnt)) /
                            static_cast<double>(denom);
                        res[i - start] = Value(c);
                    }
                    break;
                }
                case FnKind::kLocf: {
                    Value last = Value::null();
                    for (size_t i = start; i < end; ++i) {
                        _expCtx->checkForInterruptEvery128();
                        Value v = out.input->evaluate(rows[i].doc, vars);
                        if (!v.nullish())
                            last = v.getOwned();
                        res[i - start] = last;
                    }
                    break;
                }
                case FnKind::kLinearFill: {
                    std::vector<Value> ys;
                    for (size_t j = start; j < end; ++j)
                        ys.push_back(out.input->evaluate(rows[j].doc, vars).getOwned());
                    std::optional<size_t> prev;
                    for (size_t k = 0; k < n; ++k) {
                        _expCtx->checkForInterruptEvery128();
                        if (!ys[k].nullish()) {
                            uassert(6050106, "There can be no repeated values in the sort field",
                                    !prev || Value::compare(rows[start + *prev].sortValue,
                                                            rows[start + k].sortValue) != 0);
                            uassert(6050105, "Value to be filled must be numeric",
                                    ys[k].numeric());
                            res[k] = ys[k];
                            if (prev && k > *prev + 1) {
                                bool ok;
                                double x0 = numericSortValue(rows[start + *prev].sortValue, &ok);
                                double x1 = numericSortValue(rows[start + k].sortValue, &ok);
                                double y0 = ys[*prev].getDouble(), y1 = ys[k].getDouble();
                                for (size_t m = *prev + 1; m < k; ++m) {
                                    double x = numericSortValue(rows[start + m].sortValue, &ok);
                                    res[m] = Value(y0 + (y1 - y0) * (x - x0) / (x1 - x0));
                                }
                            }
                            prev = k;
                        } else {
                            res[k] = Value::null();
                        }
                    }
                    break;
                }
            }
        }
        for (size_t i = start; i < end; ++i) {
            _expCtx->checkForInterruptEvery128();
            BSONObj doc = rows[i].doc;
            for (size_t o = 0; o < _outputs.size(); ++o)
                doc = setNestedField(doc, _outputs[o].path, results[o][i - start]);
            chargeMemory(doc.objsize());
            _out.push_back(doc);
        }
    }

    BSONObj _spec;
    ExprPtr _partitionBy;
    std::shared_ptr<SortPattern> _sortBy;
    std::vector<OutputField> _outputs;
    std::vector<BSONObj> _out;
    size_t _memBytes = 0;
};

std::vector<StagePtr> parseFill(const BSONElement& e,
                                const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(ErrorCodes::FailedToParse, "$fill specification must be an object",
            e.type() == BSONType::kObject);
    BSONElement sortBy, partitionBy, partitionByFields, output;
    for (auto f : e.Obj()) {
        StringData n = f.fieldNameStringData();
        if (n == "sortBy")
            sortBy = f;
        else if (n == "partitionBy")
            partitionBy = f;
        else if (n == "partitionByFields")
            partitionByFields = f;
        else if (n == "output")
            output = f;
        else
            uasserted(40415, "BSON field '$fill." + std::string(n) + "' is an unknown field.");
    }
    uassert(40414, "BSON field '$fill.output' is missing but a required field", !output.eoo());
    uassert(6050204, "Maximum one of 'partitionBy' and 'partitionByFields' can be specified in "
                     "'$fill'",
            partitionBy.eoo() || partitionByFields.eoo());
    BSONObjBuilder windowOut, addFields;
    bool anyWindow = false, anyValue = false;
    for (auto f : output.Obj()) {
        uassert(ErrorCodes::FailedToParse, "Each $fill output must be an object",
                f.type() == BSONType::kObject);
        BSONObj spec = f.Obj();
        std::string field(f.fieldNameStringData());
        uassert(6050203, "Exactly one of 'value' or 'method' must be specified in each $fill output",
                spec.nFields() == 1 && (spec.hasField("value") || spec.hasField("method")));
        if (spec.hasField("value")) {
            BSONObjBuilder ifNull(addFields.subobjStart(field));
            BSONArrayBuilder args(ifNull.subarrayStart("$ifNull"));
            args.append("$" + field);
            args.append(spec["value"]);
            anyValue = true;
        } else {
            std::string method = spec["method"].str();
            uassert(6050202, "Method must be either 'linear' or 'locf'",
                    method == "linear" || method == "locf");
            if (method == "linear")
                uassert(6050201, "'sortBy' field is required if 'linear' is the method.",
                        !sortBy.eoo());
            windowOut.append(field, BSON((method == "linear" ? "$linearFill" : "$locf")
                                         << ("$" + field)));
            anyWindow = true;
        }
    }
    std::vector<StagePtr> out;
    if (anyWindow) {
        BSONObjBuilder swf;
        if (!partitionBy.eoo())
            swf.appendAs(partitionBy, "partitionBy");
        if (!partitionByFields.eoo()) {
            uassert(ErrorCodes::TypeMismatch, "partitionByFields must be an array of strings",
                    partitionByFields.type() == BSONType::kArray);
            BSONObjBuilder key(swf.subobjStart("partitionBy"));
            for (auto p : partitionByFields.Obj())
                key.append(p.str(), "$" + p.str());
        }
        if (!sortBy.eoo())
            swf.appendAs(sortBy, "sortBy");
        swf.append("output", windowOut.obj());
        out.push_back(std::make_unique<DocumentSourceSetWindowFields>(expCtx, swf.obj()));
    } else if (!sortBy.eoo()) {
        BSONObjBuilder sortOnly;
        sortOnly.appendAs(sortBy, "$sort");
        for (auto& s : parseDocumentSource(sortOnly.obj(), expCtx))
            out.push_back(std::move(s));
    }
    if (anyValue) {
        BSONObj spec = addFields.obj();
        out.push_back(std::make_unique<DocumentSourceSingleDocumentTransformation>(
            expCtx, ProjectionExecutor::parseAddFields(expCtx.get(), spec, "$addFields"),
            "$addFields", spec));
    }
    return out;
}

const bool kRegistered = [] {
    registerDocumentSource("$setWindowFields", [](const BSONElement& e,
                                                  const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(ErrorCodes::FailedToParse, "the $setWindowFields stage specification must be an "
                                           "object",
                e.type() == BSONType::kObject);
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceSetWindowFields>(expCtx, e.Obj()));
        return out;
    });
    registerDocumentSource("$fill", parseFill);
    return true;
}();

}  // namespace
}  // namespace mongo
