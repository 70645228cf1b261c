#include <gtest/gtest.h>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_memory.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"
#include "relaxed_json.h"

namespace mongo {
namespace {

using test::relaxedJson;

int evalCode(StringData exprJson) {
    ExpressionContext expCtx(nullptr, NamespaceString("test", "c"));
    BSONObj spec = relaxedJson(std::string("{x: ") + std::string(exprJson) + "}");
    try {
        auto expr = Expression::parseOperand(&expCtx, spec.firstElement(), expCtx.makeParseState());
        expr->evaluate(BSONObj(), &expCtx.variables);
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

/** Sets an int64 server parameter for the life of the object. */
class ScopedParameter {
public:
    ScopedParameter(std::atomic<long long>& p, long long v) : _p(p), _old(p.load()) {
        _p.store(v);
    }
    ~ScopedParameter() {
        _p.store(_old);
    }

private:
    std::atomic<long long>& _p;
    long long _old;
};

TEST(BoundedArrayBuilder, BuildsAnArrayAndRefusesToGrowPastItsLimit) {
    BoundedArrayBuilder ok("$op", 1000);
    ok.append(Value(1));
    ok.append(Value(), /*missingAsNull=*/true);
    ok.append(Value());  // skipped
    EXPECT_EQ(ok.count(), 2u);
    EXPECT_EQ(ok.done().toString(), "[ 1, null ]");

    BoundedArrayBuilder small("$op", 40);
    small.append(Value(1));
    try {
        small.append(Value(std::string(64, 'x')));
        FAIL() << "expected ExceededMemoryLimit";
    } catch (const DBException& e) {
        EXPECT_EQ(e.code(), ErrorCodes::ExceededMemoryLimit);
        EXPECT_NE(e.reason().find("$op needs too much memory"), std::string::npos);
    }
}

TEST(ExpressionMemory, StringsStopShortOf16MB) {
    EXPECT_EQ(evalCode("{$reduce: {input: {$range: [0, 30]}, initialValue: 'ab', "
                       "in: {$concat: ['$$value', '$$value']}}}"),
              16493);
    EXPECT_EQ(evalCode("{$concat: ['a', 'b']}"), 0);
}

TEST(ExpressionMemory, RangeIsCountedBeforeItIsBuilt) {
    EXPECT_EQ(evalCode("{$range: [-2147483648, 2147483647]}"), ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(evalCode("{$range: [0, 100]}"), 0);
    ScopedParameter p(gInternalQueryMaxRangeBytes, 1100);
    EXPECT_EQ(evalCode("{$range: [0, 100]}"), ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(evalCode("{$range: [0, 10]}"), 0);
}

TEST(ExpressionMemory, MapFilterAndReduceObeyTheirParameter) {
    ScopedParameter p(gInternalQueryMaxMapReduceExpressionBytes, 1100);
    EXPECT_EQ(evalCode("{$map: {input: {$range: [0, 100]}, in: 'aaaaaaaaaaaaaaaaaaaaaaaa'}}"),
              ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(evalCode("{$filter: {input: {$range: [0, 200]}, cond: true}}"),
              ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(evalCode("{$reduce: {input: {$range: [0, 100]}, initialValue: [], "
                       "in: {$concatArrays: ['$$value', ['aaaaaaaaaaaaaaaaaaaa']]}}}"),
              ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(evalCode("{$map: {input: {$range: [0, 10]}, in: '$$this'}}"), 0);
}

TEST(ExpressionMemory, ConcatArraysDoublingStopsAtTheArrayLimit) {
    EXPECT_EQ(evalCode("{$reduce: {input: {$range: [0, 40]}, initialValue: [1, 2, 3, 4], "
                       "in: {$concatArrays: ['$$value', '$$value']}}}"),
              ErrorCodes::ExceededMemoryLimit);
}

TEST(ExpressionMemory, ValuesNestNoDeeperThan200Levels) {
    EXPECT_EQ(
        evalCode("{$reduce: {input: {$range: [0, 300]}, initialValue: {}, in: {a: '$$value'}}}"),
        ErrorCodes::Overflow);
    EXPECT_EQ(evalCode("{$reduce: {input: {$range: [0, 300]}, initialValue: [], in: ['$$value']}}"),
              ErrorCodes::Overflow);
    EXPECT_EQ(
        evalCode("{$reduce: {input: {$range: [0, 150]}, initialValue: {}, in: {a: '$$value'}}}"),
        0);
}

TEST(ExpressionMemory, DateArithmeticRefusesOverflowingAmounts) {
    EXPECT_EQ(evalCode("{$dateAdd: {startDate: {$toDate: {$toLong: 0}}, unit: 'year', "
                       "amount: {$toLong: '4611686018427387904'}}}"),
              5976500);
    EXPECT_EQ(evalCode("{$dateSubtract: {startDate: {$toDate: {$toLong: 0}}, unit: 'millisecond', "
                       "amount: {$toLong: '-9223372036854775808'}}}"),
              5976500);
    EXPECT_EQ(evalCode("{$dateTrunc: {date: {$toDate: {$toLong: 0}}, unit: 'hour', "
                       "binSize: {$toLong: '4611686018427387904'}}}"),
              ErrorCodes::BadValue);
    EXPECT_EQ(
        evalCode("{$dateAdd: {startDate: {$toDate: {$toLong: 0}}, unit: 'day', amount: 1000}}"), 0);
    EXPECT_EQ(
        evalCode("{$dateTrunc: {date: {$toDate: 8640000000000000}, unit: 'week', binSize: 3}}"), 0);
}

TEST(ExpressionMemory, SubstrBytesTakesTheLargestLength) {
    EXPECT_EQ(evalCode("{$substrBytes: ['abc', 1, {$toLong: '9223372036854775807'}]}"), 0);
}

}  // namespace
}  // namespace mongo
