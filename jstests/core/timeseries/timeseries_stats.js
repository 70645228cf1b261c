/**
 * collStats on a time-series collection reports the buckets with a `timeseries` section
 * (bucketsNs, bucketCount, avgBucketSize and the write-path counters), without count;
 * serverStatus().bucketCatalog reports the process-wide catalog.
 */
const name = jsTestName();
const coll = db[name];
const t0 = ISODate("2024-01-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
}

function collStatsSection() {
    setUp();
    assert.commandWorked(coll.insertMany([{t: new Date(t0), m: 1}, {t: new Date(t0 + 1), m: 2}]));
    assert.commandWorked(coll.insertOne({t: new Date(t0 + 2), m: 1}));
    const s = assert.commandWorked(db.runCommand({collStats: name}));
    assert.eq(undefined, s.count);
    const ts = s.timeseries;
    assert.eq(db.getName() + ".system.buckets." + name, ts.bucketsNs);
    assert.eq(2, ts.bucketCount);
    assert.gt(ts.avgBucketSize, 0);
    assert.eq(2, ts.numBucketInserts, tojson(ts));
    assert.eq(1, ts.numBucketUpdates, tojson(ts));
    assert.eq(2, Number(ts.numBucketsOpenedDueToMetadata), tojson(ts));
    assert.eq(3, ts.numCommits, tojson(ts));
    assert.eq(3, ts.numMeasurementsCommitted, tojson(ts));
    assert.eq(1, ts.avgNumMeasurementsPerCommit, tojson(ts));
}

function closedDueToTimeForward() {
    setUp();
    assert.commandWorked(coll.insertOne({t: new Date(t0), m: 1}));
    assert.commandWorked(coll.insertOne({t: new Date(t0 + 2 * 3600 * 1000), m: 1}));
    const ts = assert.commandWorked(db.runCommand({collStats: name})).timeseries;
    assert.eq(1, ts.numBucketsClosedDueToTimeForward, tojson(ts));
    assert.eq(2, ts.bucketCount);
}

function serverStatusSection() {
    setUp();
    assert.commandWorked(coll.insertOne({t: new Date(t0), m: 1}));
    const bc = assert.commandWorked(db.adminCommand({serverStatus: 1})).bucketCatalog;
    assert(bc, "no bucketCatalog section");
    for (const f of ["numBuckets", "numOpenBuckets", "numIdleBuckets", "memoryUsage",
                     "numBucketInserts", "numCommits"])
        assert(bc.hasOwnProperty(f), f + " missing: " + tojson(bc));
    assert.gte(bc.numBucketInserts, 1);
}

runScenarios(collStatsSection, closedDueToTimeForward, serverStatusSection);
