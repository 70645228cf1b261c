/**
 * findAndModify updates, upserts or removes one document and replies with
 * value (pre- or post-image) and lastErrorObject like 8.0.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{_id: 1, a: 1}, {_id: 2, a: 2}]));
}

function updateReturnsPreImageByDefault() {
    const res = assert.commandWorked(
        db.runCommand({findAndModify: coll.getName(), query: {_id: 1}, update: {$inc: {a: 10}}}));
    assert.docEq({_id: 1, a: 1}, res.value);
    assert.docEq({n: 1, updatedExisting: true}, res.lastErrorObject);
    assert.docEq({_id: 1, a: 11}, coll.findOne({_id: 1}));
}

function updateWithNewReturnsPostImage() {
    const res = assert.commandWorked(db.runCommand(
        {findAndModify: coll.getName(), query: {_id: 2}, update: {$set: {b: 1}}, new: true}));
    assert.docEq({_id: 2, a: 2, b: 1}, res.value);
}

function sortPicksTheDocument() {
    const res = assert.commandWorked(db.runCommand(
        {findAndModify: coll.getName(), query: {}, sort: {a: -1}, update: {$set: {top: true}}, new: true}));
    assert.eq(1, res.value._id);  // a: 11 is the largest
}

function upsertCreatesDocument() {
    const res = assert.commandWorked(db.runCommand({
        findAndModify: coll.getName(),
        query: {_id: 3},
        update: {$set: {a: 3}},
        upsert: true,
        new: true,
    }));
    assert.docEq({_id: 3, a: 3}, res.value);
    assert.docEq({n: 1, updatedExisting: false, upserted: 3}, res.lastErrorObject);
}

function noMatchReturnsNull() {
    const res = assert.commandWorked(
        db.runCommand({findAndModify: coll.getName(), query: {_id: 99}, update: {$set: {a: 1}}}));
    assert.eq(null, res.value);
    assert.docEq({n: 0, updatedExisting: false}, res.lastErrorObject);
}

function removeReturnsRemovedDocument() {
    const res = assert.commandWorked(
        db.runCommand({findAndModify: coll.getName(), query: {_id: 3}, remove: true}));
    assert.docEq({_id: 3, a: 3}, res.value);
    assert.docEq({n: 1}, res.lastErrorObject);
    assert.eq(null, coll.findOne({_id: 3}));
}

function shellHelpers() {
    const before = coll.findOneAndUpdate({_id: 2}, {$inc: {a: 1}});
    assert.eq(2, before.a);
    const after = coll.findOneAndUpdate({_id: 2}, {$inc: {a: 1}}, {returnDocument: "after"});
    assert.eq(4, after.a);
    assert.eq(4, coll.findOneAndDelete({_id: 2}).a);
}

function removeWithUpdateIsRejected() {
    assert.commandFailed(db.runCommand(
        {findAndModify: coll.getName(), query: {_id: 1}, remove: true, update: {$set: {a: 1}}}));
}

// "a.$" in `fields` projects the element the query matched; collation {} is no collation.
function positionalProjectionAndEmptyCollation() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, arr: [{s: "x"}, {s: "y"}]}));
    const res = assert.commandWorked(db.runCommand({
        findAndModify: coll.getName(),
        query: {_id: 1, arr: {$elemMatch: {s: "y"}}},
        fields: {"arr.$": 1},
        update: {$set: {u: 1}},
        new: true,
        collation: {},
    }));
    assert.eq({_id: 1, arr: [{s: "y"}]}, res.value);
    assert.eq(1, coll.find({_id: 1}).collation({}).itcount());
}

runScenarios(
    setUp,
    updateReturnsPreImageByDefault,
    updateWithNewReturnsPostImage,
    sortPicksTheDocument,
    upsertCreatesDocument,
    noMatchReturnsNull,
    removeReturnsRemovedDocument,
    shellHelpers,
    removeWithUpdateIsRejected,
    positionalProjectionAndEmptyCollation,
);

// explain applies the command's option rules too.
assert.commandFailedWithCode(
    db.runCommand({explain: {findAndModify: "find_and_modify_explain_rules", query: {}, remove: true,
                             update: {$set: {a: 1}}}}),
    ErrorCodes.FailedToParse);
assert.commandFailedWithCode(
    db.runCommand({explain: {findAndModify: "find_and_modify_explain_rules", query: {}, remove: true,
                             upsert: true}}),
    ErrorCodes.FailedToParse);
