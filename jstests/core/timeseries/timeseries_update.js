/**
 * Updates of measurements through a time-series view (spec §6.4, arbitrary updates on):
 * updateMany/updateOne with modifier and replacement documents, meta and time changes
 * (modified measurements move to new buckets, the others stay in the source bucket),
 * upserts, errors (a pipeline stage an update refuses, time removed or not a date, upsert without time) that
 * leave nothing half-done, later inserts, and a differential check against a regular
 * collection on random data.
 */
load("jstests/libs/query_helpers.js");
load("jstests/libs/doc_compare.js");
const coll = db[jsTestName()];
const buckets = db["system.buckets." + jsTestName()];
const t0 = ISODate("2024-03-01T00:00:00Z").getTime();

function setUp(n) {
    coll.drop();
    assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < n; ++i)
        docs.push({_id: i, t: new Date(t0 + i * 1000), m: {s: i % 3}, v: i});
    if (docs.length)
        assert.commandWorked(coll.insertMany(docs));
}

const canon = canonicalDoc;  // documents (and arrays of them) with fields in name order

function all() {
    return canon(coll.find().sort({_id: 1}).toArray());
}

/** Every bucket: v2, BSONColumns, count and min/max equal to what it unpacks to. */
function assertBucketsValid() {
    let total = 0;
    for (const b of buckets.find().toArray()) {
        assert.contains(b.control.version, [2, 3], tojson(b));
        for (const f of Object.keys(b.data))
            assert.eq(7, b.data[f].sub_type, tojson(b));
        const ms = buckets.aggregate([
            {$match: {_id: b._id}},
            {$_internalUnpackBucket: {timeField: "t", metaField: "m", bucketMaxSpanSeconds: 3600}},
        ]).toArray();
        assert.eq(b.control.count, ms.length, tojson(b));
        total += ms.length;
        const times = ms.map(m => m.t.getTime());
        assert.eq(Math.max(...times), b.control.max.t.getTime(), tojson(b));
        assert.lte(b.control.min.t.getTime(), Math.min(...times), tojson(b));
        assert.gt(b.control.min.t.getTime() + 3600 * 1000, Math.max(...times), tojson(b));
        for (const m of ms)
            assert.eq(tojson(b.meta), tojson(m.m), tojson(b));
        const vs = ms.filter(m => typeof m.v === "number").map(m => m.v);
        if (vs.length) {
            assert.eq(Math.min(...vs), b.control.min.v, tojson(b));
            assert.eq(Math.max(...vs), b.control.max.v, tojson(b));
        }
    }
    assert.eq(total, coll.countDocuments({}));
}

function updateManyMeasurementField() {
    setUp(30);
    const before = buckets.find().toArray().map(b => b._id.str);
    const res = assert.commandWorked(coll.updateMany({v: {$gte: 10, $lt: 20}}, {$set: {w: "x"}, $inc: {v: 100}}));
    assert.eq(10, res.matchedCount);
    assert.eq(10, res.modifiedCount);
    assert.eq(10, coll.countDocuments({w: "x", v: {$gte: 110, $lt: 120}}));
    assert.eq(30, coll.countDocuments({}));
    // The untouched measurements stay in their source buckets; the modified ones are in new ones.
    const after = buckets.find().toArray();
    for (const id of before)
        assert(after.some(b => b._id.str === id), "source bucket disappeared");
    assert.gt(after.length, before.length);
    for (const b of after.filter(b => !before.includes(b._id.str)))
        assert.gte(b.control.min.v, 110, tojson(b));
    assertBucketsValid();
}

function updateOne() {
    setUp(12);
    const res = assert.commandWorked(coll.updateOne({"m.s": 1}, {$set: {v: -1}}));
    assert.eq(1, res.matchedCount);
    assert.eq(1, res.modifiedCount);
    assert.eq(1, coll.countDocuments({v: -1}));
    assert.eq(12, coll.countDocuments({}));
    assertBucketsValid();
}

function noOpUpdateCountsMatchedOnly() {
    setUp(6);
    const before = buckets.find().sort({_id: 1}).toArray();
    const res = assert.commandWorked(coll.updateMany({v: {$lt: 3}}, {$set: {"m.s": 0, v: 0}}));
    assert.eq(3, res.matchedCount);
    assert.eq(2, res.modifiedCount);  // _id 0 already had m.s 0 and v 0
    const res2 = assert.commandWorked(coll.updateMany({v: 5}, {$set: {v: 5}}));
    assert.eq(1, res2.matchedCount);
    assert.eq(0, res2.modifiedCount);
    assertBucketsValid();
    assert.eq(before.length + 1, buckets.countDocuments({}));
}

function updateMetaMovesSeries() {
    setUp(9);
    const res = assert.commandWorked(coll.updateMany({"m.s": 2}, {$set: {"m.s": 7, "m.extra": true}}));
    assert.eq(3, res.modifiedCount);
    assert.eq(0, coll.countDocuments({"m.s": 2}));
    assert.eq([2, 5, 8], coll.find({m: {extra: true, s: 7}}).sort({_id: 1}).toArray().map(d => d._id));
    assert.eq(1, buckets.countDocuments({meta: {extra: true, s: 7}}));
    assertBucketsValid();
}

function updateTimeMovesMeasurement() {
    setUp(6);
    const later = new Date(t0 + 10 * 3600 * 1000);
    assert.commandWorked(coll.updateOne({_id: 3}, {$set: {t: later}}));
    assert.eq(later, coll.findOne({_id: 3}).t);
    assertBucketsValid();
}

function replacementDocument() {
    setUp(6);
    const t = new Date(t0 + 500);
    let res = assert.commandWorked(coll.replaceOne({_id: 4}, {_id: 4, t: t, m: {s: 1}, z: "new"}));
    assert.eq(1, res.modifiedCount);
    assert.eq(canon([{_id: 4, t: t, m: {s: 1}, z: "new"}]), canon(coll.find({_id: 4}).toArray()));
    res = db.runCommand({update: coll.getName(), updates: [{q: {_id: 5}, u: {_id: 5, m: {s: 1}}}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    assertBucketsValid();
}

// A measurement's _id is an ordinary field, not an immutable one (upstream's).
function measurementIdMayChange() {
    setUp(3);
    assert.commandWorked(coll.updateMany({_id: 1}, {$set: {_id: 10}}));
    assert.eq([0, 2, 10], coll.find().sort({_id: 1}).toArray().map(d => d._id));
    assert.commandWorked(coll.replaceOne({_id: 2}, {_id: 20, t: new Date(t0), m: {s: 2}}));
    assert.eq([0, 10, 20], coll.find().sort({_id: 1}).toArray().map(d => d._id));
    assertBucketsValid();
}

function errorsLeaveNothingHalfDone() {
    setUp(9);
    const before = all();
    let res = db.runCommand({update: coll.getName(), updates: [{q: {}, u: {$unset: {t: ""}}, multi: true}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    res = db.runCommand({update: coll.getName(), updates: [{q: {v: {$gt: 2}}, u: {$set: {t: "not a date"}}, multi: true}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    // A measurement of the last bucket fails: the earlier buckets must not be changed either.
    assert.commandWorked(coll.insertOne({_id: 99, t: new Date(t0 + 8500), m: {s: 2}, v: "str"}));
    const before99 = all();
    const buckets99 = buckets.find().sort({_id: 1}).toArray();
    res = db.runCommand({update: coll.getName(), updates: [{q: {}, u: {$inc: {v: 1}}, multi: true}]});
    assert.eq(ErrorCodes.TypeMismatch, res.writeErrors[0].code);
    assert.eq(before99, all());
    assert.eq(buckets99, buckets.find().sort({_id: 1}).toArray());
    assert.commandWorked(coll.deleteOne({_id: 99}));
    // Pipeline updates work (timeseries_update_pipeline.js); stages other than the
    // one-document transformations do not.
    res = db.runCommand({update: coll.getName(), updates: [{q: {}, u: [{$match: {v: 1}}], multi: true}]});
    assert.eq(ErrorCodes.InvalidOptions, res.writeErrors[0].code);
    res = db.runCommand({update: coll.getName(), updates: [{q: {}, u: {$set: {v: 1}}, sort: {v: 1}}]});
    assert.eq(ErrorCodes.InvalidOptions, res.writeErrors[0].code);
    res = db.runCommand({update: coll.getName(), updates: [{q: {}, u: {v: 1, t: new Date()}, multi: true}]});
    assert.eq(ErrorCodes.FailedToParse, res.writeErrors[0].code);
    assert.eq(before, all());
}

function orderedAndUnordered() {
    setUp(6);
    let res = db.runCommand({update: coll.getName(), updates: [
        {q: {v: 0}, u: {$set: {a: 1}}}, {q: {v: 1}, u: {$unset: {t: 1}}}, {q: {v: 2}, u: {$set: {a: 1}}}]});
    assert.eq(1, res.n);
    assert.eq(1, res.writeErrors.length);
    assert.eq(1, res.writeErrors[0].index);
    res = db.runCommand({update: coll.getName(), ordered: false, updates: [
        {q: {v: 3}, u: {$unset: {t: 1}}}, {q: {v: 4}, u: {$set: {a: 1}}}]});
    assert.eq(1, res.n);
    assert.eq(1, res.nModified);
    assert.eq([0, 4], coll.find({a: 1}).sort({_id: 1}).toArray().map(d => d._id));
}

function upserts() {
    setUp(3);
    const t = new Date(t0 + 777);
    let res = assert.commandWorked(db.runCommand({update: coll.getName(), updates: [
        {q: {m: {s: 9}, t: t}, u: {$set: {v: 42}}, upsert: true}]}));
    assert.eq(1, res.n);
    assert.eq(0, res.nModified);
    assert.eq(1, res.upserted.length);
    assert.eq(0, res.upserted[0].index);
    const id = res.upserted[0]._id;
    assert(id instanceof ObjectId, tojson(res));
    assert.eq(canon([{_id: id, t: t, m: {s: 9}, v: 42}]), canon(coll.find({"m.s": 9}).toArray()));
    // With an _id in the query, multi: true.
    res = assert.commandWorked(db.runCommand({update: coll.getName(), updates: [
        {q: {_id: "u1", v: 1000}, u: {$set: {t: t}}, upsert: true, multi: true}]}));
    assert.eq("u1", res.upserted[0]._id);
    assert.eq(1, coll.countDocuments({_id: "u1", v: 1000}));
    // No time: BadValue, nothing inserted.
    res = db.runCommand({update: coll.getName(), updates: [{q: {v: 5000}, u: {$set: {w: 1}}, upsert: true}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    assert.eq(0, coll.countDocuments({v: 5000}));
    // A match: no upsert.
    res = assert.commandWorked(db.runCommand({update: coll.getName(), updates: [
        {q: {v: 42}, u: {$set: {w: 2}}, upsert: true}]}));
    assert.eq(undefined, res.upserted);
    assert.eq(1, res.nModified);
    assert.eq(5, coll.countDocuments({}));
    assertBucketsValid();
}

function closedBucketsAreNotUpdated() {
    setUp(9);
    const b = buckets.findOne({"meta.s": 0});
    assert.commandWorked(buckets.updateOne({_id: b._id}, {$set: {"control.closed": true}}));
    const res = assert.commandWorked(coll.updateMany({}, {$set: {w: 1}}));
    assert.eq(6, res.modifiedCount);
    assert.eq(3, coll.countDocuments({w: {$exists: false}}));
}

function laterInsertsLandCorrectly() {
    setUp(10);
    assert.commandWorked(coll.updateMany({"m.s": 0}, {$inc: {v: 1000}}));
    assert.commandWorked(coll.insertMany([{_id: 100, t: new Date(t0 + 100), m: {s: 0}, v: 100},
                                          {_id: 101, t: new Date(t0 + 20000), m: {s: 0}, v: 101}]));
    assert.eq([0, 3, 6, 9, 100, 101], coll.find({"m.s": 0}).sort({_id: 1}).toArray().map(d => d._id));
    assert.eq(12, coll.countDocuments({}));
    assertBucketsValid();
}

function differentialRandom() {
    const Random = seededRandom(20240302);
    const plain = db[jsTestName() + "_plain"];
    plain.drop();
    setUp(0);
    const docs = [];
    for (let i = 0; i < 300; ++i) {
        const d = {_id: i, t: new Date(t0 + Random.int(4 * 3600 * 1000)), m: Random.int(3), v: Random.int(100)};
        if (Random.unit() < 0.3)
            d.w = Random.int(10);
        docs.push(d);
    }
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(plain.insertMany(docs));
    for (let k = 0; k < 30; ++k) {
        let f;
        const r = Random.int(4);
        if (r === 0) f = {v: {$lt: Random.int(100)}};
        if (r === 1) f = {m: Random.int(3), v: {$gte: Random.int(100)}};
        if (r === 2) f = {t: {$gt: new Date(t0 + Random.int(4 * 3600 * 1000))}, w: {$exists: true}};
        if (r === 3) f = {m: Random.int(3)};
        let u;
        const s = Random.int(4);
        if (s === 0) u = {$inc: {v: 1}};
        if (s === 1) u = {$set: {w: Random.int(10)}};
        if (s === 2) u = {$set: {m: Random.int(3)}};
        if (s === 3) u = {$unset: {w: ""}, $set: {t: new Date(t0 + Random.int(4 * 3600 * 1000))}};
        const a = assert.commandWorked(coll.updateMany(f, u));
        const b = assert.commandWorked(plain.updateMany(f, u));
        assert.eq(b.matchedCount, a.matchedCount, tojson([f, u]));
        assert.eq(b.modifiedCount, a.modifiedCount, tojson([f, u]));
        assert.eq(canon(plain.find().sort({_id: 1}).toArray()), all(), tojson([f, u]));
    }
    assertBucketsValid();
}

runScenarios(updateManyMeasurementField, updateOne, noOpUpdateCountsMatchedOnly, updateMetaMovesSeries,
             updateTimeMovesMeasurement, replacementDocument, errorsLeaveNothingHalfDone,
             orderedAndUnordered, upserts, closedBucketsAreNotUpdated, laterInsertsLandCorrectly,
             measurementIdMayChange, differentialRandom);
