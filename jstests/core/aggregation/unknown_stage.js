/**
 * Malformed pipelines fail with upstream's codes: an unknown stage name is 40324,
 * a stage object with more than one field is 40323, an unknown expression 168.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({a: 1}));
}

function unknownStage() {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$foo: {}}], cursor: {}}), 40324);
}

function stageWithTwoFields() {
    assert.commandFailedWithCode(
        db.runCommand(
            {aggregate: coll.getName(), pipeline: [{$match: {}, $limit: 1}], cursor: {}}),
        40323);
}

function unknownExpression() {
    // In $project an unknown operator as the whole value is the projection's 31325 (as
    // upstream); as an expression ($addFields, inside another operator) it is 168.
    assert.commandFailedWithCode(
        db.runCommand(
            {aggregate: coll.getName(), pipeline: [{$project: {x: {$nope: 1}}}], cursor: {}}),
        31325);
    assert.commandFailedWithCode(
        db.runCommand(
            {aggregate: coll.getName(), pipeline: [{$addFields: {x: {$nope: 1}}}], cursor: {}}),
        ErrorCodes.InvalidPipelineOperator);
}

function badStageOnMissingCollectionStillFails() {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: "no_such_collection_xyz", pipeline: [{$foo: 1}], cursor: {}}),
        40324);
}

runScenarios(setUp, unknownStage, stageWithTwoFields, unknownExpression,
             badStageOnMissingCollectionStillFails);
