/**
 * insertMany of 10,000 documents is acknowledged in full and every document
 * is counted and findable afterwards.
 */
const coll = db[jsTestName()];
const kNumDocs = 10000;

function insertTenThousand() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < kNumDocs; i++) {
        docs.push({_id: i, x: i, pad: "p".repeat(50)});
    }
    const res = coll.insertMany(docs);
    assert.eq(true, res.acknowledged);
    assert.eq(kNumDocs, Object.keys(res.insertedIds).length);
}

function countsMatch() {
    assert.eq(kNumDocs, coll.countDocuments({}));
    assert.eq(100, coll.countDocuments({x: {$lt: 100}}));
    assert.commandWorked(db.runCommand({count: coll.getName()}));
    assert.eq(kNumDocs, db.runCommand({count: coll.getName()}).n);
}

function everyDocumentIsReadable() {
    const ids = coll.find({}, {_id: 1}).toArray().map((d) => d._id);
    assert.eq(kNumDocs, ids.length);
    ids.sort((a, b) => a - b);
    for (let i = 0; i < kNumDocs; i++) {
        if (ids[i] !== i) {
            assert.eq(i, ids[i], "missing or duplicated _id");
        }
    }
    assert.docEq({_id: 9999, x: 9999}, coll.findOne({_id: 9999}, {pad: 0}));
}

function rawInsertReply() {
    const res = assert.commandWorked(
        db.runCommand({insert: coll.getName(), documents: [{_id: "a"}, {_id: "b"}]}));
    assert.eq(2, res.n);
    assert.eq(undefined, res.writeErrors);
}

runScenarios(
    insertTenThousand,
    countsMatch,
    everyDocumentIsReadable,
    rawInsertReply,
);
coll.drop();
