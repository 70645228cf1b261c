/**
 * explain {aggregate} with executionStats on a plain collection: the pipeline runs, the
 * $cursor stage carries queryPlanner and executionStats, every later stage nReturned and
 * executionTimeMillisEstimate; a pipeline fully pushed into the find layer answers like
 * find's explain (top-level queryPlanner and executionStats).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 50; i++)
        docs.push({_id: i, a: i % 5, b: i});
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(coll.createIndex({a: 1}));
}

function explain(pipeline, verbosity) {
    return assert.commandWorked(db.runCommand(
        {explain: {aggregate: coll.getName(), pipeline: pipeline, cursor: {}}, verbosity: verbosity}));
}

function stagesCarryCounts() {
    const res = explain([{$match: {a: 2}}, {$group: {_id: "$a", n: {$sum: 1}}}, {$limit: 1}],
                        "executionStats");
    assert(res.stages, tojson(res));
    const cursor = res.stages[0];
    assert.eq(10, cursor.$cursor.executionStats.nReturned, tojson(cursor));
    assert.eq(10, cursor.$cursor.executionStats.totalDocsExamined, tojson(cursor));
    assert.gte(cursor.$cursor.executionStats.totalKeysExamined, 10, tojson(cursor));
    assert(cursor.$cursor.executionStats.executionStages.stage, tojson(cursor));
    assert.eq(10, cursor.nReturned, tojson(cursor));
    assert.eq({_id: "$a", n: {$sum: 1}}, res.stages[1].$group, tojson(res));
    assert.eq(1, res.stages[1].nReturned, tojson(res));
    assert.eq(1, res.stages[2].nReturned, tojson(res));
    for (const s of res.stages)
        assert.gte(s.executionTimeMillisEstimate, 0, tojson(s));
    assert(res.command, tojson(res));
}

function pushedDownPipelineLooksLikeFind() {
    const res = explain([{$match: {a: {$gte: 3}}}], "executionStats");
    assert(res.queryPlanner, tojson(res));
    assert.eq(20, res.executionStats.nReturned, tojson(res));
}

function defaultVerbosityIsAllPlansExecution() {
    const res = assert.commandWorked(db.runCommand(
        {explain: {aggregate: coll.getName(), pipeline: [{$project: {b: 1}}], cursor: {}}}));
    assert(res.stages, tojson(res));
    assert(res.stages[0].$cursor.executionStats.allPlansExecution, tojson(res));
    assert.eq(50, res.stages[1].nReturned, tojson(res));
}

setUp();
stagesCarryCounts();
pushedDownPipelineLooksLikeFind();
defaultVerbosityIsAllPlansExecution();
