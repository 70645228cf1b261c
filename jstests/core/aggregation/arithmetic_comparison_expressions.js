/**
 * Arithmetic, comparison, boolean and conditional expressions, with upstream's
 * error codes for bad operand types.
 */
const coll = db[jsTestName()];

function evalExpr(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return coll.aggregate([{$project: {_id: 0, r: expr}}]).toArray()[0].r;
}

function evalError(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: expr}}], cursor: {}});
}

function arithmetic() {
    assert.eq(6, evalExpr({$add: [1, 2, 3]}));
    assert.eq(NumberLong("2147483648"), evalExpr({$add: [NumberInt(2147483647), 1]}));
    assert.eq(2.5, evalExpr({$add: ["$a", 1.5]}, {a: 1}));
    assert.eq(null, evalExpr({$add: ["$missing", 1]}));
    assert.eq(ISODate("2021-01-01T00:00:01Z"), evalExpr({$add: [ISODate("2021-01-01"), 1000]}));
    assert.eq(-1, evalExpr({$subtract: [1, 2]}));
    assert.eq(NumberLong("1000"), evalExpr({$subtract: [ISODate("2021-01-01T00:00:01Z"), ISODate("2021-01-01")]}));
    assert.eq(12, evalExpr({$multiply: [3, 4]}));
    assert.eq(2.5, evalExpr({$divide: [5, 2]}));
    assert.eq(1, evalExpr({$mod: [7, 3]}));
    assert.eq(5, evalExpr({$abs: -5}));
    assert.eq(2, evalExpr({$ceil: 1.2}));
    assert.eq(1, evalExpr({$floor: 1.8}));
    assert.eq(3, evalExpr({$sqrt: 9}));
    assert.eq(8, evalExpr({$pow: [2, 3]}));
    assert.eq(2, evalExpr({$log10: 100}));
    assert.eq(1.23, evalExpr({$round: [1.234, 2]}));
    assert.eq(2, evalExpr({$round: 2.5}));
    assert.eq(1.2, evalExpr({$trunc: [1.29, 1]}));
    assert.eq(0, evalExpr({$sin: 0}));
    assert.eq(Math.PI / 4, evalExpr({$atan2: [1, 1]}));
    assert.eq(180, evalExpr({$radiansToDegrees: Math.PI}));
    assert.eq(12, evalExpr({$bsonSize: {a: 1}}));
    assert.eq(NumberLong(5), evalExpr({$tsSecond: Timestamp(5, 1)}));
    assert.eq(3, evalExpr({$literal: 3}));
}

function arithmeticErrors() {
    assert.commandFailedWithCode(evalError({$add: [1, "a"]}), 16554);
    assert.commandFailedWithCode(evalError({$multiply: [1, "a"]}), 16555);
    assert.commandFailedWithCode(evalError({$subtract: ["a", 1]}), 16556);
    assert.commandFailedWithCode(evalError({$divide: [1, 0]}), 16608);
    assert.commandFailedWithCode(evalError({$divide: ["a", 1]}), 16609);
    assert.commandFailedWithCode(evalError({$mod: [1, 0]}), 16610);
    assert.commandFailedWithCode(evalError({$sqrt: -1}), 28714);
    assert.commandFailedWithCode(evalError({$subtract: [1, 2, 3]}), 16020);
    assert.commandFailedWithCode(evalError({$add: [new Date(), new Date()]}), 16612);
}

function comparisonAndBoolean() {
    assert.eq(true, evalExpr({$eq: [1, 1.0]}));
    assert.eq(true, evalExpr({$ne: ["$a", null]}, {a: 1}));
    assert.eq(true, evalExpr({$gt: ["a", 5]}), "strings sort after numbers");
    assert.eq(-1, evalExpr({$cmp: [1, 2]}));
    assert.eq(true, evalExpr({$and: [1, true, "x"]}));
    assert.eq(false, evalExpr({$and: [1, 0]}));
    assert.eq(true, evalExpr({$or: [0, null, 1]}));
    assert.eq(true, evalExpr({$not: [0]}));
}

function conditionals() {
    assert.eq("big", evalExpr({$cond: [{$gte: ["$a", 10]}, "big", "small"]}, {a: 10}));
    assert.eq("small", evalExpr({$cond: {if: {$gte: ["$a", 10]}, then: "big", else: "small"}}, {a: 1}));
    assert.eq("dflt", evalExpr({$ifNull: ["$nope", null, "dflt"]}));
    assert.eq("two", evalExpr({$switch: {branches: [{case: {$eq: ["$a", 1]}, then: "one"},
                                                    {case: {$eq: ["$a", 2]}, then: "two"}],
                                         default: "many"}}, {a: 2}));
    assert.commandFailedWithCode(evalError({$switch: {branches: [{case: false, then: 1}]}}), 40066);
    assert.commandFailedWithCode(evalError({$cond: {if: true, then: 1}}), 17082);
}

function variables() {
    assert.eq(20, evalExpr({$let: {vars: {x: "$a", y: 2}, in: {$multiply: ["$$x", "$$y"]}}}, {a: 10}));
    assert.eq({_id: 1, a: 3}, evalExpr("$$ROOT", {a: 3}));
    assert.eq(3, evalExpr("$$CURRENT.a", {a: 3}));
    assert.commandFailedWithCode(evalError("$$undefinedVar"), 17276);
    assert.commandFailedWithCode(evalError({$let: {vars: {Bad: 1}, in: 1}}), 16867);
    const now = evalExpr("$$NOW");
    assert(now instanceof Date);
    assert.eq(5, coll.aggregate([{$project: {_id: 0, r: "$$v"}}], {let: {v: 5}}).toArray()[0].r);
}

function fieldPathErrors() {
    assert.commandFailedWithCode(evalError("$"), 16872);
    assert.commandFailedWithCode(evalError("$a..b"), 15998);
    assert.commandFailedWithCode(evalError("$a.$b"), 16410);
    assert.commandFailedWithCode(evalError({$add: [1], $x: 1}), 15983);
}

runScenarios(arithmetic, arithmeticErrors, comparisonAndBoolean, conditionals, variables,
             fieldPathErrors);
