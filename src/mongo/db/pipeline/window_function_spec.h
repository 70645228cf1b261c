// The parsed form of $setWindowFields' `output`: one OutputField per output, with its window
// function (FnKind), its window bounds (`documents` or `range`, optionally with a time unit)
// and its arguments. Parsing throws upstream's codes (FailedToParse 9, 5371601, 5371603,
// 5339900, 5490700, 5490704...). Used by document_source_set_window_fields.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/date_util.h"

namespace mongo {
namespace window_function {

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
    kAccumulator,
    kRank,
    kDenseRank,
    kDocumentNumber,
    kShift,
    kDerivative,
    kIntegral,
    kExpMovingAvg,
    kCovariancePop,
    kCovarianceSamp,
    kLocf,
    kLinearFill
};

struct OutputField {
    std::string fieldName;  // as given ("a.b")
    std::vector<std::string> path;
    std::string opName;
    FnKind kind;
    WindowSpec window;
    ExprPtr input;   // the accumulator input / the function's input
    ExprPtr second;  // $covariance: y; $shift: default
    AccumulatorFactory factory;
    long long shiftBy = 0;
    std::optional<TimeUnit> unit;  // $derivative/$integral output unit
    double alpha = 0;              // $expMovingAvg
};

/** Parses one `<field>: {<$function>: <args>, window?: {...}}` of `output`. */
OutputField parseOutput(ExpressionContext* expCtx, const BSONElement& e);

}  // namespace window_function
}  // namespace mongo
