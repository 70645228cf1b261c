/**
 * $indexStats on a time-series collection reports the buckets collection's indexes with the
 * user-facing key (and spec) of each, like listIndexes on the view; accesses.ops counts the
 * query plans that used an index. On the buckets collection itself the keys are the raw ones.
 */
const name = jsTestName();
const coll = db[name];
const buckets = db["system.buckets." + name];
const t0 = ISODate("2024-01-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(coll.createIndex({x: 1}, {name: "x_1"}));
    assert.commandWorked(coll.insertMany([{t: new Date(t0), m: 1, x: 1}, {t: new Date(t0), m: 2, x: 5}]));
}

function byName(entries) {
    const out = {};
    for (const e of entries)
        out[e.name] = e;
    return out;
}

function userFacingKeys() {
    setUp();
    const stats = byName(coll.aggregate([{$indexStats: {}}]).toArray());
    assert.eq(["m_1_t_1", "x_1"], Object.keys(stats).sort(), tojson(stats));
    assert.docEq({m: 1, t: 1}, stats.m_1_t_1.key);
    assert.docEq({x: 1}, stats.x_1.key);
    assert.docEq({x: 1}, stats.x_1.spec.key);
    const port = String(TestData.port);
    assert(stats.x_1.host.endsWith(":" + port), tojson(stats.x_1));
    assert(stats.x_1.accesses.since instanceof Date, tojson(stats.x_1));
    const raw = byName(buckets.aggregate([{$indexStats: {}}]).toArray());
    assert.docEq({"control.min.x": 1, "control.max.x": 1}, raw.x_1.key);
    // The buckets' clustered _id key is not an index: not listed, as by listIndexes.
    assert.eq(["m_1_t_1", "x_1"], Object.keys(raw).sort(), tojson(raw));
}

function accessesCountQueries() {
    setUp();
    const ops = name => Number(byName(coll.aggregate([{$indexStats: {}}]).toArray())[name].accesses.ops);
    const before = ops("m_1_t_1"), xBefore = ops("x_1");
    assert.eq(1, coll.find({m: 1}).itcount());  // served by the meta index
    assert.eq(before + 1, ops("m_1_t_1"));
    assert.eq(1, coll.find({m: 2}).itcount());
    assert.eq(before + 2, ops("m_1_t_1"));
    assert.eq(xBefore, ops("x_1"));
}

function laterStagesSeeConvertedEntries() {
    setUp();
    const out = coll.aggregate([{$indexStats: {}}, {$match: {"key.x": 1}}, {$project: {name: 1}}])
                    .toArray();
    assert.eq([{name: "x_1"}], out, tojson(out));
}

runScenarios(userFacingKeys, accessesCountQueries, laterStagesSeeConvertedEntries);
