/**
 * Measurements inserted into a time-series collection read back through the view in their
 * original shape: find with filter/sort/projection, countDocuments, aggregate $group.
 */
const name = jsTestName();
const coll = db[name];
const base = ISODate("2024-01-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 50; ++i)
        docs.push({_id: i, t: new Date(base + i * 1000), m: {host: "h" + (i % 3)}, v: i});
    assert.commandWorked(coll.insertMany(docs));
    return docs;
}

function findReturnsMeasurements() {
    const docs = setUp();
    const got = coll.find().sort({_id: 1}).toArray();
    assert.eq(docs.length, got.length);
    for (let i = 0; i < docs.length; ++i)
        assert.docEq(docs[i], got[i]);
}

function filterSortProjection() {
    setUp();
    const got = coll.find({"m.host": "h1", v: {$gte: 40}}, {_id: 0, v: 1}).sort({v: -1}).toArray();
    assert.eq([{v: 49}, {v: 46}, {v: 43}, {v: 40}], got);
}

function countAndGroup() {
    setUp();
    assert.eq(50, coll.countDocuments({}));
    assert.eq(17, coll.countDocuments({"m.host": "h0"}));
    const g = coll.aggregate([{$group: {_id: "$m.host", n: {$sum: 1}, s: {$sum: "$v"}}},
                              {$sort: {_id: 1}}]).toArray();
    assert.eq([{_id: "h0", n: 17, s: 408}, {_id: "h1", n: 17, s: 425}, {_id: "h2", n: 16, s: 392}], g);
}

function bucketsAreRaw() {
    setUp();
    const buckets = db["system.buckets." + name].find().toArray();
    assert.eq(3, buckets.length, tojson(buckets));
    for (const b of buckets) {
        assert(b.control && b.data && b.meta, tojson(b));
        assert.eq(2, b.control.version);
    }
}

function manySmallInserts() {
    setUp();
    for (let i = 50; i < 80; ++i)
        assert.commandWorked(coll.insertOne({_id: i, t: new Date(base + i * 1000), m: {host: "h0"}, v: i}));
    assert.eq(80, coll.countDocuments({}));
    assert.eq(3, db["system.buckets." + name].countDocuments({}));
    assert.eq(47, coll.find({"m.host": "h0", v: {$gte: 0}}).itcount());
}

runScenarios(findReturnsMeasurements, filterSortProjection, countAndGroup, bucketsAreRaw,
             manySmallInserts);
