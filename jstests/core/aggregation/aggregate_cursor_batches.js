/**
 * aggregate requires the 'cursor' option (except with explain), honours
 * cursor.batchSize and continues with getMore.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 250; i++) {
        docs.push({_id: i, a: i % 5});
    }
    assert.commandWorked(coll.insertMany(docs));
}

function cursorOptionIsRequired() {
    assert.commandFailedWithCode(db.runCommand({aggregate: coll.getName(), pipeline: []}),
                                 ErrorCodes.FailedToParse);
}

function defaultFirstBatchIs101() {
    const res = assert.commandWorked(
        db.runCommand({aggregate: coll.getName(), pipeline: [], cursor: {}}));
    assert.eq(101, res.cursor.firstBatch.length);
    assert.neq(0, res.cursor.id);
    assert.eq(db.getName() + "." + coll.getName(), res.cursor.ns);
}

function batchSizeAndGetMore() {
    let res = assert.commandWorked(db.runCommand(
        {aggregate: coll.getName(), pipeline: [{$sort: {_id: 1}}], cursor: {batchSize: 100}}));
    assert.eq(100, res.cursor.firstBatch.length);
    const id = res.cursor.id;
    let seen = res.cursor.firstBatch.length;
    while (true) {
        res = assert.commandWorked(
            db.runCommand({getMore: id, collection: coll.getName(), batchSize: 100}));
        seen += res.cursor.nextBatch.length;
        if (res.cursor.id == 0) {
            break;
        }
    }
    assert.eq(250, seen);
}

function batchSizeZeroReturnsEmptyFirstBatch() {
    const res = assert.commandWorked(
        db.runCommand({aggregate: coll.getName(), pipeline: [], cursor: {batchSize: 0}}));
    assert.eq(0, res.cursor.firstBatch.length);
    assert.neq(0, res.cursor.id);
}

function shellHelperReturnsEverything() {
    assert.eq(250, coll.aggregate([]).toArray().length);
    assert.eq(50, coll.aggregate([{$match: {a: 3}}]).itcount());
}

runScenarios(setUp, cursorOptionIsRequired, defaultFirstBatchIs101, batchSizeAndGetMore,
             batchSizeZeroReturnsEmptyFirstBatch, shellHelperReturnsEverything);
