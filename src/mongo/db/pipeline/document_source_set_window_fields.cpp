// $setWindowFields: computes window functions over partitions ordered by sortBy,
// with `documents` or `range` (optionally time-unit) bounds; and $fill, which
// rewrites into $setWindowFields ($locf / $linearFill) and $addFields.
//
// The input is sorted by partition and sortBy with the external sorter, then output one
// partition at a time from a cache that spills to disk (spillable_cache.h). Window
// bounds are located by index arithmetic (documents) or binary search on the single
// sortBy value (range); a window that starts unbounded folds rows into one running
// accumulator, other accumulator windows are recomputed per document.
#include <algorithm>
#include <cmath>

#include "mongo/db/exec/sorter.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/collation_keys.h"
#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/document_path.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/document_source_project.h"
#include "mongo/db/pipeline/spillable_cache.h"
#include "mongo/db/pipeline/window_function_spec.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/idl/document_source_misc_specs_gen.h"
#include "mongo/idl/document_source_set_window_fields_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** A window's accumulator: no group key, so an `n` that is not a constant sees no fields. */
std::unique_ptr<Accumulator> startedAccumulator(const AccumulatorFactory& factory) {
    auto acc = factory();
    acc->startNewGroup(Value());
    return acc;
}

using namespace window_function;

/** The running state of one output within the partition being output. */
struct OutputState {
    std::optional<Value> whole;            // accumulator over the whole partition
    std::unique_ptr<Accumulator> running;  // accumulator whose window starts unbounded
    size_t runPos = 0;                     // rows folded into `running`
    long long rank = 0, dense = 0;         // $rank, $denseRank
    BSONObj prevSortKey;                   // the previous row's sort key ($rank, $denseRank)
    std::optional<double> ema;             // $expMovingAvg
    Value last = Value::null();            // $locf
    std::optional<size_t> prevFilled;      // $linearFill: last row with a value...
    double prevX = 0, prevY = 0;
    Value prevSortValue;
    std::optional<size_t> nextFilled;  // ...and the next one after the current row
    double nextX = 0, nextY = 0;
    size_t bytes = 0;  // held by this output's functions now
    size_t peakBytes = 0;
};

/**
 * The stage runs in two steps, as upstream's $sort + $_internalSetWindowFields: its input
 * is sorted by (partitionBy, sortBy) with the external sorter (spilling with allowDiskUse
 * past the sort memory limit, else 292), then each partition is read into a SpillableCache
 * and its rows are output one at a time, each output computed for that row. Memory beyond
 * internalDocumentSourceSetWindowFieldsMaxMemoryBytes spills the cache (allowDiskUse) or
 * fails: 5643011 for the cache, 5414201 when the window functions' own state is too large.
 */
class DocumentSourceSetWindowFields final : public DocumentSource {
public:
    DocumentSourceSetWindowFields(std::shared_ptr<ExpressionContext> expCtx, const BSONObj& spec)
        : DocumentSource(std::move(expCtx)),
          _spec(spec.getOwned()),
          _cache(gInternalDocumentSourceSetWindowFieldsMaxMemoryBytes.load(),
                 _expCtx->allowDiskUse) {
        const auto parsed = SetWindowFieldsSpec::parse(IDLParserContext("$setWindowFields"), _spec);
        if (const auto& partitionBy = parsed.getPartitionBy()) {
            BSONElement f = partitionBy->getElement();
            uassert(ErrorCodes::TypeMismatch, "partitionBy must be an expression",
                    f.type() != BSONType::kArray);
            // A constant partitions nothing (every document is in one partition).
            auto constant =
                Expression::evaluateConstantOperand(_expCtx.get(), f, _expCtx->makeParseState());
            if (constant)
                uassertPartitionKey(*constant);
            else
                _partitionBy =
                    Expression::parseOperand(_expCtx.get(), f, _expCtx->makeParseState());
        }
        if (const auto& sortBy = parsed.getSortBy())
            _sortBy = std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(*sortBy)));
        const BSONObj output = parsed.getOutput();
        for (auto f : output) {
            _outputs.push_back(parseOutput(_expCtx.get(), f));
            const auto& o = _outputs.back();
            bool needsSort = o.kind == FnKind::kRank || o.kind == FnKind::kDenseRank ||
                             o.kind == FnKind::kDocumentNumber || o.kind == FnKind::kShift ||
                             o.kind == FnKind::kDerivative || o.kind == FnKind::kIntegral ||
                             o.kind == FnKind::kExpMovingAvg || o.kind == FnKind::kLinearFill ||
                             (o.window.present &&
                              (o.window.isRange || o.window.lower.kind != Bound::kUnbounded ||
                               o.window.upper.kind != Bound::kUnbounded));
            if (needsSort) {
                // Upstream's codes: rank-like functions 5371602, $shift FailedToParse.
                const bool rankLike = o.kind == FnKind::kRank || o.kind == FnKind::kDenseRank ||
                                      o.kind == FnKind::kDocumentNumber;
                uassert(rankLike                   ? 5371602
                        : o.kind == FnKind::kShift ? int(ErrorCodes::FailedToParse)
                                                   : 5339902,
                        o.opName + " requires a sortBy", _sortBy && !_sortBy->parts().empty());
            }
            bool needsSingle = o.kind == FnKind::kRank || o.kind == FnKind::kDenseRank ||
                               o.window.isRange || o.kind == FnKind::kDerivative ||
                               o.kind == FnKind::kIntegral || o.kind == FnKind::kLinearFill;
            if (needsSingle && o.kind != FnKind::kDocumentNumber)
                uassert(5371602,
                        o.opName +
                            " must be specified with a top level sortBy "
                            "expression with exactly one element",
                        _sortBy && _sortBy->parts().size() == 1);
        }
        _states.resize(_outputs.size());
    }

    const char* getSourceName() const override {
        return "$setWindowFields";
    }
    /**
     * As upstream's explain prints it: $_internalSetWindowFields (also a stage name the parser
     * takes), without a constant partitionBy.
     */
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        BSONObjBuilder s(b.subobjStart("$_internalSetWindowFields"));
        if (_partitionBy)
            _partitionBy->serialize(&s, "partitionBy");
        if (BSONElement sortBy = _spec["sortBy"]; !sortBy.eoo())
            s.append(sortBy);
        s.append(_spec["output"]);
    }

    std::optional<BSONObj> getNext() override {
        if (!_started)
            start();
        while (_pos >= _cache.size()) {
            if (!loadPartition())
                return std::nullopt;
        }
        return outputRow(_pos++);
    }

    void dispose() override {
        _sorter.reset();
        _cache.clear();
    }

    void appendExplainStats(BSONObjBuilder* b) const override {
        {
            BSONObjBuilder fn(b->subobjStart("maxFunctionMemoryUsageBytes"));
            for (size_t o = 0; o < _outputs.size(); ++o)
                fn.append(_outputs[o].fieldName, static_cast<long long>(_states[o].peakBytes));
        }
        b->append("maxTotalMemoryUsageBytes", static_cast<long long>(_peakBytes));
        SpillingStats s = _cache.spillingStats();
        if (_sorterStats)
            s.add(*_sorterStats);
        s.appendTo(b);
    }

private:
    /** The next input row (from the sorter when the input is sorted) and its partition key. */
    std::optional<WindowRow> nextInput(BSONObj* partitionKey) {
        std::optional<BSONObj> doc = _sorter ? _sorter->next() : _source->getNext();
        if (!doc)
            return std::nullopt;
        _expCtx->checkForInterruptEvery128();
        WindowRow r;
        r.doc = doc->getOwned();
        *partitionKey = makePartitionKey(r.doc);
        if (_sortBy)
            r.sortKey = getCollatedSortKey(*_sortBy, r.doc, _expCtx->getCollator());
        return r;
    }

    static void uassertPartitionKey(const Value& key) {
        uassert(ErrorCodes::TypeMismatch,
                "An expression used to partition cannot evaluate to value of type array",
                key.getType() != BSONType::kArray);
    }

    /** {"": <partitionBy value under the collation's comparison keys>} (empty without). */
    BSONObj makePartitionKey(const BSONObj& doc) {
        if (!_partitionBy)
            return BSONObj();
        Value p = _partitionBy->evaluate(doc, &_expCtx->variables);
        if (p.missing())
            p = Value::null();
        uassertPartitionKey(p);
        BSONObjBuilder b;
        p.addToBsonObj(&b, "");
        return toComparisonKeys(b.obj(), _expCtx->getCollator());
    }

    /** Sorts the input by (partition, sortBy) unless it needs no order. */
    void start() {
        _started = true;
        if (!_partitionBy && !_sortBy)
            return;
        BSONObjBuilder pattern;
        if (_partitionBy)
            pattern.append("p", 1);
        if (_sortBy)
            for (size_t i = 0; i < _sortBy->parts().size(); ++i)
                pattern.append("s" + std::to_string(i), _sortBy->parts()[i].ascending ? 1 : -1);
        _sorter = std::make_unique<ExternalSorter>(
            std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(pattern.obj()))),
            std::min(_expCtx->maxMemoryBytes, gInternalQueryMaxBlockingSortMemoryUsageBytes.load()),
            _expCtx->allowDiskUse);
        while (auto d = _source->getNext()) {
            _expCtx->checkForInterruptEvery128();
            BSONObj doc = d->getOwned();
            BSONObjBuilder key;
            if (_partitionBy)
                key.appendAs(makePartitionKey(doc).firstElement(), "p");
            if (_sortBy)
                for (auto e : getCollatedSortKey(*_sortBy, doc, _expCtx->getCollator()))
                    key.appendAs(e, "s");
            _sorter->add(key.obj(), doc);
        }
        _sorter->finish();
        _sorterStats = _sorter->spillingStats();
    }

    /** Reads the next partition into the cache; false at the end of the input. */
    bool loadPartition() {
        _cache.clear();
        _pos = 0;
        for (auto& st : _states)
            st = OutputState{};
        BSONObj key;
        std::optional<WindowRow> row;
        if (_pending) {
            row = std::move(_pending);
            key = std::move(_pendingKey);
            _pending.reset();
        } else {
            row = nextInput(&key);
        }
        if (!row)
            return false;
        const BSONObj partition = key;
        while (row) {
            _cache.add(std::move(*row));
            notePeak();
            row = nextInput(&key);
            if (row && _partitionBy &&
                Value::compare(Value(key.firstElement()), Value(partition.firstElement()),
                               nullptr) != 0) {
                _pending = std::move(row);
                _pendingKey = key;
                break;
            }
        }
        for (size_t o = 0; o < _outputs.size(); ++o)
            if (_outputs[o].kind == FnKind::kAccumulator && isWholePartition(_outputs[o].window))
                computeWhole(o);
        return true;
    }

    static bool isWholePartition(const WindowSpec& w) {
        return !w.present || (!w.isRange && w.lower.kind == Bound::kUnbounded &&
                              w.upper.kind == Bound::kUnbounded);
    }

    Value eval(const ExprPtr& e, const BSONObj& doc) {
        return e->evaluate(doc, &_expCtx->variables).getOwned();
    }

    void computeWhole(size_t o) {
        auto& out = _outputs[o];
        auto acc = startedAccumulator(out.factory);
        for (size_t j = 0; j < _cache.size(); ++j) {
            _expCtx->checkForInterruptEvery128();
            WindowRow r = _cache.at(j);
            acc->process(eval(out.input, r.doc));
            chargeFunction(o, acc->memUsage());
        }
        _states[o].whole = acc->getValue().getOwned();
        chargeFunction(o, _states[o].whole->byteSize() + sizeof(Value));
    }

    /** Records output `o`'s current bytes; fails with 5414201 past the limit (see checkMemory). */
    void chargeFunction(size_t o, size_t bytes) {
        auto& st = _states[o];
        st.bytes = bytes;
        st.peakBytes = std::max(st.peakBytes, bytes);
        checkMemory();
    }

    size_t totalBytes() const {
        size_t t = _cache.memoryBytes();
        for (const auto& st : _states)
            t += st.bytes;
        return t;
    }

    void notePeak() {
        _peakBytes = std::max(_peakBytes, totalBytes());
    }

    /**
     * Past the limit, the cache is spilled first (allowDiskUse); what the window functions
     * hold themselves cannot spill and fails with 5414201.
     */
    void checkMemory() {
        const long long limit = gInternalDocumentSourceSetWindowFieldsMaxMemoryBytes.load();
        notePeak();
        if (totalBytes() >= static_cast<size_t>(limit) && _expCtx->allowDiskUse)
            _cache.spillToDisk();
        uassert(5414201,
                "Exceeded memory limit in DocumentSourceSetWindowFields, used " +
                    std::to_string(totalBytes()) +
                    " bytes, memory limit: " + std::to_string(limit) + " bytes",
                totalBytes() < static_cast<size_t>(limit));
    }

    BSONObj outputRow(size_t i) {
        _expCtx->checkForInterruptEvery128();
        WindowRow row = _cache.at(i);
        BSONObj doc = row.doc;
        for (size_t o = 0; o < _outputs.size(); ++o) {
            Value v = computeOutput(o, i, row);
            doc = setNestedField(doc, _outputs[o].path, v);
        }
        return doc;
    }

    Value computeOutput(size_t o, size_t i, const WindowRow& row) {
        OutputField& out = _outputs[o];
        OutputState& st = _states[o];
        const size_t n = _cache.size();
        switch (out.kind) {
            case FnKind::kAccumulator:
                return accumulatorValue(o, i);
            case FnKind::kRank:
            case FnKind::kDenseRank:
            case FnKind::kDocumentNumber: {
                bool tie = i > 0 && _sortBy->compareSortKeys(row.sortKey, st.prevSortKey) == 0;
                if (!tie) {
                    st.rank = static_cast<long long>(i) + 1;
                    ++st.dense;
                }
                st.prevSortKey = row.sortKey;
                long long v = out.kind == FnKind::kRank        ? st.rank
                              : out.kind == FnKind::kDenseRank ? st.dense
                                                               : static_cast<long long>(i) + 1;
                return Value(static_cast<int>(v));
            }
            case FnKind::kShift: {
                // Out of the partition, or missing there: the default (null without one).
                long long j = static_cast<long long>(i) + out.shiftBy;
                Value v;
                if (j >= 0 && j < static_cast<long long>(n))
                    v = eval(out.input, _cache.at(static_cast<size_t>(j)).doc);
                if (!v.missing())
                    return v;
                return out.second ? out.second->evaluate(BSONObj(), &_expCtx->variables).getOwned()
                                  : Value::null();
            }
            case FnKind::kDerivative:
            case FnKind::kIntegral:
                return derivativeOrIntegral(out, i, row);
            case FnKind::kExpMovingAvg: {
                Value y = eval(out.input, row.doc);
                if (!y.numeric())
                    return Value::null();
                st.ema =
                    st.ema ? out.alpha * y.getDouble() + (1 - out.alpha) * *st.ema : y.getDouble();
                return Value(*st.ema);
            }
            case FnKind::kCovariancePop:
            case FnKind::kCovarianceSamp:
                return covariance(out, i);
            case FnKind::kLocf: {
                Value v = eval(out.input, row.doc);
                if (!v.nullish())
                    st.last = v;
                return st.last;
            }
            case FnKind::kLinearFill:
                return linearFill(out, st, i, row);
        }
        MONGO_UNREACHABLE;
    }

    Value accumulatorValue(size_t o, size_t i) {
        OutputField& out = _outputs[o];
        OutputState& st = _states[o];
        if (st.whole)
            return *st.whole;
        auto [lo, hi] = windowOf(i, out.window);
        if (out.window.lower.kind == Bound::kUnbounded) {
            // The window only grows: fold the new rows into one accumulator.
            if (lo == hi)
                return startedAccumulator(out.factory)->getValue().getOwned();
            if (!st.running)
                st.running = startedAccumulator(out.factory);
            for (; st.runPos < hi; ++st.runPos) {
                _expCtx->checkForInterruptEvery128();
                st.running->process(eval(out.input, _cache.at(st.runPos).doc));
                chargeFunction(o, st.running->memUsage());
            }
            return st.running->getValue().getOwned();
        }
        auto acc = startedAccumulator(out.factory);
        for (size_t j = lo; j < hi; ++j) {
            _expCtx->checkForInterruptEvery128();
            acc->process(eval(out.input, _cache.at(j).doc));
            chargeFunction(o, acc->memUsage());
        }
        return acc->getValue().getOwned();
    }

    Value derivativeOrIntegral(const OutputField& out, size_t i, const WindowRow& row) {
        double unitMs = out.unit ? static_cast<double>(unitMillis(*out.unit)) : 1.0;
        if (out.unit)
            uassert(5624900, out.opName + " with 'unit' expects the sortBy field to be a Date",
                    row.sortValue().getType() == BSONType::kDate);
        else if (out.kind == FnKind::kDerivative)
            uassert(5624901, "$derivative where the sortBy is a Date requires an 'unit'",
                    row.sortValue().getType() != BSONType::kDate);
        auto [lo, hi] = windowOf(i, out.window);
        if (out.kind == FnKind::kDerivative) {
            if (hi - lo < 2)
                return Value::null();
            WindowRow first = _cache.at(lo), last = _cache.at(hi - 1);
            bool ok1, ok2;
            double x1 = numericSortValue(first.sortValue(), &ok1);
            double x2 = numericSortValue(last.sortValue(), &ok2);
            Value y1 = eval(out.input, first.doc), y2 = eval(out.input, last.doc);
            if (!ok1 || !ok2 || !y1.numeric() || !y2.numeric() || x1 == x2)
                return Value::null();
            return Value((y2.getDouble() - y1.getDouble()) / ((x2 - x1) / unitMs));
        }
        double sum = 0;
        if (hi - lo < 2)
            return Value(sum);
        WindowRow prev = _cache.at(lo);
        Value prevY = eval(out.input, prev.doc);
        for (size_t j = lo; j + 1 < hi; ++j) {
            _expCtx->checkForInterruptEvery128();
            WindowRow next = _cache.at(j + 1);
            Value nextY = eval(out.input, next.doc);
            bool ok1, ok2;
            double x1 = numericSortValue(prev.sortValue(), &ok1);
            double x2 = numericSortValue(next.sortValue(), &ok2);
            if (ok1 && ok2 && prevY.numeric() && nextY.numeric())
                sum += (x2 - x1) / unitMs * (prevY.getDouble() + nextY.getDouble()) / 2;
            prev = std::move(next);
            prevY = std::move(nextY);
        }
        return Value(sum);
    }

    Value covariance(const OutputField& out, size_t i) {
        auto [lo, hi] = windowOf(i, out.window);
        double sx = 0, sy = 0, sxy = 0;
        long long cnt = 0;
        for (size_t j = lo; j < hi; ++j) {
            _expCtx->checkForInterruptEvery128();
            WindowRow r = _cache.at(j);
            Value x = eval(out.input, r.doc), y = eval(out.second, r.doc);
            if (!x.numeric() || !y.numeric())
                continue;
            sx += x.getDouble();
            sy += y.getDouble();
            sxy += x.getDouble() * y.getDouble();
            ++cnt;
        }
        long long denom = out.kind == FnKind::kCovariancePop ? cnt : cnt - 1;
        if (cnt == 0 || denom <= 0)
            return Value::null();
        return Value((sxy - sx * sy / static_cast<double>(cnt)) / static_cast<double>(denom));
    }

    /** Values between two filled rows are interpolated on the sortBy value; others stay null. */
    Value linearFill(const OutputField& out, OutputState& st, size_t i, const WindowRow& row) {
        Value y = eval(out.input, row.doc);
        if (!y.nullish()) {
            Value x = row.sortValue();
            uassert(6050106, "There can be no repeated values in the sort field",
                    !st.prevFilled || Value::compare(st.prevSortValue, x, nullptr) != 0);
            uassert(6050105, "Value to be filled must be numeric", y.numeric());
            bool ok;
            st.prevFilled = i;
            st.prevX = numericSortValue(x, &ok);
            st.prevY = y.getDouble();
            st.prevSortValue = x;
            return y;
        }
        if (!st.prevFilled)
            return Value::null();
        if (!st.nextFilled || *st.nextFilled <= i) {
            st.nextFilled.reset();
            for (size_t k = i + 1; k < _cache.size(); ++k) {
                _expCtx->checkForInterruptEvery128();
                WindowRow r = _cache.at(k);
                Value v = eval(out.input, r.doc);
                if (v.nullish())
                    continue;
                uassert(6050105, "Value to be filled must be numeric", v.numeric());
                bool ok;
                st.nextFilled = k;
                st.nextX = numericSortValue(r.sortValue(), &ok);
                st.nextY = v.getDouble();
                break;
            }
            if (!st.nextFilled) {
                st.nextFilled = _cache.size();  // no value after: the rest stays null
                return Value::null();
            }
        }
        if (*st.nextFilled >= _cache.size())
            return Value::null();
        bool ok;
        double x = numericSortValue(row.sortValue(), &ok);
        return Value(st.prevY + (st.nextY - st.prevY) * (x - st.prevX) / (st.nextX - st.prevX));
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

    /** The [lo, hi) row indexes of the window of row i in the partition. */
    std::pair<size_t, size_t> windowOf(size_t i, const WindowSpec& w) {
        const size_t end = _cache.size();
        if (!w.present)
            return {0, end};
        if (!w.isRange) {
            long long ii = static_cast<long long>(i);
            long long lo = w.lower.kind == Bound::kUnbounded ? 0
                           : w.lower.kind == Bound::kCurrent
                               ? ii
                               : ii + static_cast<long long>(w.lower.value);
            long long hi = w.upper.kind == Bound::kUnbounded ? static_cast<long long>(end) - 1
                           : w.upper.kind == Bound::kCurrent
                               ? ii
                               : ii + static_cast<long long>(w.upper.value);
            lo = std::max<long long>(lo, 0);
            hi = std::min<long long>(hi, static_cast<long long>(end) - 1);
            if (lo > hi)
                return {i, i};
            return {static_cast<size_t>(lo), static_cast<size_t>(hi) + 1};
        }
        const Value v = _cache.at(i).sortValue();
        bool ok;
        double x = numericSortValue(v, &ok);
        if (w.unit) {
            uassert(5429513,
                    "Invalid range: Expected the sortBy field to be a Date, but it was " +
                        typeNameOf(v),
                    v.getType() == BSONType::kDate);
        } else {
            uassert(5429414,
                    "Invalid range: Expected the sortBy field to be a number, but it "
                    "was " +
                        typeNameOf(v),
                    v.numeric());
        }
        bool ascending = _sortBy->parts()[0].ascending;
        auto boundValue = [&](const Bound& b) -> std::optional<double> {
            if (b.kind == Bound::kUnbounded)
                return std::nullopt;
            if (b.kind == Bound::kCurrent)
                return x;
            if (w.unit) {
                if (unitMillis(*w.unit) > 0)
                    return x + b.value * static_cast<double>(unitMillis(*w.unit));
                return static_cast<double>(addToDate(v.getDate(), *w.unit,
                                                     static_cast<long long>(b.value),
                                                     absl::UTCTimeZone())
                                               .toMillisSinceEpoch());
            }
            return x + b.value;
        };
        auto lo = boundValue(w.lower), hi = boundValue(w.upper);
        // Rows are ordered by the sortBy value; map it to a monotone key (non-numbers sort
        // to one side by type rank) and binary search the window's ends.
        int targetRank = canonicalizeBSONType(v.getType());
        auto key = [&](size_t j) {
            const Value sv = _cache.at(j).sortValue();
            bool jok;
            double y = numericSortValue(sv, &jok);
            int r = canonicalizeBSONType(sv.getType());
            if (!jok || r != targetRank)
                y = r < targetRank ? -HUGE_VAL : HUGE_VAL;
            return ascending ? y : -y;
        };
        // In key space the window is [loKey, hiKey] (descending order negates values).
        double loKey = ascending ? (lo ? *lo : -HUGE_VAL) : (hi ? -*hi : -HUGE_VAL);
        double hiKey = ascending ? (hi ? *hi : HUGE_VAL) : (lo ? -*lo : HUGE_VAL);
        size_t a = 0, b = end;
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

    BSONObj _spec;
    ExprPtr _partitionBy;
    std::shared_ptr<SortPattern> _sortBy;
    std::vector<OutputField> _outputs;
    std::vector<OutputState> _states;
    bool _started = false;
    std::unique_ptr<ExternalSorter> _sorter;  // null when the input needs no order
    std::optional<SpillingStats> _sorterStats;
    std::optional<WindowRow> _pending;  // the first row of the next partition
    BSONObj _pendingKey;
    SpillableCache _cache;  // the partition being output
    size_t _pos = 0;        // next row of it to output
    size_t _peakBytes = 0;
};

std::vector<StagePtr> parseFill(const BSONElement& e,
                                const std::shared_ptr<ExpressionContext>& expCtx) {
    uassert(ErrorCodes::FailedToParse, "$fill specification must be an object",
            e.type() == BSONType::kObject);
    const auto spec = FillSpec::parse(IDLParserContext("$fill"), e.Obj());
    auto element = [](const std::optional<IDLAnyTypeOwned>& v) {
        return v ? v->getElement() : BSONElement();
    };
    const BSONElement sortBy = element(spec.getSortBy());
    const BSONElement partitionBy = element(spec.getPartitionBy());
    const BSONElement partitionByFields = element(spec.getPartitionByFields());
    const BSONObj outputSpec = spec.getOutput();
    uassert(6050204,
            "Maximum one of 'partitionBy' and 'partitionByFields' can be specified in "
            "'$fill'",
            partitionBy.eoo() || partitionByFields.eoo());
    BSONObjBuilder windowOut, addFields;
    bool anyWindow = false, anyValue = false;
    for (auto f : outputSpec) {
        uassert(ErrorCodes::FailedToParse, "Each $fill output must be an object",
                f.type() == BSONType::kObject);
        BSONObj spec = f.Obj();
        std::string field(f.fieldNameStringData());
        uassert(6050203,
                "Exactly one of 'value' or 'method' must be specified in each $fill output",
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
            windowOut.append(field,
                             BSON((method == "linear" ? "$linearFill" : "$locf") << ("$" + field)));
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
    auto parse = [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(ErrorCodes::FailedToParse,
                "the $setWindowFields stage specification must be an "
                "object",
                e.type() == BSONType::kObject);
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceSetWindowFields>(expCtx, e.Obj()));
        return out;
    };
    registerDocumentSource("$setWindowFields", parse);
    registerDocumentSource("$_internalSetWindowFields", parse);
    registerDocumentSource("$fill", parseFill);
    return true;
}();

}  // namespace
}  // namespace mongo
