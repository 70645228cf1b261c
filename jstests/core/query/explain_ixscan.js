/**
 * explain("executionStats") of an equality query on an indexed field shows
 * IXSCAN under FETCH with totalDocsExamined == nReturned; without the index it is a COLLSCAN.
 */
const coll = db[jsTestName()];

function stages(plan) {
    const out = [];
    (function walk(p) {
        if (!p || typeof p !== "object") return;
        if (p.stage) out.push(p.stage);
        walk(p.inputStage);
        walk(p.queryPlan);
        (p.inputStages || []).forEach(walk);
    })(plan);
    return out;
}

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 100; i++) {
        docs.push({_id: i, a: i % 50, pad: "x"});
    }
    assert.commandWorked(coll.insertMany(docs));
}

function collectionScanWithoutIndex() {
    const res = coll.find({a: 7}).explain("executionStats");
    assert.includes(stages(res.queryPlanner.winningPlan), "COLLSCAN");
    assert.eq(2, res.executionStats.nReturned);
    assert.eq(100, res.executionStats.totalDocsExamined);
}

function equalityOnIndexedFieldUsesIxscan() {
    assert.commandWorked(coll.createIndex({a: 1}));
    const res = coll.find({a: 7}).explain("executionStats");
    const names = stages(res.queryPlanner.winningPlan);
    assert.includes(names, "IXSCAN");
    assert.includes(names, "FETCH");
    assert.eq(2, res.executionStats.nReturned);
    assert.eq(res.executionStats.nReturned, res.executionStats.totalDocsExamined);
    assert.eq(2, res.executionStats.totalKeysExamined);
}

function explainCommandForm() {
    const res = assert.commandWorked(
        db.runCommand({explain: {find: coll.getName(), filter: {a: 3}}, verbosity: "executionStats"}));
    assert.includes(stages(res.queryPlanner.winningPlan), "IXSCAN");
    assert.eq(res.executionStats.nReturned, res.executionStats.totalDocsExamined);
}

runScenarios(setUp, collectionScanWithoutIndex, equalityOnIndexedFieldUsesIxscan, explainCommandForm);
