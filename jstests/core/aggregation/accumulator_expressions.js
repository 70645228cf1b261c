/**
 * $sum $avg $min $max $stdDevPop $stdDevSamp as expressions: a list of operands, or one
 * operand whose array value is folded element by element; non-numbers (and nulls) ignored.
 * Also: an infinite $sum stays infinite, and $log of NaN is NaN.
 */
const coll = db[jsTestName()];

function evalExpr(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return coll.aggregate([{$project: {_id: 0, r: expr}}]).toArray()[0].r;
}

function listOrOneArray() {
    assert.eq(15, evalExpr({$sum: [1, 2, 3, 4, 5]}));
    assert.eq(15, evalExpr({$sum: [[1, 2, 3, 4, 5]]}));
    assert.eq(6, evalExpr({$sum: "$a"}, {a: [1, 2, 3, "x"]}));
    assert.eq(3, evalExpr({$avg: ["$a", 5]}, {a: 1}));
    assert.eq(1, evalExpr({$min: [[3, 1, 2]]}));
    assert.eq(3, evalExpr({$max: [3, null, 1]}));
    assert.eq(1, evalExpr({$stdDevPop: [1, 3]}));
    assert.eq(1, evalExpr({$stdDevSamp: [[1, 2, 3]]}));
    // Two operands: an array operand is not a number, so it is skipped.
    assert.eq(1, evalExpr({$sum: [1, [2, 3]]}));
}

function nothingToFold() {
    assert.eq(0, evalExpr({$sum: []}));
    assert.eq(0, evalExpr({$sum: "$missing"}));
    assert.eq(null, evalExpr({$avg: "$s"}, {s: "str"}));
    assert.eq(null, evalExpr({$max: []}));
    assert.eq(null, evalExpr({$stdDevSamp: [1]}));
}

function collationOrdersStrings() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1}));
    const res = coll.aggregate([{$project: {_id: 0, r: {$max: ["a", "B"]}}}],
                               {collation: {locale: "en", strength: 2}})
                    .toArray();
    assert.eq("B", res[0].r);
}

function infiniteSums() {
    assert.eq(Infinity, evalExpr({$sum: [Infinity, 1]}));
    assert.eq(-Infinity, evalExpr({$sum: [1, -Infinity, 2]}));
    assert(isNaN(evalExpr({$sum: [Infinity, -Infinity]})));
    assert.eq(Infinity, evalExpr({$sum: [Number.MAX_VALUE, Number.MAX_VALUE, 1]}));
    coll.drop();
    assert.commandWorked(coll.insert([{v: Infinity}, {v: 1}, {v: 2.5}]));
    assert.eq(Infinity, coll.aggregate([{$group: {_id: null, s: {$sum: "$v"}}}]).toArray()[0].s);
}

function logOfNaN() {
    assert(isNaN(evalExpr({$log: [NaN, 10]})));
    assert(isNaN(evalExpr({$log: [10, NaN]})));
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: {$log: [0, 5]}}}], cursor: {}}),
        28758);
}

runScenarios(listOrOneArray, nothingToFold, collationOrdersStrings, infiniteSums, logOfNaN);
