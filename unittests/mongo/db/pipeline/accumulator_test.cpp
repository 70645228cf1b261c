#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** Runs accumulator `op` with argument `arg` over `inputs`; returns the result. */
Value accumulate(const BSONObj& stmt, const std::vector<Value>& inputs) {
    ExpressionContext expCtx(nullptr, NamespaceString("test", "c"));
    auto st = parseAccumulationStatement(&expCtx, stmt.firstElement(), expCtx.makeParseState());
    auto acc = st.factory();
    for (const auto& v : inputs)
        acc->process(v);
    return acc->getValue().getOwned();
}

Value run(StringData op, const std::vector<Value>& inputs) {
    return accumulate(BSON("f" << BSON(op << "$x")), inputs);
}

int parseCode(const BSONObj& stmt) {
    try {
        accumulate(stmt, {});
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(AccumulatorSum, KeepsIntegerTypesAndPromotesOnOverflow) {
    EXPECT_EQ(run("$sum", {Value(1), Value(2)}).getType(), BSONType::kNumberInt);
    EXPECT_EQ(run("$sum", {Value(2147483647), Value(1)}).getType(), BSONType::kNumberLong);
    EXPECT_EQ(run("$sum", {Value(1), Value(0.5)}).getDouble(), 1.5);
    EXPECT_EQ(run("$sum", {Value(StringData("x")), Value()}).getInt(), 0);
}

TEST(AccumulatorAvg, IgnoresNonNumbersAndIsNullWhenEmpty) {
    EXPECT_EQ(run("$avg", {Value(1), Value(StringData("x")), Value(3)}).getDouble(), 2.0);
    EXPECT_TRUE(run("$avg", {}).nullish());
}

TEST(AccumulatorMinMax, SkipNullAndMissingAndUseCanonicalOrder) {
    EXPECT_EQ(run("$min", {Value::null(), Value(5), Value(2)}).getInt(), 2);
    EXPECT_EQ(run("$max", {Value(5), Value(StringData("a"))}).getString(), "a");
    EXPECT_TRUE(run("$max", {Value()}).nullish());
}

TEST(AccumulatorFirstLastPushAddToSet, CollectInOrder) {
    std::vector<Value> in{Value(1), Value(2), Value(1)};
    EXPECT_EQ(run("$first", in).getInt(), 1);
    EXPECT_EQ(run("$last", in).getInt(), 1);
    EXPECT_EQ(run("$push", in).toString(), "[ 1, 2, 1 ]");
    EXPECT_EQ(run("$addToSet", in).toString(), "[ 1, 2 ]");
}

TEST(AccumulatorStdDev, PopulationAndSample) {
    std::vector<Value> in{Value(2), Value(4), Value(4), Value(4),
                          Value(5), Value(5), Value(7), Value(9)};
    EXPECT_DOUBLE_EQ(run("$stdDevPop", in).getDouble(), 2.0);
    EXPECT_TRUE(run("$stdDevSamp", {Value(1)}).nullish());
}

TEST(AccumulatorN, FirstNMaxNAndMedian) {
    std::vector<Value> in{Value(3), Value(1), Value(2)};
    EXPECT_EQ(accumulate(BSON("f" << BSON("$firstN" << BSON("n" << 2 << "input"
                                                                << "$x"))),
                         in)
                  .toString(),
              "[ 3, 1 ]");
    EXPECT_EQ(accumulate(BSON("f" << BSON("$maxN" << BSON("n" << 2 << "input"
                                                              << "$x"))),
                         in)
                  .toString(),
              "[ 3, 2 ]");
    EXPECT_EQ(accumulate(BSON("f" << BSON("$median" << BSON("input"
                                                            << "$x"
                                                            << "method"
                                                            << "approximate"))),
                         in)
                  .getDouble(),
              2.0);
}

TEST(AccumulationStatement, ParseErrorsUseUpstreamCodes) {
    EXPECT_EQ(parseCode(BSON("f" << 1)), 40234);
    EXPECT_EQ(parseCode(BSON("f" << BSON("$sum" << 1 << "$avg" << 1))), 40238);
    EXPECT_EQ(parseCode(BSON("f" << BSON("$nope" << 1))), 15952);
    EXPECT_EQ(parseCode(BSON("a.b" << BSON("$sum" << 1))), 40235);
    EXPECT_EQ(parseCode(BSON("f" << BSON("$sum" << BSON_ARRAY(1 << 2)))), 40237);
    EXPECT_EQ(parseCode(BSON("f" << BSON("$firstN" << BSON("n" << 0 << "input"
                                                               << "$x")))),
              5787908);
}

TEST(AccumulatorMemory, PushAddToSetAndTopNStopAtTheirParameters) {
    auto codeOf = [](const BSONObj& stmt, int n) {
        std::vector<Value> inputs;
        for (int i = 0; i < n; ++i)
            inputs.push_back(Value(std::string(100, 'a' + i % 26) + std::to_string(i)));
        try {
            accumulate(stmt, inputs);
        } catch (const DBException& e) {
            return static_cast<int>(e.code());
        }
        return 0;
    };
    long long push = gInternalQueryMaxPushBytes.load(), set = gInternalQueryMaxAddToSetBytes.load(),
              topN = gInternalQueryTopNAccumulatorBytes.load();
    gInternalQueryMaxPushBytes.store(10000);
    gInternalQueryMaxAddToSetBytes.store(10000);
    gInternalQueryTopNAccumulatorBytes.store(10000);
    EXPECT_EQ(codeOf(BSON("f" << BSON("$push"
                                      << "$x")),
                     200),
              ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(codeOf(BSON("f" << BSON("$push"
                                      << "$x")),
                     20),
              0);
    EXPECT_EQ(codeOf(BSON("f" << BSON("$addToSet"
                                      << "$x")),
                     200),
              ErrorCodes::ExceededMemoryLimit);
    EXPECT_EQ(codeOf(BSON("f" << BSON("$lastN" << BSON("n" << 1000000 << "input"
                                                           << "$x"))),
                     200),
              ErrorCodes::ExceededMemoryLimit);
    // Only what is kept counts: the last 5 of many fit.
    EXPECT_EQ(codeOf(BSON("f" << BSON("$lastN" << BSON("n" << 5 << "input"
                                                           << "$x"))),
                     1000),
              0);
    EXPECT_EQ(codeOf(BSON("f" << BSON("$minN" << BSON("n" << 5 << "input"
                                                          << "$x"))),
                     1000),
              0);
    gInternalQueryMaxPushBytes.store(push);
    gInternalQueryMaxAddToSetBytes.store(set);
    gInternalQueryTopNAccumulatorBytes.store(topN);
}

}  // namespace
}  // namespace mongo
