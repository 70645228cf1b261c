#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/**
 * Accumulates `inputs` once in one pass and once in chunks of `chunk` inputs whose
 * partial states are merged into a fresh accumulator; returns both results.
 */
std::pair<Value, Value> oneAndMerged(StringData op, const std::vector<Value>& inputs,
                                     size_t chunk) {
    ExpressionContext expCtx(nullptr, NamespaceString("test", "c"));
    auto st = parseAccumulationStatement(&expCtx, BSON("f" << BSON(op << "$x")).firstElement(),
                                         expCtx.makeParseState());
    auto one = st.factory();
    for (const auto& v : inputs)
        one->process(v);
    auto merged = st.factory();
    EXPECT_TRUE(merged->canSpill()) << op;
    for (size_t i = 0; i < inputs.size(); i += chunk) {
        auto part = st.factory();
        for (size_t j = i; j < std::min(inputs.size(), i + chunk); ++j)
            part->process(inputs[j]);
        // Round-trip the partial through BSON, as the spill files do.
        BSONObjBuilder b;
        part->getPartial().addToBsonObj(&b, "p");
        BSONObj stored = b.obj();
        merged->mergePartial(Value(stored.firstElement()));
    }
    return {one->getValue().getOwned(), merged->getValue().getOwned()};
}

std::vector<Value> mixedInputs() {
    return {Value(3),  Value(),  Value(7LL),  Value(2.5), Value::null(), Value(StringData("s")),
            Value(-4), Value(1), Value(9.25), Value(3)};
}

TEST(AccumulatorPartial, MergedPartialsEqualOnePass) {
    for (const char* op :
         {"$sum", "$avg", "$min", "$max", "$first", "$last", "$push", "$addToSet"}) {
        for (size_t chunk : {1u, 3u, 4u, 100u}) {
            auto [one, merged] = oneAndMerged(op, mixedInputs(), chunk);
            EXPECT_EQ(one.toString(), merged.toString()) << op << " chunk " << chunk;
            EXPECT_EQ(one.getType(), merged.getType()) << op << " chunk " << chunk;
        }
    }
}

TEST(AccumulatorPartial, SumKeepsIntegerTypeAndPromotesOnOverflowAcrossPartials) {
    auto [one, merged] = oneAndMerged("$sum", {Value(1), Value(2), Value(3)}, 1);
    EXPECT_EQ(merged.getType(), BSONType::kNumberInt);
    EXPECT_EQ(merged.getInt(), 6);
    std::vector<Value> big{Value(std::numeric_limits<long long>::max()), Value(1LL)};
    auto [oneBig, mergedBig] = oneAndMerged("$sum", big, 1);
    EXPECT_EQ(oneBig.getType(), mergedBig.getType());
    EXPECT_DOUBLE_EQ(oneBig.getDouble(), mergedBig.getDouble());
    auto [oneDec, mergedDec] =
        oneAndMerged("$sum", {Value(1), Value(Decimal128(2)), Value(0.5)}, 1);
    EXPECT_EQ(mergedDec.getType(), BSONType::kNumberDecimal);
    EXPECT_EQ(oneDec.toString(), mergedDec.toString());
}

TEST(AccumulatorPartial, StdDevMergesToTheSameResult) {
    std::vector<Value> in{Value(2), Value(4), Value(4), Value(4),
                          Value(5), Value(5), Value(7), Value(9)};
    for (const char* op : {"$stdDevPop", "$stdDevSamp"}) {
        auto [one, merged] = oneAndMerged(op, in, 3);
        EXPECT_NEAR(one.getDouble(), merged.getDouble(), 1e-12) << op;
    }
}

TEST(AccumulatorPartial, MergeObjectsKeepsLaterValues) {
    std::vector<Value> in{Value(BSON("a" << 1 << "b" << 1)), Value::null(),
                          Value(BSON("b" << 2 << "c" << 3)), Value(BSON("a" << 4))};
    auto [one, merged] = oneAndMerged("$mergeObjects", in, 2);
    EXPECT_EQ(one.toString(), merged.toString());
}

TEST(AccumulatorPartial, EmptyPartialsChangeNothing) {
    auto [one, merged] = oneAndMerged("$first", {}, 1);
    EXPECT_TRUE(merged.nullish());
    auto [oneMin, mergedMin] = oneAndMerged("$min", {Value::null()}, 1);
    EXPECT_TRUE(mergedMin.nullish());
}

}  // namespace
}  // namespace mongo
