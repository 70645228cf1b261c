/**
 * The legacy-style helpers coll.insert / update / remove (jstests/libs/shell_compat.js)
 * report server counts as WriteResult fields and surface write errors such as
 * DuplicateKey without throwing.
 */
const coll = db[jsTestName()];

function insertReportsNInserted() {
    coll.drop();
    const doc = {a: 1};
    const res = assert.commandWorked(coll.insert(doc));
    assert.eq(1, res.nInserted);
    assert(doc._id, "insert adds an _id to the caller's document");
    assert.eq(3, coll.insert([{_id: 1}, {_id: 2}, {_id: 3}]).nInserted);
}

function duplicateKeyIsAWriteError() {
    const res = coll.insert({_id: 1});
    assert.writeErrorWithCode(res, ErrorCodes.DuplicateKey);
    assert.commandFailedWithCode(res, ErrorCodes.DuplicateKey);
    assert.eq(0, res.nInserted);
    assert.eq(0, res.getWriteError().index);
}

function updateCounts() {
    let res = assert.commandWorked(coll.update({_id: {$in: [1, 2]}}, {$set: {x: 1}}, {multi: true}));
    assert.eq(2, res.nMatched);
    assert.eq(2, res.nModified);
    res = assert.commandWorked(coll.update({_id: 1}, {$set: {x: 1}}));
    assert.eq(1, res.nMatched);
    assert.eq(0, res.nModified);
    res = assert.commandWorked(coll.update({_id: 42}, {$set: {x: 2}}, true));
    assert.eq(1, res.nUpserted);
    assert.eq(0, res.nMatched);
    assert.eq(42, res._id);
}

function removeCounts() {
    assert.eq(1, assert.commandWorked(coll.remove({x: 1}, true)).nRemoved);
    assert.eq(2, assert.commandWorked(coll.remove({x: {$exists: true}})).nRemoved);
    assert.eq(2, coll.countDocuments({}));
}

runScenarios(
    insertReportsNInserted,
    duplicateKeyIsAWriteError,
    updateCounts,
    removeCounts,
);
coll.drop();
