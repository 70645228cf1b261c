/**
 * delete removes one (limit: 1) or all (limit: 0) matching documents and
 * reports the number removed in n.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{_id: 1, a: 1}, {_id: 2, a: 1}, {_id: 3, a: 1}, {_id: 4, a: 2}]));
}

function limitOneDeletesASingleMatch() {
    const res = assert.commandWorked(db.runCommand({delete: coll.getName(), deletes: [{q: {a: 1}, limit: 1}]}));
    assert.eq(1, res.n);
    assert.eq(2, coll.countDocuments({a: 1}));
}

function limitZeroDeletesEveryMatch() {
    const res = assert.commandWorked(db.runCommand({delete: coll.getName(), deletes: [{q: {a: 1}, limit: 0}]}));
    assert.eq(2, res.n);
    assert.eq(0, coll.countDocuments({a: 1}));
    assert.eq([{_id: 4, a: 2}], coll.find().toArray());
}

function deleteWithoutMatchReportsZero() {
    const res = assert.commandWorked(db.runCommand({delete: coll.getName(), deletes: [{q: {a: 99}, limit: 0}]}));
    assert.eq(0, res.n);
}

function shellHelpers() {
    assert.commandWorked(coll.insertMany([{_id: 5, b: 1}, {_id: 6, b: 1}, {_id: 7, b: 1}]));
    assert.eq(1, coll.deleteOne({b: 1}).deletedCount);
    assert.eq(2, coll.deleteMany({b: 1}).deletedCount);
    assert.eq(1, coll.deleteMany({}).deletedCount);
    assert.eq(0, coll.countDocuments({}));
}

function deleteOnMissingCollectionSucceeds() {
    const res = assert.commandWorked(
        db.runCommand({delete: "delete_basic_no_such_coll", deletes: [{q: {}, limit: 0}]}));
    assert.eq(0, res.n);
}

runScenarios(
    setUp,
    limitOneDeletesASingleMatch,
    limitZeroDeletesEveryMatch,
    deleteWithoutMatchReportsZero,
    shellHelpers,
    deleteOnMissingCollectionSucceeds,
);
