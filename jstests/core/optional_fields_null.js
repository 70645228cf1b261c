/**
 * An optional command field given as null is "not present", as upstream's IDL parsers do
 * (delete/update/find/aggregate with `let: null` and friends); a required field given as
 * null, or an optional field of the wrong non-null type, is still refused.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert([{_id: 1, a: 1}, {_id: 2, a: 2}, {_id: 3, a: 3}]));
}

function deleteWithNullLet() {
    const res = assert.commandWorked(db.runCommand(
        {delete: coll.getName(), deletes: [{q: {_id: 1}, limit: 1, collation: null}], let: null}));
    assert.eq(1, res.n);
}

function updateWithNullOptionalFields() {
    const res = assert.commandWorked(db.runCommand({
        update: coll.getName(),
        updates: [{q: {_id: 2}, u: {$set: {b: 1}}, upsert: null, multi: null}],
        let: null,
        ordered: null,
    }));
    assert.eq(1, res.nModified);
}

function findAndAggregateWithNullOptionalFields() {
    let res = assert.commandWorked(db.runCommand(
        {find: coll.getName(), filter: null, sort: null, projection: null, let: null, limit: null}));
    assert.eq(2, res.cursor.firstBatch.length);
    res = assert.commandWorked(
        db.runCommand({aggregate: coll.getName(), pipeline: [], cursor: {}, let: null}));
    assert.eq(2, res.cursor.firstBatch.length);
    res = assert.commandWorked(db.runCommand({count: coll.getName(), query: null}));
    assert.eq(2, res.n);
}

function requiredAndWrongTypesStillFail() {
    assert.commandFailedWithCode(db.runCommand({delete: coll.getName(), deletes: null}),
                                 ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(
        db.runCommand({delete: coll.getName(), deletes: [{q: {}, limit: 0}], let: 5}),
        ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: 5}),
                                 ErrorCodes.TypeMismatch);
}

setUp();
deleteWithNullLet();
updateWithNullOptionalFields();
findAndAggregateWithNullOptionalFields();
requiredAndWrongTypesStillFail();
