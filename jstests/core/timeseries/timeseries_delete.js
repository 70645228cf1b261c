/**
 * Deletes of measurements through a time-series view (spec §6.3): limit 0 and 1, meta-only,
 * measurement and time predicates, partial bucket rewrites (valid v2 buckets, same _id,
 * rounded control.min kept), whole-bucket deletes, closed buckets left alone, ordered and
 * unordered write errors, translated hints, later inserts, and a differential check against
 * a regular collection on random data.
 */
load("jstests/libs/query_helpers.js");
load("jstests/libs/doc_compare.js");
const coll = db[jsTestName()];
const buckets = db["system.buckets." + jsTestName()];
const t0 = ISODate("2024-03-01T00:00:00Z").getTime();

function setUp(n, extraDoc) {
    coll.drop();
    assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < n; ++i)
        docs.push(Object.assign({_id: i, t: new Date(t0 + i * 1000), m: {s: i % 3}, v: i}, extraDoc ? extraDoc(i) : {}));
    if (docs.length)
        assert.commandWorked(coll.insertMany(docs));
}

const canon = canonicalDoc;  // documents (and arrays of them) with fields in name order

function ids(filter) {
    return coll.find(filter || {}).sort({_id: 1}).toArray().map(d => d._id);
}

/** Every bucket: v2, BSONColumns, count and min/max equal to what it unpacks to. */
function assertBucketsValid() {
    for (const b of buckets.find().toArray()) {
        assert.contains(b.control.version, [2, 3], tojson(b));
        for (const f of Object.keys(b.data))
            assert.eq(7, b.data[f].sub_type, tojson(b));
        const ms = buckets.aggregate([
            {$match: {_id: b._id}},
            {$_internalUnpackBucket: {timeField: "t", metaField: "m", bucketMaxSpanSeconds: 3600}},
        ]).toArray();
        assert.eq(b.control.count, ms.length, tojson(b));
        const times = ms.map(m => m.t.getTime());
        assert.eq(Math.max(...times), b.control.max.t.getTime(), tojson(b));
        assert.lte(b.control.min.t.getTime(), Math.min(...times), tojson(b));
        assert.eq(0, b.control.min.t.getTime() % 60000, tojson(b));
        const vs = ms.filter(m => typeof m.v === "number").map(m => m.v);
        if (vs.length) {
            assert.eq(Math.min(...vs), b.control.min.v, tojson(b));
            assert.eq(Math.max(...vs), b.control.max.v, tojson(b));
        }
    }
}

function deleteManyByMeasurement() {
    setUp(30);
    const before = buckets.find().toArray();
    const res = assert.commandWorked(coll.deleteMany({v: {$gte: 10, $lt: 20}}));
    assert.eq(10, res.deletedCount);
    assert.eq(20, coll.countDocuments({}));
    assert.eq([], ids({v: {$gte: 10, $lt: 20}}));
    // Partially deleted buckets keep their _id and their rounded start.
    const after = buckets.find().toArray();
    assert.eq(before.length, after.length);
    for (const b of after) {
        const old = before.find(o => o._id.equals(b._id));
        assert(old, "bucket _id changed: " + tojson(b));
        assert.eq(old.control.min.t, b.control.min.t);
    }
    assertBucketsValid();
}

function deleteManyMetaOnlyDeletesWholeBuckets() {
    setUp(30);
    const res = assert.commandWorked(coll.deleteMany({"m.s": 1}));
    assert.eq(10, res.deletedCount);
    assert.eq(0, coll.countDocuments({"m.s": 1}));
    assert.eq(2, buckets.countDocuments({}));
    assertBucketsValid();
}

function deleteAll() {
    setUp(25);
    assert.eq(25, assert.commandWorked(coll.deleteMany({})).deletedCount);
    assert.eq(0, coll.countDocuments({}));
    assert.eq(0, buckets.countDocuments({}));
}

function deleteByTime() {
    setUp(30);
    const res = assert.commandWorked(coll.deleteMany({t: {$lt: new Date(t0 + 5000)}}));
    assert.eq(5, res.deletedCount);
    assert.eq([5, 6, 7, 8, 9], ids({_id: {$lt: 10}}));
    assertBucketsValid();
}

function deleteOne() {
    setUp(12);
    const res = assert.commandWorked(coll.deleteOne({v: {$gte: 4}}));
    assert.eq(1, res.deletedCount);
    assert.eq(11, coll.countDocuments({}));
    assert.eq(1, 12 - coll.countDocuments({v: {$gte: 0}}));
    // Meta-only deleteOne still removes exactly one measurement.
    assert.eq(1, assert.commandWorked(coll.deleteOne({"m.s": 2})).deletedCount);
    assert.eq(10, coll.countDocuments({}));
    assert.eq(0, assert.commandWorked(coll.deleteOne({v: 1000})).deletedCount);
    assertBucketsValid();
}

function noMatchLeavesBucketsUntouched() {
    setUp(9);
    const before = buckets.find().sort({_id: 1}).toArray();
    assert.eq(0, assert.commandWorked(coll.deleteMany({v: 1000})).deletedCount);
    assert.eq(before, buckets.find().sort({_id: 1}).toArray());
}

function closedBucketsAreNotDeleted() {
    setUp(9);
    const b = buckets.findOne({"meta.s": 0});
    assert.commandWorked(buckets.updateOne({_id: b._id}, {$set: {"control.closed": true}}));
    const res = assert.commandWorked(coll.deleteMany({}));
    assert.eq(6, res.deletedCount);
    assert.eq(3, coll.countDocuments({}));
    assert.eq(1, buckets.countDocuments({}));
}

function laterInsertsLandCorrectly() {
    setUp(10);
    assert.commandWorked(coll.deleteMany({v: {$in: [0, 3, 6]}}));
    assert.commandWorked(coll.insertMany([{_id: 100, t: new Date(t0 + 100), m: {s: 0}, v: 100},
                                          {_id: 101, t: new Date(t0 + 20000), m: {s: 0}, v: 101}]));
    assert.eq([9, 100, 101], ids({"m.s": 0}));
    assert.eq(9, coll.countDocuments({}));
    assertBucketsValid();
}

function writeErrors() {
    setUp(6);
    let res = db.runCommand({delete: coll.getName(), deletes: [
        {q: {v: 0}, limit: 0}, {q: {v: 1}, limit: 5}, {q: {v: 2}, limit: 0}]});
    assert.eq(1, res.ok, tojson(res));
    assert.eq(1, res.n);
    assert.eq(1, res.writeErrors.length);
    assert.eq(1, res.writeErrors[0].index);
    assert.eq(ErrorCodes.FailedToParse, res.writeErrors[0].code);
    res = db.runCommand({delete: coll.getName(), ordered: false, deletes: [
        {q: {v: {$foo: 1}}, limit: 0}, {q: {v: 2}, limit: 0}]});
    assert.eq(1, res.n);
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    assert.eq([1, 3, 4, 5], ids());  // ordered: v 1 and 2 were not reached
}

function hints() {
    setUp(9);
    // The default index {m: 1, t: 1} ("m_1_t_1") of a collection with a metaField.
    let res = assert.commandWorked(db.runCommand({delete: coll.getName(), deletes: [
        {q: {"m.s": 0, v: {$gt: 0}}, limit: 0, hint: {m: 1, t: 1}}]}));
    assert.eq(2, res.n);
    res = assert.commandWorked(db.runCommand({delete: coll.getName(), deletes: [
        {q: {v: 1}, limit: 0, hint: "m_1_t_1"}]}));
    assert.eq(1, res.n);
    res = db.runCommand({delete: coll.getName(), deletes: [{q: {v: 2}, limit: 0, hint: {nope: 1}}]});
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    assert.eq(6, coll.countDocuments({}));
}

function differentialRandom() {
    const Random = seededRandom(20240301);
    const plain = db[jsTestName() + "_plain"];
    plain.drop();
    setUp(0);
    const docs = [];
    for (let i = 0; i < 400; ++i) {
        const d = {_id: i, t: new Date(t0 + Random.int(5 * 3600 * 1000)), m: Random.int(4), v: Random.int(100)};
        if (Random.unit() < 0.3)
            d.w = Random.int(10);
        docs.push(d);
    }
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(plain.insertMany(docs));
    const filters = [];
    for (let k = 0; k < 30; ++k) {
        const r = Random.int(5);
        if (r === 0) filters.push({v: {$lt: Random.int(100)}});
        if (r === 1) filters.push({m: Random.int(4), v: {$gte: Random.int(100)}});
        if (r === 2) filters.push({t: {$gt: new Date(t0 + Random.int(5 * 3600 * 1000))}, w: {$exists: true}});
        if (r === 3) filters.push({$or: [{w: Random.int(10)}, {v: Random.int(100)}]});
        if (r === 4) filters.push({m: Random.int(4)});
    }
    for (const f of filters) {
        const one = Random.unit() < 0.3;
        const a = one ? coll.deleteOne(f) : coll.deleteMany(f);
        // deleteOne may pick a different document: delete the same _id from the plain one.
        if (one) {
            const present = new Set(ids());
            const gone = plain.find(f).toArray().filter(d => !present.has(d._id));
            assert.eq(a.deletedCount, gone.length, tojson(f));
            for (const d of gone) plain.deleteOne({_id: d._id});
        } else {
            const b = plain.deleteMany(f);
            assert.eq(b.deletedCount, a.deletedCount, tojson(f));
        }
        assert.eq(canon(plain.find().sort({_id: 1}).toArray()), canon(coll.find().sort({_id: 1}).toArray()),
                  tojson(f));
    }
    assertBucketsValid();
}

runScenarios(deleteManyByMeasurement, deleteManyMetaOnlyDeletesWholeBuckets, deleteAll, deleteByTime,
             deleteOne, noMatchLeavesBucketsUntouched, closedBucketsAreNotDeleted,
             laterInsertsLandCorrectly, writeErrors, hints, differentialRandom);
