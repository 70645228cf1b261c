/**
 * find with batchSize leaves a cursor open; getMore returns nextBatch of at
 * most batchSize documents until the cursor id becomes 0. killCursors and
 * getMore on an unknown cursor behave like 8.0.
 */
const coll = db[jsTestName()];
const kNumDocs = 10;

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < kNumDocs; i++) docs.push({_id: i});
    assert.commandWorked(coll.insertMany(docs));
}

function iterateInBatches() {
    let res = assert.commandWorked(db.runCommand({find: coll.getName(), sort: {_id: 1}, batchSize: 2}));
    assert.eq([{_id: 0}, {_id: 1}], res.cursor.firstBatch);
    assert.neq(0, res.cursor.id);
    const cursorId = res.cursor.id;
    const seen = res.cursor.firstBatch.map((d) => d._id);

    // 2 + 3 + 3 = 8 documents, then the last 2 in a short batch that closes the cursor.
    const expectedBatchSizes = [3, 3, 2];
    for (const expected of expectedBatchSizes) {
        res = assert.commandWorked(
            db.runCommand({getMore: cursorId, collection: coll.getName(), batchSize: 3}));
        assert.eq(coll.getFullName(), res.cursor.ns);
        assert.eq(expected, res.cursor.nextBatch.length, tojson(res));
        res.cursor.nextBatch.forEach((d) => seen.push(d._id));
        if (expected < 3) {
            assert.eq(0, res.cursor.id);
        } else {
            assert.eq(cursorId, res.cursor.id);
        }
    }
    assert.eq([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], seen);

    // The exhausted cursor is gone.
    assert.commandFailedWithCode(db.runCommand({getMore: cursorId, collection: coll.getName()}),
                                 ErrorCodes.CursorNotFound);
}

function batchSizeZeroReturnsEmptyFirstBatch() {
    const res = assert.commandWorked(db.runCommand({find: coll.getName(), batchSize: 0}));
    assert.eq([], res.cursor.firstBatch);
    assert.neq(0, res.cursor.id);
    const more = assert.commandWorked(db.runCommand({getMore: res.cursor.id, collection: coll.getName()}));
    assert.eq(kNumDocs, more.cursor.nextBatch.length);
    assert.eq(0, more.cursor.id);
}

function killCursorsReply() {
    const res = assert.commandWorked(db.runCommand({find: coll.getName(), batchSize: 1}));
    const id = res.cursor.id;
    const killed = assert.commandWorked(db.runCommand({killCursors: coll.getName(), cursors: [id]}));
    assert.eq([id], killed.cursorsKilled);
    assert.eq([], killed.cursorsNotFound);
    assert.eq([], killed.cursorsAlive);
    assert.eq([], killed.cursorsUnknown);
    assert.commandFailedWithCode(db.runCommand({getMore: id, collection: coll.getName()}),
                                 ErrorCodes.CursorNotFound);
}

function shellCursorIteratesAcrossBatches() {
    assert.eq(kNumDocs, coll.find().batchSize(3).toArray().length);
}

runScenarios(
    setUp,
    iterateInBatches,
    batchSizeZeroReturnsEmptyFirstBatch,
    killCursorsReply,
    shellCursorIteratesAcrossBatches,
);
