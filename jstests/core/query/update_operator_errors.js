/**
 * Update errors carry upstream codes: ConflictingUpdateOperators (40),
 * ImmutableField (66), TypeMismatch (14), FailedToParse (9) and BadValue (2).
 */
const coll = db[jsTestName()];

function updateFails(u, code) {
    assert.commandFailedWithCode(db.runCommand({update: coll.getName(), updates: [{q: {_id: 1}, u: u}]}), code);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, a: 1, s: "str", arr: [1], o: {p: 1}}));
}

function conflictingPaths() {
    updateFails({$set: {a: 1}, $inc: {a: 1}}, ErrorCodes.ConflictingUpdateOperators);
    updateFails({$set: {"o.p": 1}, $unset: {o: 1}}, ErrorCodes.ConflictingUpdateOperators);
    updateFails({$set: {o: 1, "o.q": 1}}, ErrorCodes.ConflictingUpdateOperators);
    updateFails({$rename: {a: "b"}, $set: {b: 1}}, ErrorCodes.ConflictingUpdateOperators);
}

function immutableId() {
    updateFails({$set: {_id: 2}}, ErrorCodes.ImmutableField);
    updateFails({$unset: {_id: 1}}, ErrorCodes.ImmutableField);
    assert.commandFailedWithCode(
        db.runCommand({update: coll.getName(), updates: [{q: {_id: 1}, u: {_id: 5, a: 1}}]}),
        ErrorCodes.ImmutableField);
}

function typeErrors() {
    updateFails({$inc: {s: 1}}, ErrorCodes.TypeMismatch);
    updateFails({$mul: {s: 2}}, ErrorCodes.TypeMismatch);
    updateFails({$push: {a: 1}}, ErrorCodes.BadValue);
}

function malformedModifiers() {
    updateFails({$foo: {a: 1}}, ErrorCodes.FailedToParse);
    updateFails({$pop: {arr: 2}}, ErrorCodes.FailedToParse);
    updateFails({$rename: {a: "a"}}, ErrorCodes.BadValue);
}

function documentUnchanged() {
    assert.docEq({_id: 1, a: 1, s: "str", arr: [1], o: {p: 1}}, coll.findOne({_id: 1}));
}

runScenarios(setUp, conflictingPaths, immutableId, typeErrors, malformedModifiers, documentUnchanged);
