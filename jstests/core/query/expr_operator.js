/**
 * $expr compares fields of the same document with aggregation expressions.
 */
const coll = db[jsTestName()];

function ids(filter) {
    return coll.find(filter).sort({_id: 1}).toArray().map((d) => d._id);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: 5, b: 3},
        {_id: 2, a: 2, b: 3},
        {_id: 3, a: 4, b: 4},
    ]));
}

function exprComparesFields() {
    assert.eq([1], ids({$expr: {$gt: ["$a", "$b"]}}));
    assert.eq([3], ids({$expr: {$eq: ["$a", "$b"]}}));
    assert.eq([2, 3], ids({$expr: {$lte: ["$a", "$b"]}}));
}

function exprCombinesWithOtherPredicates() {
    assert.eq([3], ids({b: {$gt: 3}, $expr: {$eq: ["$a", "$b"]}}));
    assert.eq([1, 3], ids({$or: [{$expr: {$gt: ["$a", "$b"]}}, {a: 4}]}));
}

function exprWithArithmetic() {
    assert.eq([1, 3], ids({$expr: {$gte: [{$add: ["$a", 0]}, 4]}}));
}

function unknownExpressionFails() {
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {$expr: {$foo: 1}}}),
                                 ErrorCodes.InvalidPipelineOperator);
}

runScenarios(setUp, exprComparesFields, exprCombinesWithOtherPredicates, exprWithArithmetic,
             unknownExpressionFails);
