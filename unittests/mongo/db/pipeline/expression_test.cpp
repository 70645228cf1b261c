#include <gtest/gtest.h>

#include <regex>

#include "mongo/bson/json.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/util/assert_util.h"
#include "relaxed_json.h"

namespace mongo {
namespace {

using test::relaxedJson;

Value eval(StringData exprJson, StringData docJson = "{}") {
    ExpressionContext expCtx(nullptr, NamespaceString("test", "c"));
    BSONObj spec = relaxedJson(std::string("{x: ") + std::string(exprJson) + "}");
    auto expr = Expression::parseOperand(&expCtx, spec.firstElement(), expCtx.makeParseState());
    BSONObj doc = relaxedJson(docJson);
    return expr->evaluate(doc, &expCtx.variables).getOwned();
}

std::string str(StringData exprJson, StringData docJson = "{}") {
    return eval(exprJson, docJson).toString();
}

int errorCode(StringData exprJson, StringData docJson = "{}") {
    try {
        eval(exprJson, docJson);
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

TEST(ExpressionFieldPath, ReadsNestedFieldsAndMapsOverArrays) {
    EXPECT_EQ(str("'$a.b'", "{a: {b: 5}}"), "5");
    EXPECT_EQ(str("'$a.b'", "{a: [{b: 1}, {c: 2}, {b: 3}]}"), "[ 1, 3 ]");
    EXPECT_TRUE(eval("'$missing'", "{a: 1}").missing());
    EXPECT_EQ(str("'$$ROOT.a'", "{a: 7}"), "7");
}

TEST(ExpressionFieldPath, RejectsBadPaths) {
    EXPECT_EQ(errorCode("'$'"), 16872);
    EXPECT_EQ(errorCode("'$a..b'"), 15998);
    EXPECT_EQ(errorCode("'$a.$b'"), 16410);
    EXPECT_EQ(errorCode("'$$nope'"), 17276);
}

TEST(ExpressionArithmetic, AddPromotesTypesAndRejectsStrings) {
    EXPECT_EQ(eval("{$add: [1, 2]}").getType(), BSONType::kNumberInt);
    EXPECT_EQ(eval("{$add: [2147483647, 1]}").getType(), BSONType::kNumberLong);
    EXPECT_EQ(eval("{$add: [1, 2.5]}").getDouble(), 3.5);
    EXPECT_TRUE(eval("{$add: [1, null]}").nullish());
    EXPECT_EQ(errorCode("{$add: [1, 'x']}"), 16554);
    EXPECT_EQ(eval("{$add: [{$date: 1000}, 500]}").getDate().toMillisSinceEpoch(), 1500);
}

TEST(ExpressionArithmetic, DivideModAndErrors) {
    EXPECT_EQ(eval("{$divide: [7, 2]}").getDouble(), 3.5);
    EXPECT_EQ(errorCode("{$divide: [1, 0]}"), 16608);
    EXPECT_EQ(eval("{$mod: [7, 3]}").getInt(), 1);
    EXPECT_EQ(errorCode("{$mod: [1, 0]}"), 16610);
    EXPECT_EQ(errorCode("{$subtract: [1]}"), 16020);
}

TEST(ExpressionComparison, UsesCanonicalOrder) {
    EXPECT_TRUE(eval("{$eq: [1, 1.0]}").getBool());
    EXPECT_TRUE(eval("{$lt: [5, 'a']}").getBool());
    EXPECT_EQ(eval("{$cmp: [2, 1]}").getInt(), 1);
    EXPECT_FALSE(eval("{$eq: ['$missing', null]}").getBool());
}

TEST(ExpressionControl, CondIfNullSwitchLet) {
    EXPECT_EQ(str("{$cond: [{$gt: ['$a', 1]}, 'big', 'small']}", "{a: 2}"), "\"big\"");
    EXPECT_EQ(str("{$cond: {if: false, then: 1, else: 2}}"), "2");
    EXPECT_EQ(str("{$ifNull: ['$x', 'default']}"), "\"default\"");
    EXPECT_EQ(str("{$switch: {branches: [{case: false, then: 1}], default: 3}}"), "3");
    EXPECT_EQ(errorCode("{$switch: {branches: [{case: false, then: 1}]}}"), 40066);
    EXPECT_EQ(str("{$let: {vars: {v: 4}, in: {$multiply: ['$$v', 2]}}}"), "8");
    EXPECT_EQ(errorCode("{$foo: 1}"), 168);
    EXPECT_EQ(errorCode("{$add: [1], $sub: 2}"), 15983);
}

TEST(ExpressionControl, MapFilterReduce) {
    EXPECT_EQ(str("{$map: {input: [1, 2], as: 'x', in: {$add: ['$$x', 1]}}}"), "[ 2, 3 ]");
    EXPECT_EQ(str("{$filter: {input: [1, 2, 3], cond: {$gte: ['$$this', 2]}}}"), "[ 2, 3 ]");
    EXPECT_EQ(str("{$reduce: {input: [1, 2, 3], initialValue: 0, in: {$add: ['$$value', "
                  "'$$this']}}}"),
              "6");
}

TEST(ExpressionDate, DateTruncUnitsBinSizeAndTimezone) {
    // 2021-03-14T10:37:12.345Z
    const char* doc = "{d: {$date: '2021-03-14T10:37:12.345Z'}}";
    EXPECT_EQ(eval("{$dateTrunc: {date: '$d', unit: 'hour'}}", doc).getDate().toMillisSinceEpoch(),
              relaxedJson("{d: {$date: '2021-03-14T10:00:00Z'}}")["d"].date().toMillisSinceEpoch());
    EXPECT_EQ(eval("{$dateTrunc: {date: '$d', unit: 'minute', binSize: 15}}", doc)
                  .getDate()
                  .toMillisSinceEpoch(),
              relaxedJson("{d: {$date: '2021-03-14T10:30:00Z'}}")["d"].date().toMillisSinceEpoch());
    EXPECT_EQ(eval("{$dateTrunc: {date: '$d', unit: 'day', timezone: 'America/New_York'}}", doc)
                  .getDate()
                  .toMillisSinceEpoch(),
              relaxedJson("{d: {$date: '2021-03-14T05:00:00Z'}}")["d"].date().toMillisSinceEpoch());
    EXPECT_EQ(eval("{$dateTrunc: {date: '$d', unit: 'week'}}", doc).getDate().toMillisSinceEpoch(),
              relaxedJson("{d: {$date: '2021-03-14T00:00:00Z'}}")["d"].date().toMillisSinceEpoch());
    EXPECT_EQ(
        eval("{$dateTrunc: {date: '$d', unit: 'quarter'}}", doc).getDate().toMillisSinceEpoch(),
        relaxedJson("{d: {$date: '2021-01-01T00:00:00Z'}}")["d"].date().toMillisSinceEpoch());
    EXPECT_TRUE(eval("{$dateTrunc: {date: null, unit: 'hour'}}").nullish());
    EXPECT_EQ(errorCode("{$dateTrunc: {date: '$d', unit: 'hour', timezone: 'Mars/Base'}}", doc),
              40485);
    EXPECT_EQ(errorCode("{$dateTrunc: {date: '$d', unit: 'fortnight'}}", doc), 5439014);
    EXPECT_EQ(errorCode("{$dateTrunc: {date: '$d', unit: 'hour', binSize: 0}}", doc), 5439018);
    EXPECT_EQ(errorCode("{$dateTrunc: {date: 'x', unit: 'hour'}}", doc), 5439012);
}

TEST(ExpressionDate, DatePartsWithOffsets) {
    const char* doc = "{d: {$date: '2021-03-14T23:30:00Z'}}";
    EXPECT_EQ(eval("{$hour: '$d'}", doc).getInt(), 23);
    EXPECT_EQ(eval("{$hour: {date: '$d', timezone: '+02:00'}}", doc).getInt(), 1);
    EXPECT_EQ(eval("{$dayOfMonth: {date: '$d', timezone: '+02'}}", doc).getInt(), 15);
    EXPECT_EQ(eval("{$dayOfWeek: '$d'}", doc).getInt(), 1);  // a Sunday
    EXPECT_EQ(eval("{$isoDayOfWeek: '$d'}", doc).getInt(), 7);
}

}  // namespace
}  // namespace mongo
