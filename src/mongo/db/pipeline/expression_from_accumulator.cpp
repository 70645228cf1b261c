// The accumulators usable as expressions: $sum $avg $min $max $stdDevPop $stdDevSamp.
// Each folds its operands with the $group accumulator of the same name; a single operand
// that is an array is folded element by element ({$sum: "$arr"}, {$sum: [[1, 2]]}).
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/expression.h"

namespace mongo {
namespace {

/** Folds `args` (or the elements of a lone array argument) into `acc`; its result. */
Value foldInto(Accumulator* acc, const ValueArgs& args) {
    if (args.size() == 1 && args[0].isArray()) {
        for (const auto& v : args[0].getArray())
            acc->process(v);
    } else {
        for (const auto& v : args)
            acc->process(v);
    }
    return acc->getValue();
}

void registerFromAccumulator(StringData name) {
    std::string op(name);
    registerCollatedNaryExpression(name, 0, -1,
                                   [op](const ValueArgs& args, const StringComparator* strings) {
                                       auto acc = makeAccumulatorForExpression(op, strings);
                                       return foldInto(acc.get(), args);
                                   });
}

const bool kRegistered = [] {
    for (const char* name : {"$sum", "$avg", "$min", "$max", "$stdDevPop", "$stdDevSamp"})
        registerFromAccumulator(name);
    return true;
}();

}  // namespace
}  // namespace mongo
