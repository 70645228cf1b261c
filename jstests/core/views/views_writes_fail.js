/**
 * Writes to a view fail with CommandNotSupportedOnView (166).
 */
const src = db[jsTestName() + "_src"];
const viewName = jsTestName() + "_view";

function setUp() {
    db[viewName].drop();
    src.drop();
    assert.commandWorked(src.insert({_id: 1}));
    assert.commandWorked(db.createView(viewName, src.getName(), []));
}

function insertFails() {
    assert.commandFailedWithCode(db.runCommand({insert: viewName, documents: [{_id: 2}]}),
                                 ErrorCodes.CommandNotSupportedOnView);
}

function deleteFails() {
    assert.commandFailedWithCode(
        db.runCommand({delete: viewName, deletes: [{q: {}, limit: 0}]}),
        ErrorCodes.CommandNotSupportedOnView);
}

runScenarios(setUp, insertFails, deleteFails);
