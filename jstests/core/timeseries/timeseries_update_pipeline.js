/**
 * Pipeline-style updates of measurements through a time-series view (spec §6.4): the stages
 * see the whole measurement (time, meta, fields), `let` and `c` variables; changed
 * measurements move to new buckets; a pipeline that removes the time field or makes it a
 * non-date is BadValue and changes nothing; upserts run the pipeline over the query's
 * equalities.
 */
const coll = db[jsTestName()];
const buckets = db["system.buckets." + jsTestName()];
const t0 = ISODate("2024-05-01T00:00:00Z").getTime();

function setUp(n) {
    coll.drop();
    assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < n; ++i)
        docs.push({_id: i, t: new Date(t0 + i * 1000), m: {host: "h" + (i % 2)}, v: i});
    assert.commandWorked(coll.insertMany(docs));
}

function all() {
    return coll.find().sort({_id: 1}).toArray();
}

function multiPipelineReadsFieldsAndMeta() {
    setUp(6);
    const res = assert.commandWorked(db.runCommand({
        update: coll.getName(),
        updates: [{q: {"m.host": "h1"}, u: [{$set: {label: {$concat: ["$m.host", "-", {$toString: "$v"}]}}},
                                              {$set: {v: {$multiply: ["$v", "$$k"]}}}],
                   multi: true, c: {k: 100}}],
    }));
    assert.eq(3, res.n);
    assert.eq(3, res.nModified);
    const docs = all();
    assert.eq([0, 100, 2, 300, 4, 500], docs.map(d => d.v));
    assert.eq(["h1-1", "h1-3", "h1-5"], docs.filter(d => d.label).map(d => d.label));
    assert.eq(6, docs.length);
    // Every measurement is still in exactly one bucket.
    const counts = buckets.find().toArray().map(b => b.control.count);
    assert.eq(6, counts.reduce((a, b) => a + b, 0));
}

function oneMeasurementWithLet() {
    setUp(4);
    const res = assert.commandWorked(db.runCommand({
        update: coll.getName(),
        updates: [{q: {v: {$gte: 1}}, u: [{$set: {w: "$$tag"}}], multi: false}],
        let: {tag: "only-one"},
    }));
    assert.eq(1, res.nModified);
    assert.eq(1, coll.countDocuments({w: "only-one"}));
}

function pipelineMayMoveMeasurementInTime() {
    setUp(3);
    assert.commandWorked(coll.updateOne({_id: 1}, [{$set: {t: {$dateAdd: {startDate: "$t", unit: "hour", amount: 5}}}}]));
    assert.eq(new Date(t0 + 1000 + 5 * 3600 * 1000), coll.findOne({_id: 1}).t);
    assert.eq(3, coll.countDocuments({}));
}

function timeRemovedOrNotADateIsBadValue() {
    setUp(3);
    const before = all();
    let res = db.runCommand({update: coll.getName(), updates: [{q: {}, u: [{$unset: "t"}], multi: true}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    res = db.runCommand({update: coll.getName(), updates: [{q: {_id: 2}, u: [{$set: {t: "$v"}}]}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    res = db.runCommand({update: coll.getName(), updates: [{q: {_id: 2}, u: [{$project: {v: 1}}]}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    assert.eq(before, all());
}

function upsertRunsPipelineOverQueryEqualities() {
    setUp(2);
    const t = new Date(t0 + 50000);
    const res = assert.commandWorked(db.runCommand({
        update: coll.getName(),
        updates: [{q: {t: t, m: {host: "new"}}, u: [{$set: {v: 42, host: "$m.host"}}], upsert: true}],
    }));
    assert.eq(1, res.upserted.length);
    const doc = coll.findOne({v: 42});
    assert.eq(t, doc.t);
    assert.eq("new", doc.host);
    assert.eq(3, coll.countDocuments({}));
}

function refusedStage() {
    setUp(2);
    const res = db.runCommand({update: coll.getName(), updates: [{q: {}, u: [{$group: {_id: "$m"}}], multi: true}]});
    assert.eq(ErrorCodes.InvalidOptions, res.writeErrors[0].code);
}

runScenarios(multiPipelineReadsFieldsAndMeta, oneMeasurementWithLet, pipelineMayMoveMeasurementInTime,
             timeRemovedOrNotADateIsBadValue, upsertRunsPipelineOverQueryEqualities, refusedStage);
