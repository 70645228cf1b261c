/**
 * Bucket documents as seen through system.buckets: one bucket per series, control
 * min/max/count, time rounding of control.min, meta normalisation, rollover on span and on
 * count, and v2 -> v3 when a measurement arrives out of order.
 */
const name = jsTestName();
const coll = db[name];
const buckets = db["system.buckets." + name];
const base = ISODate("2024-01-01T10:17:23.500Z").getTime();

function create(extra) {
    coll.drop();
    assert.commandWorked(db.runCommand(
        {create: name, timeseries: Object.assign({timeField: "t", metaField: "m"}, extra || {})}));
}

function controlFields() {
    create();
    assert.commandWorked(coll.insertMany([
        {_id: 1, t: new Date(base), m: "a", x: 5, y: "b"},
        {_id: 2, t: new Date(base + 1000), m: "a", x: 2, y: "a"},
    ]));
    const b = buckets.find().toArray();
    assert.eq(1, b.length);
    assert.eq(2, b[0].control.version);
    assert.eq(2, b[0].control.count);
    assert.eq("a", b[0].meta);
    // control.min of the time is rounded down to the minute; max is the real maximum.
    assert.eq(ISODate("2024-01-01T10:17:00Z"), b[0].control.min.t);
    assert.eq(new Date(base + 1000), b[0].control.max.t);
    assert.eq(2, b[0].control.min.x);
    assert.eq(5, b[0].control.max.x);
    assert.eq("a", b[0].control.min.y);
    assert.eq(1, b[0].control.min._id);
    assert.eq(2, b[0].control.max._id);
    // The _id's timestamp is the bucket start.
    assert.eq(ISODate("2024-01-01T10:17:00Z"), b[0]._id.getTimestamp());
}

function metaNormalisation() {
    create();
    assert.commandWorked(coll.insertMany([
        {t: new Date(base), m: {b: 1, a: 2}},
        {t: new Date(base), m: {a: 2, b: 1}},
        {t: new Date(base), m: {a: 2, b: NumberLong(1)}},
    ]));
    const b = buckets.find().sort({"control.count": -1}).toArray();
    assert.eq(2, b.length, tojson(b));
    assert.eq(2, b[0].control.count);
    assert.eq(["a", "b"], Object.keys(b[0].meta));
}

function rolloverOnSpan() {
    create();
    assert.commandWorked(coll.insertMany([
        {t: new Date(base), m: 1},
        {t: new Date(base + 3600 * 1000 + 1000), m: 1},  // past start + 3600 s
    ]));
    assert.eq(2, buckets.countDocuments({}));
}

function customRounding() {
    create({bucketMaxSpanSeconds: 1800, bucketRoundingSeconds: 1800});
    assert.commandWorked(coll.insertOne({t: new Date(base), m: 1}));
    assert.eq(ISODate("2024-01-01T10:00:00Z"), buckets.findOne().control.min.t);
}

function rolloverOnCount() {
    create();
    const docs = [];
    for (let i = 0; i < 1001; ++i)
        docs.push({t: new Date(base + i), m: 1});
    assert.commandWorked(coll.insertMany(docs));
    const counts = buckets.find().toArray().map(b => b.control.count).sort((a, b) => a - b);
    assert.eq([1, 1000], counts);
    assert.eq(1001, coll.countDocuments({}));
}

function outOfOrderMakesV3() {
    create();
    assert.commandWorked(coll.insertOne({t: new Date(base + 5000), m: 1, v: 1}));
    assert.eq(2, buckets.findOne().control.version);
    assert.commandWorked(coll.insertOne({t: new Date(base + 1000), m: 1, v: 0}));
    const b = buckets.find().toArray();
    assert.eq(1, b.length);
    assert.eq(3, b[0].control.version);
    assert.eq([0, 1], coll.find().sort({t: 1}).toArray().map(d => d.v));
}

function noMetaField() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t"}}));
    assert.commandWorked(coll.insertMany([{t: new Date(base), a: 1}, {t: new Date(base), a: 2}]));
    const b = buckets.find().toArray();
    assert.eq(1, b.length);
    assert.eq(undefined, b[0].meta);
}

runScenarios(controlFields, metaNormalisation, rolloverOnSpan, customRounding, rolloverOnCount,
             outOfOrderMakesV3, noMetaField);
