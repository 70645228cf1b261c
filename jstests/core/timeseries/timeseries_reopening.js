/**
 * Reopening (spec §3.8): a bucket archived after a measurement went back in time is fetched
 * by _id and reopened; after its in-memory bucket is dropped (a direct write to that
 * bucket in system.buckets), a series' bucket is found again by query through the {meta, time}
 * index; a bucket with control.closed: true is never reopened.
 */
const name = jsTestName();
const coll = db[name];
const buckets = db["system.buckets." + name];
const base = ISODate("2024-05-01T00:00:00Z").getTime();
const H = 3600 * 1000;

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
}

function stats() {
    return assert.commandWorked(db.runCommand({collStats: name})).timeseries;
}

function archivedBucketIsReopened() {
    setUp();
    assert.commandWorked(coll.insertOne({t: new Date(base + 2 * H), m: 1}));
    assert.commandWorked(coll.insertOne({t: new Date(base), m: 1}));  // back in time
    assert.eq(1, Number(stats().numBucketsArchivedDueToTimeBackward), tojson(stats()));
    assert.commandWorked(coll.insertOne({t: new Date(base + 2 * H + 5000), m: 1}));
    const s = stats();
    assert.eq(1, Number(s.numBucketsReopened), tojson(s));
    assert.eq(2, buckets.countDocuments({}));
    assert.eq(3, coll.countDocuments({}));
}

function queryBasedReopening() {
    setUp();
    assert.commandWorked(coll.insertOne({t: new Date(base), m: 1}));
    assert.commandWorked(coll.insertOne({t: new Date(base), m: 2}));
    // A direct write drops the catalog's in-memory copy of the bucket it wrote.
    assert.commandWorked(db.runCommand({update: buckets.getName(),
                                        updates: [{q: {meta: 2}, u: {$set: {"control.closed": false}}}]}));
    assert.commandWorked(coll.insertOne({t: new Date(base + 10000), m: 2}));
    const s = stats();
    assert.eq(1, Number(s.numBucketsQueried), tojson(s));
    assert.eq(1, Number(s.numBucketsReopened), tojson(s));
    assert.eq(1, buckets.countDocuments({meta: 2}));
    assert.eq(2, coll.countDocuments({m: 2}));
}

function closedBucketIsNotReopened() {
    setUp();
    assert.commandWorked(coll.insertOne({t: new Date(base), m: 3}));
    assert.commandWorked(db.runCommand({update: buckets.getName(),
                                        updates: [{q: {meta: 3}, u: {$set: {"control.closed": true}}}]}));
    assert.commandWorked(coll.insertOne({t: new Date(base + 1000), m: 3}));
    assert.eq(2, buckets.countDocuments({meta: 3}));
    assert.eq(2, coll.countDocuments({m: 3}));
}

runScenarios(archivedBucketIsReopened, queryBasedReopening, closedBucketIsNotReopened);
