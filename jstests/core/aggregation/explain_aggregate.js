/**
 * aggregate with explain: true: a pipeline fully pushed into the find layer
 * answers with queryPlanner; otherwise with stages [{$cursor: {queryPlanner}}, ...].
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{a: 1}, {a: 2}, {a: 3}]));
    assert.commandWorked(coll.createIndex({a: 1}));
}

function pushedDownPipeline() {
    const res = assert.commandWorked(db.runCommand(
        {aggregate: coll.getName(), pipeline: [{$match: {a: 2}}, {$sort: {a: 1}}], explain: true}));
    assert.eq("1", res.explainVersion);
    assert(res.queryPlanner, tojson(res));
    assert.eq(db.getName() + "." + coll.getName(), res.queryPlanner.namespace);
    assert(tojson(res.queryPlanner.winningPlan).includes("IXSCAN"), tojson(res));
}

function stagesAfterCursor() {
    const res = assert.commandWorked(db.runCommand({
        aggregate: coll.getName(),
        pipeline: [{$match: {a: {$gte: 2}}}, {$group: {_id: null, n: {$sum: 1}}}],
        explain: true
    }));
    assert(res.stages, tojson(res));
    assert(res.stages[0].$cursor.queryPlanner, tojson(res));
    assert.eq({_id: null, n: {$sum: 1}}, res.stages[1].$group);
}

function explainHelperAndCommand() {
    const res = coll.explain().aggregate([{$group: {_id: "$a"}}]);
    assert(res.stages || res.queryPlanner, tojson(res));
    const viaCmd = assert.commandWorked(db.runCommand(
        {explain: {aggregate: coll.getName(), pipeline: [{$project: {a: 1}}], cursor: {}}}));
    assert(viaCmd.stages || viaCmd.queryPlanner, tojson(viaCmd));
}

function explainDoesNotNeedCursor() {
    assert.commandWorked(db.runCommand({aggregate: coll.getName(), pipeline: [], explain: true}));
}

runScenarios(setUp, pushedDownPipeline, stagesAfterCursor, explainHelperAndCommand,
             explainDoesNotNeedCursor);
