/**
 * $expr in find and $match; $group and $sort beyond the 100 MiB memory limit fail
 * with QueryExceededMemoryLimitNoDiskUseAllowed (292) when allowDiskUse is false.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{a: 1, b: 2}, {a: 3, b: 2}, {a: 2, b: 2}]));
}

function exprInFindAndMatch() {
    assert.eq(1, coll.find({$expr: {$gt: ["$a", "$b"]}}).itcount());
    assert.eq(2, coll.aggregate([{$match: {$expr: {$lte: ["$a", "$b"]}}}]).itcount());
}

function memoryLimit() {
    coll.drop();
    const big = "x".repeat(1024 * 1024);
    const docs = [];
    for (let i = 0; i < 120; i++) {
        docs.push({_id: i, s: big});
    }
    for (let i = 0; i < 120; i += 10) {
        assert.commandWorked(coll.insertMany(docs.slice(i, i + 10)));
    }
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {}, allowDiskUse: false,
                       pipeline: [{$group: {_id: "$_id", s: {$push: "$s"}}}, {$count: "n"}]}),
        ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {}, allowDiskUse: false,
                       pipeline: [{$project: {s: 1, k: {$rand: {}}}}, {$sort: {k: 1}}, {$count: "n"}]}),
        ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
    const res = assert.commandWorked(
        db.runCommand({aggregate: coll.getName(), cursor: {}, allowDiskUse: true,
                       pipeline: [{$group: {_id: "$_id", s: {$push: "$s"}}}, {$count: "n"}]}));
    assert.eq([{n: 120}], res.cursor.firstBatch);
}

runScenarios(setUp, exprInFindAndMatch, memoryLimit);
