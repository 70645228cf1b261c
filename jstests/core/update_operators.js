/**
 * update applies $set, $unset and $inc, upserts when asked, updates every
 * match only with multi:true, and reports n / nModified / upserted like 8.0.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{_id: 1, a: 1, b: 1}, {_id: 2, a: 1, b: 2}, {_id: 3, a: 2}]));
}

function setUnsetInc() {
    const res = assert.commandWorked(db.runCommand(
        {update: coll.getName(), updates: [{q: {_id: 1}, u: {$set: {c: "new"}, $unset: {b: ""}, $inc: {a: 5}}}]}));
    assert.eq(1, res.n);
    assert.eq(1, res.nModified);
    assert.docEq({_id: 1, a: 6, c: "new"}, coll.findOne({_id: 1}));
}

function incCreatesMissingField() {
    assert.commandWorked(coll.updateOne({_id: 3}, {$inc: {counter: 2}}));
    assert.docEq({_id: 3, a: 2, counter: 2}, coll.findOne({_id: 3}));
}

function noOpUpdateMatchesButDoesNotModify() {
    const res = assert.commandWorked(
        db.runCommand({update: coll.getName(), updates: [{q: {_id: 2}, u: {$set: {a: 1}}}]}));
    assert.eq(1, res.n);
    assert.eq(0, res.nModified);
}

function multiFalseUpdatesOneDocument() {
    const res = assert.commandWorked(
        db.runCommand({update: coll.getName(), updates: [{q: {}, u: {$set: {m: 1}}}]}));
    assert.eq(1, res.n);
    assert.eq(1, coll.countDocuments({m: 1}));
}

function multiTrueUpdatesEveryMatch() {
    const res = assert.commandWorked(db.runCommand(
        {update: coll.getName(), updates: [{q: {}, u: {$set: {all: true}}, multi: true}]}));
    assert.eq(3, res.n);
    assert.eq(3, res.nModified);
    const r2 = coll.updateMany({all: true}, {$inc: {hits: 1}});
    assert.eq(3, r2.matchedCount);
    assert.eq(3, r2.modifiedCount);
}

function upsertInsertsWhenNothingMatches() {
    const res = assert.commandWorked(db.runCommand({
        update: coll.getName(),
        updates: [{q: {_id: 10}, u: {$set: {x: 1}}, upsert: true}],
    }));
    assert.eq(1, res.n);
    assert.eq(0, res.nModified);
    assert.eq([{index: 0, _id: 10}], res.upserted);
    assert.docEq({_id: 10, x: 1}, coll.findOne({_id: 10}));

    const r2 = coll.updateOne({k: "fresh"}, {$set: {v: 1}}, {upsert: true});
    assert.eq(1, r2.upsertedCount);
    assert.eq(0, r2.matchedCount);
    const doc = coll.findOne({k: "fresh"});
    assert.eq(1, doc.v);
    assert.eq(r2.insertedId, doc._id);  // mongosh names the upserted id insertedId
}

function replacementDocument() {
    assert.commandWorked(coll.replaceOne({_id: 2}, {z: 9}));
    assert.docEq({_id: 2, z: 9}, coll.findOne({_id: 2}));
}

function invalidUpdatesFail() {
    const target = {update: coll.getName(), updates: [{q: {_id: 1}, u: {$inc: {c: 1}}}]};
    // c is a string, $inc needs a number.
    assert.commandFailedWithCode(db.runCommand(target), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(
        db.runCommand({update: coll.getName(), updates: [{q: {_id: 1}, u: {$set: {a: 1}, $inc: {a: 1}}}]}),
        ErrorCodes.ConflictingUpdateOperators);
    assert.commandFailedWithCode(
        db.runCommand({update: coll.getName(), updates: [{q: {_id: 1}, u: {$set: {_id: 99}}}]}),
        ErrorCodes.ImmutableField);
}

runScenarios(
    setUp,
    setUnsetInc,
    incCreatesMissingField,
    noOpUpdateMatchesButDoesNotModify,
    multiFalseUpdatesOneDocument,
    multiTrueUpdatesEveryMatch,
    upsertInsertsWhenNothingMatches,
    replacementDocument,
    invalidUpdatesFail,
);
