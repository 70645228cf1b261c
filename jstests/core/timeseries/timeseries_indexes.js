/**
 * Indexes through the time-series view (spec §4): the default {m: 1, t: 1} index, user keys
 * translated to bucket keys, listIndexes showing user-shaped specs, dropIndexes by name and
 * by user key, and index errors.
 */
const name = jsTestName();
const coll = db[name];
const buckets = db["system.buckets." + name];

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
}

function userIndexes() {
    return assert.commandWorked(db.runCommand({listIndexes: name})).cursor.firstBatch;
}

function defaultIndex() {
    setUp();
    const idx = userIndexes();
    assert.eq(1, idx.length, tojson(idx));
    assert.docEq({m: 1, t: 1}, idx[0].key);
    assert.eq("m_1_t_1", idx[0].name);
    const raw = assert.commandWorked(db.runCommand({listIndexes: buckets.getName()})).cursor.firstBatch;
    const def = raw.find(i => i.name === "m_1_t_1");
    assert.docEq({meta: 1, "control.min.t": 1, "control.max.t": 1}, def.key);
}

function createTranslated() {
    setUp();
    assert.commandWorked(db.runCommand({createIndexes: name, indexes: [
        {key: {"m.host": 1, t: -1}, name: "host_t"},
        {key: {x: 1}, name: "x_1"},
    ]}));
    const raw = assert.commandWorked(db.runCommand({listIndexes: buckets.getName()})).cursor.firstBatch;
    assert.docEq({"meta.host": 1, "control.max.t": -1, "control.min.t": -1},
                 raw.find(i => i.name === "host_t").key);
    assert.docEq({"control.min.x": 1, "control.max.x": 1}, raw.find(i => i.name === "x_1").key);
    const user = userIndexes();
    assert.docEq({"m.host": 1, t: -1}, user.find(i => i.name === "host_t").key);
    assert.docEq({x: 1}, user.find(i => i.name === "x_1").key);
}

function dropByKeyAndName() {
    setUp();
    assert.commandWorked(db.runCommand({createIndexes: name, indexes: [{key: {x: 1}, name: "x_1"}]}));
    assert.commandWorked(db.runCommand({dropIndexes: name, index: {x: 1}}));
    assert.commandWorked(db.runCommand({dropIndexes: name, index: "m_1_t_1"}));
    assert.eq([], userIndexes());
    assert.commandFailedWithCode(db.runCommand({dropIndexes: name, index: {y: 1}}),
                                 ErrorCodes.IndexNotFound);
}

function invalidIndexes() {
    setUp();
    assert.commandFailedWithCode(
        db.runCommand({createIndexes: name, indexes: [{key: {x: 1}, name: "u", unique: true}]}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({createIndexes: name, indexes: [{key: {x: "text"}, name: "txt"}]}),
        ErrorCodes.InvalidOptions);
}

function queriesStillWork() {
    setUp();
    assert.commandWorked(db.runCommand({createIndexes: name, indexes: [{key: {x: 1}, name: "x_1"}]}));
    assert.commandWorked(coll.insertMany([{t: new Date(), m: 1, x: 1}, {t: new Date(), m: 2, x: 2}]));
    assert.eq(1, coll.find({x: 2}).itcount());
}

runScenarios(defaultIndex, createTranslated, dropByKeyAndName, invalidIndexes, queriesStillWork);
