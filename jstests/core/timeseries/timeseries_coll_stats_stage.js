/**
 * $collStats on a time-series collection runs on its buckets collection (ns is the buckets
 * namespace) and reports storageStats with the `timeseries` section instead of count;
 * latencyStats are the view's; mongosh's stats()/dataSize()/storageSize()/totalIndexSize()/
 * totalSize() work on it. On a plain view $collStats runs on the view: latencyStats work,
 * storageStats and count fail with CommandNotSupportedOnView.
 */
const name = jsTestName();
const coll = db[name];
const bucketsNs = db.getName() + ".system.buckets." + name;
const t0 = ISODate("2024-01-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    db[name + "_view"].drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(coll.insertMany([{t: new Date(t0), m: 1, x: 1},
                                          {t: new Date(t0 + 1), m: 2, x: 2},
                                          {t: new Date(t0 + 2), m: 1, x: 3}]));
}

function collStats(spec) {
    return coll.aggregate([{$collStats: spec}]).toArray();
}

function storageStatsOnView() {
    setUp();
    const out = collStats({storageStats: {}});
    assert.eq(1, out.length, tojson(out));
    const s = out[0];
    assert.eq(bucketsNs, s.ns, tojson(s));
    const port = String(TestData.port);
    assert.eq(db.serverStatus().host + ":" + port, s.host, tojson(s));
    const st = s.storageStats;
    assert.eq(undefined, st.count, tojson(st));
    assert.eq(bucketsNs, st.timeseries.bucketsNs, tojson(st));
    assert.eq(2, st.timeseries.bucketCount, tojson(st));
    assert.gt(st.timeseries.avgBucketSize, 0, tojson(st));
    assert.eq(3, st.timeseries.numMeasurementsCommitted, tojson(st));
    assert.eq(1, st.nindexes, tojson(st));  // the default {m: 1, t: 1} index
    assert.eq(["m_1_t_1"], Object.keys(st.indexSizes), tojson(st));
    assert.eq(st.storageSize + st.totalIndexSize, st.totalSize, tojson(st));
    const scaled = collStats({storageStats: {scale: 1024}})[0].storageStats;
    assert.eq(1024, scaled.scaleFactor);
    assert.eq(Math.floor(st.size / 1024), scaled.size, tojson(scaled));
}

function countAndQueryExecStats() {
    setUp();
    const before = collStats({queryExecStats: {}})[0].queryExecStats.collectionScans;
    assert.eq(3, coll.find({x: {$gte: 1}}).itcount());
    const s = collStats({count: {}, queryExecStats: {}})[0];
    assert.eq(2, s.count, tojson(s));  // buckets
    const after = s.queryExecStats.collectionScans;
    assert.eq(Number(before.total) + 1, Number(after.total), tojson(s));
    assert.eq(Number(before.nonTailable) + 1, Number(after.nonTailable), tojson(s));
}

function latencyStatsOfTheView() {
    setUp();
    const w0 = collStats({latencyStats: {}})[0].latencyStats.writes;
    assert.eq(1, w0.ops, tojson(w0));  // the insertMany of setUp
    assert.commandWorked(coll.insertOne({t: new Date(t0 + 3), m: 1}));
    const s = collStats({latencyStats: {histograms: true}})[0].latencyStats;
    assert.eq(2, s.writes.ops, tojson(s));
    assert.gte(Number(s.writes.latency), Number(w0.latency), tojson(s));
    let n = 0;
    for (const b of s.writes.histogram)
        n += Number(b.count);
    assert.eq(2, n, tojson(s.writes.histogram));
    for (const f of ["reads", "writes", "commands", "transactions"])
        assert(s.hasOwnProperty(f), f + " missing: " + tojson(s));
    const shell = coll.latencyStats({histograms: true})[0];
    assert.eq(bucketsNs, shell.ns);
    assert(Array.isArray(shell.latencyStats.writes.histogram), tojson(shell));
}

function mongoshHelpers() {
    setUp();
    const st = collStats({storageStats: {}})[0].storageStats;
    const stats = coll.stats();
    assert.eq(1, stats.ok, tojson(stats));
    assert.eq(2, stats.timeseries.bucketCount, tojson(stats));
    assert.eq(bucketsNs, stats.timeseries.bucketsNs, tojson(stats));
    assert.eq(st.size, coll.dataSize());
    assert.eq(st.storageSize, coll.storageSize());
    assert.eq(st.totalIndexSize, coll.totalIndexSize());
    assert.eq(st.storageSize + st.totalIndexSize, coll.totalSize());
}

function collStatsCommandAgrees() {
    setUp();
    const cmd = assert.commandWorked(db.runCommand({collStats: name}));
    assert.eq(db.getName() + "." + name, cmd.ns);
    const st = collStats({storageStats: {}})[0].storageStats;
    assert.eq(st.timeseries.bucketCount, cmd.timeseries.bucketCount);
    assert.eq(st.size, cmd.size);
    assert.eq(undefined, cmd.count);
}

function plainView() {
    setUp();
    const view = name + "_view";
    assert.commandWorked(db.runCommand({create: view, viewOn: name, pipeline: [{$match: {}}]}));
    const s = db[view].aggregate([{$collStats: {latencyStats: {}}}]).toArray();
    assert.eq(db.getName() + "." + view, s[0].ns, tojson(s));
    for (const spec of [{storageStats: {}}, {count: {}}, {queryExecStats: {}}])
        assert.commandFailedWithCode(
            db.runCommand({aggregate: view, pipeline: [{$collStats: spec}], cursor: {}}),
            ErrorCodes.CommandNotSupportedOnView, tojson(spec));
}

function badSpecs() {
    setUp();
    const run = spec => db.runCommand({aggregate: name, pipeline: [{$collStats: spec}], cursor: {}});
    assert.commandFailedWithCode(run({foo: {}}), ErrorCodes.IDLUnknownField);
    assert.commandFailedWithCode(run({storageStats: {scale: 0}}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(run({latencyStats: {bar: 1}}), ErrorCodes.IDLUnknownField);
    assert.commandFailedWithCode(run(1), 40166);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: name + "_missing", pipeline: [{$collStats: {storageStats: {}}}],
                       cursor: {}}),
        ErrorCodes.NamespaceNotFound);
}

runScenarios(storageStatsOnView, countAndQueryExecStats, latencyStatsOfTheView, mongoshHelpers,
             collStatsCommandAgrees, plainView, badSpecs);
