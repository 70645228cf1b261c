/**
 * findAndModify on a time-series view: remove and update one measurement (pre/post image,
 * projection), upsert, a pipeline update, sort and update stages other than $set-like ones
 * rejected with InvalidOptions.
 */
const coll = db[jsTestName()];
const t0 = ISODate("2024-03-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 6; ++i)
        docs.push({_id: i, t: new Date(t0 + i * 1000), m: i % 2, v: i});
    assert.commandWorked(coll.insertMany(docs));
}

function famRemove() {
    setUp();
    const res = assert.commandWorked(db.runCommand({findAndModify: coll.getName(), query: {v: 3}, remove: true}));
    assert.eq(1, res.lastErrorObject.n);
    assert.eq(3, res.value._id);
    assert.eq(3, res.value.v);
    assert.eq(1, res.value.m);
    assert.eq(5, coll.countDocuments({}));
    const none = assert.commandWorked(db.runCommand({findAndModify: coll.getName(), query: {v: 30}, remove: true}));
    assert.eq(0, none.lastErrorObject.n);
    assert.eq(null, none.value);
}

function famUpdate() {
    setUp();
    let res = assert.commandWorked(db.runCommand({findAndModify: coll.getName(), query: {v: 2}, update: {$set: {v: 20}}}));
    assert.eq(2, res.value.v);
    assert.eq(true, res.lastErrorObject.updatedExisting);
    res = assert.commandWorked(db.runCommand({findAndModify: coll.getName(), query: {v: 4}, update: {$set: {v: 40}},
                                              new: true, fields: {_id: 0, v: 1}}));
    assert.eq({v: 40}, res.value);
    assert.eq([0, 1, 3, 5, 20, 40], coll.find().toArray().map(d => d.v).sort((a, b) => a - b));
}

function famUpsert() {
    setUp();
    const t = new Date(t0 + 99);
    const res = assert.commandWorked(db.runCommand({findAndModify: coll.getName(), query: {_id: "x", t: t, m: 5},
                                                    update: {$set: {v: 1}}, upsert: true, new: true}));
    assert.eq("x", res.lastErrorObject.upserted);
    assert.eq(false, res.lastErrorObject.updatedExisting);
    assert.eq(1, res.value.v);
    assert.eq(1, coll.countDocuments({_id: "x", m: 5}));
}

function famPipelineUpdate() {
    setUp();
    const res = assert.commandWorked(db.runCommand({findAndModify: coll.getName(), query: {v: 3},
                                                    update: [{$set: {w: {$multiply: ["$v", "$$k"]}}}],
                                                    let: {k: 10}, new: true}));
    assert.eq(30, res.value.w);
    assert.eq(3, res.value.v);
    assert.eq(1, coll.countDocuments({w: 30, _id: 3}));
}

function famErrors() {
    setUp();
    assert.commandFailedWithCode(db.runCommand({findAndModify: coll.getName(), query: {}, sort: {v: 1}, remove: true}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({findAndModify: coll.getName(), query: {}, update: [{$sort: {v: 1}}]}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({findAndModify: coll.getName(), query: {v: 1}, update: {$unset: {t: 1}}}),
                                 ErrorCodes.BadValue);
    assert.eq(6, coll.countDocuments({}));
}

runScenarios(famRemove, famUpdate, famUpsert, famPipelineUpdate, famErrors);
