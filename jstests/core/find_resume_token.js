/**
 * find with $_requestResumeToken (a collection scan in natural order) reports
 * postBatchResumeToken {$recordId} after every batch; $_resumeAfter continues after that
 * record, KeyNotFound when it is gone; a token of the wrong record id type is 7738600
 * (clustered collections use binary record ids); on a view both options are refused
 * (InvalidPipelineOperator), as an aggregate cannot take them.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 10; i++)
        docs.push({_id: i, x: i});
    assert.commandWorked(coll.insertMany(docs));
}

function find(extra) {
    return db.runCommand(Object.assign({find: coll.getName(), hint: {$natural: 1}}, extra));
}

function resumeAcrossFinds() {
    setUp();
    let res = assert.commandWorked(find({batchSize: 3, $_requestResumeToken: true}));
    assert.eq([0, 1, 2], res.cursor.firstBatch.map(d => d._id));
    const token = res.cursor.postBatchResumeToken;
    assert.eq("Long", token.$recordId._bsontype, tojson(token));
    // A getMore moves the token on.
    const more = assert.commandWorked(
        db.runCommand({getMore: res.cursor.id, collection: coll.getName(), batchSize: 2}));
    assert.eq([3, 4], more.cursor.nextBatch.map(d => d._id));
    assert.gt(more.cursor.postBatchResumeToken.$recordId.toNumber(), token.$recordId.toNumber());
    assert.commandWorked(db.runCommand({killCursors: coll.getName(), cursors: [res.cursor.id]}));

    res = assert.commandWorked(find({$_requestResumeToken: true, $_resumeAfter: token}));
    assert.eq([3, 4, 5, 6, 7, 8, 9], res.cursor.firstBatch.map(d => d._id));
    const last = res.cursor.postBatchResumeToken;
    res = assert.commandWorked(find({$_requestResumeToken: true, $_resumeAfter: last}));
    assert.eq([], res.cursor.firstBatch);
    assert.eq({$recordId: null}, res.cursor.postBatchResumeToken);
    assert.commandFailedWithCode(
        find({$_requestResumeToken: true, $_resumeAfter: res.cursor.postBatchResumeToken}),
        ErrorCodes.KeyNotFound);
}

function missingRecord() {
    setUp();
    const res = assert.commandWorked(find({batchSize: 1, $_requestResumeToken: true}));
    assert.commandWorked(coll.remove({_id: 0}));
    assert.commandFailedWithCode(
        find({$_requestResumeToken: true, $_resumeAfter: res.cursor.postBatchResumeToken}),
        ErrorCodes.KeyNotFound);
}

function badRequests() {
    setUp();
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), $_requestResumeToken: true}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({$_resumeAfter: {$recordId: NumberLong(1)}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        find({$_requestResumeToken: true, $_resumeAfter: {$recordId: BinData(0, "AAAAAAAAAAE=")}}),
        7738600);
    assert.commandFailedWithCode(
        find({$_requestResumeToken: true, $_resumeAfter: {x: NumberLong(1)}}), ErrorCodes.BadValue);
    // Without the request, no token.
    assert.eq(undefined, assert.commandWorked(find({})).cursor.postBatchResumeToken);
}

function clusteredAndTimeseries() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t"}}));
    assert.commandWorked(ts.insert([{t: ISODate(), v: 1}, {t: ISODate(), v: 2}]));
    const buckets = db["system.buckets." + ts.getName()];
    const res = assert.commandWorked(db.runCommand(
        {find: buckets.getName(), hint: {$natural: 1}, batchSize: 1, $_requestResumeToken: true}));
    assert.eq(1, res.cursor.firstBatch.length);
    const token = res.cursor.postBatchResumeToken;
    assert.eq("Binary", token.$recordId._bsontype, tojson(token));
    const after = assert.commandWorked(db.runCommand({
        find: buckets.getName(),
        hint: {$natural: 1},
        $_requestResumeToken: true,
        $_resumeAfter: token
    }));
    assert.eq([], after.cursor.firstBatch);
    assert.commandFailedWithCode(db.runCommand({
        find: buckets.getName(),
        hint: {$natural: 1},
        $_requestResumeToken: true,
        $_resumeAfter: {$recordId: NumberLong(10)}
    }),
                                 7738600);
    assert.commandFailedWithCode(db.runCommand({
        find: ts.getName(),
        hint: {$natural: 1},
        $_requestResumeToken: true,
        $_resumeAfter: token
    }),
                                 ErrorCodes.InvalidPipelineOperator);
}

runScenarios(resumeAcrossFinds, missingRecord, badRequests, clusteredAndTimeseries);
