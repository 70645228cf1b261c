/**
 * Views can be defined on views; the pipelines run innermost first. collMod can
 * replace a view's viewOn and pipeline. Cycles are refused.
 */
const src = db[jsTestName() + "_src"];
const v1 = jsTestName() + "_v1";
const v2 = jsTestName() + "_v2";

function setUp() {
    db[v2].drop();
    db[v1].drop();
    src.drop();
    assert.commandWorked(src.insertMany([{_id: 1, a: 1}, {_id: 2, a: 2}, {_id: 3, a: 3}]));
    assert.commandWorked(db.createView(v1, src.getName(), [{$match: {a: {$gte: 2}}}]));
    assert.commandWorked(db.createView(v2, v1, [{$project: {_id: 1, b: {$multiply: ["$a", 10]}}}]));
}

function readThroughTwoViews() {
    assert.eq([{_id: 2, b: 20}, {_id: 3, b: 30}], db[v2].find().sort({_id: 1}).toArray());
}

function collModReplacesPipeline() {
    assert.commandWorked(
        db.runCommand({collMod: v1, viewOn: src.getName(), pipeline: [{$match: {a: 1}}]}));
    assert.eq([{_id: 1, b: 10}], db[v2].find().toArray());
}

function cycleRefused() {
    assert.commandFailedWithCode(
        db.runCommand({collMod: v1, viewOn: v2, pipeline: []}), ErrorCodes.GraphContainsCycle);
}

function createExistingNameFails() {
    assert.commandFailedWithCode(db.runCommand({create: v1, viewOn: src.getName(), pipeline: [{$match: {a: 2}}]}),
                                 ErrorCodes.NamespaceExists);
    assert.commandFailedWithCode(db.runCommand({create: src.getName(), viewOn: v1, pipeline: []}),
                                 ErrorCodes.NamespaceExists);
}

function badPipelineRefused() {
    assert.commandFailedWithCode(
        db.runCommand({create: jsTestName() + "_bad", viewOn: src.getName(), pipeline: [{$bogus: 1}]}),
        40324);
}

runScenarios(setUp, readThroughTwoViews, collModReplacesPipeline, cycleRefused,
             createExistingNameFails, badPipelineRefused);
