/**
 * Explain proof for the benchmark's Q2 (maximum of the 10 usage fields for one host over 12
 * hours; /work/shared/bench/README.md) on a collection shaped like the bench dataset (a few
 * hosts, 24 h at 10 s, a `tags` meta sub-document, 10 numeric fields). With the index users
 * create for such queries, {"tags.hostname": 1, time: 1}, the buckets are read through an
 * IXSCAN bounded on meta.hostname and control.min.time, and only the buckets of that host
 * overlapping the 12 hours are unpacked (counted through system.buckets).
 */
const ts = db[jsTestName()];
const buckets = db["system.buckets." + jsTestName()];
const t0 = ISODate("2024-01-01T00:00:00Z").getTime();
const hour = 3600 * 1000;
const fields = ["usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait",
                "usage_irq", "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"];
const nHosts = 3;

function setUp() {
    ts.drop();
    assert.commandWorked(db.createCollection(
        ts.getName(), {timeseries: {timeField: "time", metaField: "tags"}}));
    let docs = [];
    const flush = () => {
        assert.commandWorked(ts.insertMany(docs, {ordered: false}));
        docs = [];
    };
    for (let i = 0; i < 24 * 360; i++) {
        for (let h = 0; h < nHosts; h++) {
            const d = {time: new Date(t0 + i * 10 * 1000),
                       tags: {hostname: "host_" + h, region: "r" + (h % 2), rack: "" + h}};
            fields.forEach((f, k) => d[f] = (i * (k + 1) + h * 7) % 101);
            docs.push(d);
        }
        if (docs.length >= 3000)
            flush();
    }
    flush();
    assert.commandWorked(ts.createIndex({"tags.hostname": 1, time: 1}));
}

const lo = new Date(t0 + 6 * hour);
const hi = new Date(t0 + 18 * hour);
function q2() {
    const group = {_id: null};
    for (const f of fields)
        group["max_" + f] = {$max: "$" + f};
    return [{$match: {"tags.hostname": "host_1", time: {$gte: lo, $lt: hi}}}, {$group: group}];
}

function findStage(plan, name) {
    if (!plan)
        return null;
    if (plan.stage == name)
        return plan;
    return findStage(plan.inputStage, name);
}

function defaultIndexIsOnTheWholeMeta() {
    // The default index covers meta + time; equality on a meta sub-field cannot bound it.
    const keys = ts.getIndexes().map(i => i.key);
    assert(keys.some(k => bsonWoCompare(k, {tags: 1, time: 1}) == 0), tojson(keys));
    const bucketKeys = buckets.getIndexes().map(i => i.key);
    assert(bucketKeys.some(k => bsonWoCompare(
                               k, {"meta.hostname": 1, "control.min.time": 1, "control.max.time": 1}) == 0),
           tojson(bucketKeys));
}

function q2UsesTheHostnameIndexWithBounds() {
    const res = assert.commandWorked(db.runCommand(
        {explain: {aggregate: ts.getName(), pipeline: q2(), cursor: {}}, verbosity: "executionStats"}));
    const cursor = res.stages.find(s => s.$cursor);
    assert(cursor, tojson(res));
    const ixscan = findStage(cursor.$cursor.queryPlanner.winningPlan, "IXSCAN");
    assert(ixscan, tojson(cursor.$cursor.queryPlanner));
    assert.eq({"meta.hostname": 1, "control.min.time": 1, "control.max.time": 1}, ixscan.keyPattern,
              tojson(ixscan));
    assert.eq(['["host_1", "host_1"]'], ixscan.indexBounds["meta.hostname"], tojson(ixscan));
    // control.min.time is bounded from below by lo - bucketMaxSpanSeconds, above by hi.
    const minBounds = ixscan.indexBounds["control.min.time"];
    assert.eq(1, minBounds.length, tojson(ixscan));
    assert(!minBounds[0].includes("MinKey") && !minBounds[0].includes("MaxKey"), tojson(ixscan));

    // Exactly this host's buckets overlapping [lo, hi) are unpacked.
    const overlapping = buckets.countDocuments(
        {"meta.hostname": "host_1", "control.min.time": {$lt: hi}, "control.max.time": {$gte: lo}});
    assert.eq(12, overlapping);  // one bucket per host and hour
    const unpack = res.stages.find(s => s.$_internalUnpackBucket);
    assert(unpack, tojson(res));
    assert.eq(overlapping, unpack.nBucketsUnpacked, tojson(unpack));
    const es = cursor.$cursor.executionStats;
    assert.eq(overlapping, es.nReturned, tojson(es));
    // The index bounds are on meta.hostname and control.min.time ([lo - span, hi)); the FETCH
    // filter drops the bucket ending before lo. Upstream also bounds control.max.time, which
    // would make docsExamined == overlapping; here the planner leaves it [MinKey, MaxKey] and
    // examines at most the bucket before lo and the one starting at hi besides.
    assert.gte(es.totalDocsExamined, overlapping, tojson(es));
    assert.lte(es.totalDocsExamined, overlapping + 2, tojson(es));
}

function q2Answer() {
    const [row] = ts.aggregate(q2()).toArray();
    const expected = {_id: null};
    for (const f of fields)
        expected["max_" + f] = -1;
    ts.find({"tags.hostname": "host_1", time: {$gte: lo, $lt: hi}}).forEach(d => {
        for (const f of fields)
            expected["max_" + f] = Math.max(expected["max_" + f], d[f]);
    });
    assert.docEq(expected, row);
}

setUp();
defaultIndexIsOnTheWholeMeta();
q2UsesTheHostnameIndexWithBounds();
q2Answer();
