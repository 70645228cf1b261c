#include "mongo/db/pipeline/window_function_spec.h"

#include "mongo/db/pipeline/document_path.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace window_function {
namespace {

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
            uasserted(ErrorCodes::FailedToParse,
                      "'window' field that must be an object "
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
        uassert(5339900, "Lower bound must not exceed upper bound", w.lower.value <= w.upper.value);
    uassert(5339901, "Lower bound must not be 'unbounded' upper / upper 'unbounded' lower", true);
    return w;
}

/** `tooLongCode`: for a unit without a fixed length (month, quarter, year). */
std::optional<TimeUnit> parseUnitArg(const BSONElement& e, int tooLongCode) {
    TimeUnit u;
    uassert(5490704, "unit must be a string naming a time unit",
            e.type() == BSONType::kString && parseTimeUnit(e.valueStringData(), &u));
    uassert(tooLongCode, "unit must be at most 'week'", unitMillis(u) > 0);
    return u;
}

}  // namespace

OutputField parseOutput(ExpressionContext* expCtx, const BSONElement& e) {
    OutputField out;
    out.fieldName = std::string(e.fieldNameStringData());
    out.path = splitFieldPath(e.fieldNameStringData());
    uassert(ErrorCodes::FailedToParse,
            "$setWindowFields 'output' field '" + std::string(e.fieldNameStringData()) +
                "' must be an object",
            e.type() == BSONType::kObject);
    BSONElement fn, window;
    for (auto f : e.Obj()) {
        if (f.fieldNameStringData() == "window") {
            window = f;
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
    if (!window.eoo()) {
        // A function that takes no window refuses one before its form is checked.
        const std::string& op = out.opName;
        uassert(5371601, op + " does not accept a 'window' field",
                op != "$rank" && op != "$denseRank" && op != "$documentNumber" && op != "$shift" &&
                    op != "$expMovingAvg" && op != "$locf" && op != "$linearFill");
        out.window = parseWindow(window);
    }
    auto vps = expCtx->makeParseState();
    auto noWindow = [&] {
        uassert(5371601, out.opName + " does not accept a 'window' field", !out.window.present);
    };
    const std::string& op = out.opName;
    if (op == "$rank" || op == "$denseRank" || op == "$documentNumber") {
        uassert(5371603, op + " must be specified with '{}' as the value",
                fn.type() == BSONType::kObject && fn.Obj().isEmpty());
        noWindow();
        out.kind = op == "$rank"        ? FnKind::kRank
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
                // Any expression over constants ({$add: [1, 1]}), evaluated here.
                auto v = Expression::evaluateConstantOperand(expCtx, f, vps);
                uassert(ErrorCodes::FailedToParse,
                        "'$shift:default' expression must yield a constant value.", v);
                out.second = std::make_unique<ExpressionConstant>(*v);
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
                out.unit = parseUnitArg(f, op == "$derivative" ? 5490710 : 5490700);
            else
                uasserted(ErrorCodes::FailedToParse,
                          op + " got unexpected argument: " + std::string(n));
        }
        uassert(ErrorCodes::FailedToParse, op + " requires an 'input' expression", out.input);
        if (op == "$derivative")
            uassert(ErrorCodes::FailedToParse, "$derivative requires explicit window bounds",
                    out.window.present);
        out.kind = op == "$derivative" ? FnKind::kDerivative : FnKind::kIntegral;
    } else if (op == "$expMovingAvg") {
        noWindow();
        uassert(ErrorCodes::FailedToParse,
                "$expMovingAvg must have exactly one argument that is "
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

}  // namespace window_function
}  // namespace mongo
