/**
 * The explain command: its own fields are checked (an unknown one is IDLUnknownField, generic
 * arguments pass), every verbosity answers with the explained command under `command`, and
 * findAndModify, distinct and executionStats of writes are explained without writing.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert([{_id: 0, a: 1}, {_id: 1, a: 2}]));
}

function explain(cmd, verbosity) {
    return assert.commandWorked(db.runCommand({explain: cmd, verbosity: verbosity}));
}

function fieldsChecked() {
    setUp();
    assert.commandFailedWithCode(
        db.runCommand({explain: {find: coll.getName()}, unknownField: true}),
        ErrorCodes.IDLUnknownField);
    assert.commandWorked(db.runCommand({explain: {find: coll.getName()}, comment: "c", maxTimeMS: 1000}));
}

function commandEchoed() {
    setUp();
    const cmds = [
        {find: coll.getName(), filter: {_id: 1}},
        {aggregate: coll.getName(), pipeline: [{$match: {_id: 1}}], cursor: {}},
        {findAndModify: coll.getName(), query: {_id: 1}, update: {$set: {b: 1}}},
        {findAndModify: coll.getName(), query: {_id: 1}, remove: true},
        {distinct: coll.getName(), key: "a", query: {a: {$gt: 0}}},
        {count: coll.getName(), query: {_id: 1}},
    ];
    for (const cmd of cmds) {
        for (const v of ["queryPlanner", "executionStats", "allPlansExecution"]) {
            const res = explain(cmd, v);
            assert.eq(cmd[Object.keys(cmd)[0]], res.command[Object.keys(cmd)[0]], tojson(res));
        }
    }
}

function writesNotApplied() {
    setUp();
    let res = explain({delete: coll.getName(), deletes: [{q: {a: 1}, limit: 0}]}, "executionStats");
    assert("executionStats" in res, tojson(res));
    res = explain({update: coll.getName(), updates: [{q: {a: 1}, u: {$set: {a: 5}}}]}, "executionStats");
    assert("executionStats" in res, tojson(res));
    explain({findAndModify: coll.getName(), query: {_id: 1}, remove: true}, "executionStats");
    assert.eq([{_id: 0, a: 1}, {_id: 1, a: 2}], coll.find().sort({_id: 1}).toArray());
}

function missingCollection() {
    const missing = db[jsTestName() + "_missing"];
    missing.drop();
    const res = explain({delete: missing.getName(), deletes: [{q: {a: 1}, limit: 0}]}, "executionStats");
    assert.eq(0, res.executionStats.nReturned, tojson(res));
}

runScenarios(fieldsChecked, commandEchoed, writesNotApplied, missingCollection);
