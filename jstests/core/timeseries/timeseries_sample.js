/**
 * $sample on a time-series view (spec §5.4): the unpacking stage takes the $sample (explain
 * shows `sample` and `bucketMaxCount` on $_internalUnpackBucket and no $sample stage). Small
 * samples pick random slots of random buckets (ARHASH), large ones sample every measurement;
 * either way: the asked count (or all when fewer), no duplicates, only stored measurements,
 * and a loose uniformity check. The $cursor's plan has upstream's TRIAL shape.
 */
const ts = db[jsTestName() + "_ts"];
const base = ISODate("2024-04-01T00:00:00Z").getTime();
const n = 4000;

function setUp() {
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < n; i++)
        docs.push({_id: i, t: new Date(base + i * 1000), m: i % 20, x: i});
    for (let i = 0; i < n; i += 500)
        assert.commandWorked(ts.insertMany(docs.slice(i, i + 500)));
}

function sampleIsAbsorbed() {
    const e = ts.explain("queryPlanner").aggregate([{$sample: {size: 3}}]);
    const names = e.stages.map(s => Object.keys(s)[0]);
    assert(!names.includes("$sample"), tojson(names));
    const unpack = e.stages.find(s => s.$_internalUnpackBucket).$_internalUnpackBucket;
    assert.eq(3, unpack.sample, tojson(unpack));
    assert.eq(1000, unpack.bucketMaxCount, tojson(unpack));
}

function assertValidSample(docs, size) {
    assert.eq(Math.min(size, n), docs.length);
    const ids = new Set(docs.map(d => d._id));
    assert.eq(docs.length, ids.size, "duplicates");
    for (const d of docs) {
        assert(d._id >= 0 && d._id < n, tojson(d));
        assert.eq(d._id, d.x, tojson(d));
        assert.eq(d._id % 20, d.m, tojson(d));
        assert.eq(base + d._id * 1000, d.t.getTime(), tojson(d));
    }
}

function smallAndLargeSamplesAreValid() {
    for (const size of [0, 1, 5, 40, 399, 1000, 3999, 4000, 5000])
        assertValidSample(ts.aggregate([{$sample: {size: size}}]).toArray(), size);
    // Stages after the sample see sampled measurements only.
    const c = ts.aggregate([{$sample: {size: 10}}, {$match: {x: {$gte: 0}}}, {$count: "n"}]).toArray();
    assert.eq([{n: 10}], c);
}

/** Many small samples: every tenth of the ids is hit; no tenth gets far more than its share. */
function samplesAreRoughlyUniform() {
    const hits = new Array(10).fill(0);
    let total = 0;
    for (let r = 0; r < 60; r++)
        for (const d of ts.aggregate([{$sample: {size: 20}}]).toArray()) {
            hits[Math.floor(d._id / (n / 10))]++;
            total++;
        }
    assert.eq(1200, total);
    for (const h of hits)  // expected 120 each; binomial sd ~10
        assert(h >= 50 && h <= 200, tojson(hits));
}

/** The first stage named `name` in a plan tree (inputStage / inputStages), or null. */
function planStage(plan, name) {
    if (!plan)
        return null;
    if (plan.stage === name)
        return plan;
    for (const child of [plan.inputStage].concat(plan.inputStages || [])) {
        const found = planStage(child, name);
        if (found)
            return found;
    }
    return null;
}

/**
 * Upstream's plan shapes: TRIAL over ARHASH (SAMPLE_FROM_TIMESERIES_BUCKET over MULTI_ITERATOR,
 * the trial's results in QUEUED_DATA) when the buckets are full enough, else over the backup
 * UNPACK_BUCKET + COLLSCAN; nBucketsUnpacked counts the buckets either plan read.
 */
function explainShowsTheTrial() {
    let e = ts.explain("executionStats").aggregate([{$sample: {size: 300}}]);
    let cursor = e.stages[0].$cursor;
    let plan = cursor.queryPlanner.winningPlan;
    assert.eq("TRIAL", plan.stage, tojson(plan));
    assert(planStage(plan, "QUEUED_DATA"), tojson(plan));
    assert(planStage(plan, "MULTI_ITERATOR"), tojson(plan));
    const sample = planStage(cursor.executionStats.executionStages, "SAMPLE_FROM_TIMESERIES_BUCKET");
    assert(sample, tojson(cursor.executionStats));
    assert.gte(sample.dupsTested, 300, tojson(sample));
    assert.gte(sample.nBucketsDiscarded, 0, tojson(sample));
    assert.gte(sample.dupsDropped, 0, tojson(sample));
    assert.eq(300, cursor.executionStats.nReturned);
    let unpack = e.stages.find(s => s.$_internalUnpackBucket);
    assert.eq(300, unpack.$_internalUnpackBucket.sample);
    assert.eq(sample.nBucketsUnpacked, unpack.nBucketsUnpacked, tojson(unpack));
    assert.gte(unpack.nBucketsUnpacked, 300, tojson(unpack));
    // A sample the trial completes: QUEUED_DATA only.
    plan = ts.explain().aggregate([{$sample: {size: 2}}]).stages[0].$cursor.queryPlanner.winningPlan;
    assert.eq({stage: "TRIAL", inputStage: {stage: "QUEUED_DATA"}}, plan);

    // One measurement per bucket: ARHASH would mostly hit empty slots; the backup plan wins.
    const sparse = db[jsTestName() + "_sparse"];
    sparse.drop();
    assert.commandWorked(
        db.createCollection(sparse.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 300; i++)
        docs.push({_id: i, t: new Date(base), m: i});
    assert.commandWorked(sparse.insertMany(docs));
    e = sparse.explain("executionStats").aggregate([{$sample: {size: 5}}]);
    cursor = e.stages[0].$cursor;
    plan = cursor.executionStats.executionStages;
    assert.eq("TRIAL", plan.stage, tojson(plan));
    assert.eq("UNPACK_BUCKET", plan.inputStage.stage, tojson(plan));
    assert.eq("COLLSCAN", plan.inputStage.inputStage.stage, tojson(plan));
    assert.eq(300, plan.inputStage.nBucketsUnpacked, tojson(plan));
    assert.eq(5, cursor.executionStats.nReturned);
    const got = sparse.aggregate([{$sample: {size: 5}}]).toArray();
    assert.eq(5, new Set(got.map(d => d._id)).size, tojson(got));
    for (const d of got)
        assert.eq(d._id, d.m, tojson(d));
    // Above 1% of numBuckets x bucketMaxCount there is no TRIAL: the unpack stage samples.
    const numBuckets = db["system.buckets." + ts.getName()].countDocuments({});
    const tooBig = numBuckets * 1000 / 100 + 1;
    plan = ts.explain().aggregate([{$sample: {size: tooBig}}]).stages[0].$cursor.queryPlanner.winningPlan;
    assert.eq("COLLSCAN", plan.stage, tojson(plan));
}

setUp();
sampleIsAbsorbed();
explainShowsTheTrial();
smallAndLargeSamplesAreValid();
samplesAreRoughlyUniform();
