/**
 * Raw buckets round trip: buckets read from system.buckets.<coll> can be inserted into
 * another time-series collection's buckets collection (as mongorestore does) and read back
 * as the same measurements through its view; later inserts of the same series work.
 */
const src = db[jsTestName() + "_src"];
const dst = db[jsTestName() + "_dst"];
const t0 = ISODate("2024-03-01T00:00:00Z").getTime();

function setUp() {
    for (const c of [src, dst]) {
        c.drop();
        assert.commandWorked(db.runCommand({create: c.getName(), timeseries: {timeField: "t", metaField: "m"}}));
    }
    const docs = [];
    for (let i = 0; i < 20; ++i)
        docs.push({_id: i, t: new Date(t0 + i * 1000), m: {s: i % 2}, v: i * 1.5, tag: "x" + i});
    assert.commandWorked(src.insertMany(docs));
}

function roundTrip() {
    setUp();
    const raw = db["system.buckets." + src.getName()].find().toArray();
    assert.eq(2, raw.length);
    assert.commandWorked(db.runCommand({insert: "system.buckets." + dst.getName(), documents: raw}));
    assert.eq(src.find().sort({_id: 1}).toArray(), dst.find().sort({_id: 1}).toArray());
}

function v1BucketReadable() {
    setUp();
    const v1 = {
        _id: ObjectId("65e11a000000000000000001"),
        control: {version: 1, min: {_id: 100, t: ISODate("2024-03-01T00:00:00Z"), v: 1},
                  max: {_id: 101, t: ISODate("2024-03-01T00:00:05Z"), v: 2}},
        meta: {s: 7},
        data: {_id: {"0": 100, "1": 101},
               t: {"0": ISODate("2024-03-01T00:00:01Z"), "1": ISODate("2024-03-01T00:00:05Z")},
               v: {"0": 1, "1": 2}},
    };
    assert.commandWorked(db.runCommand({insert: "system.buckets." + dst.getName(), documents: [v1]}));
    const got = dst.find({"m.s": 7}).sort({_id: 1}).toArray();
    assert.eq(2, got.length, tojson(got));
    assert.eq(0, bsonUnorderedFieldsCompare({_id: 100, t: ISODate("2024-03-01T00:00:01Z"), m: {s: 7}, v: 1}, got[0]), tojson(got));
    assert.eq(0, bsonUnorderedFieldsCompare({_id: 101, t: ISODate("2024-03-01T00:00:05Z"), m: {s: 7}, v: 2}, got[1]), tojson(got));
    // A later measurement of the series is readable too (reopened or new bucket).
    assert.commandWorked(dst.insertOne({_id: 102, t: ISODate("2024-03-01T00:00:09Z"), m: {s: 7}, v: 3}));
    assert.eq(3, dst.countDocuments({"m.s": 7}));
}

runScenarios(roundTrip, v1BucketReadable);
