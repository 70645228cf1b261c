/**
 * explain of an aggregate on a time-series view with executionStats / allPlansExecution
 * (spec §5.5): the pipeline runs; every stage entry gains nReturned and
 * executionTimeMillisEstimate, the $cursor stage an executionStats section, and
 * $_internalUnpackBucket reports the buckets it unpacked (those matching the bucket-level
 * filter, counted through system.buckets). explain: true on aggregate stays queryPlanner only.
 */
const ts = db[jsTestName()];
const buckets = db["system.buckets." + jsTestName()];
const base = ISODate("2024-05-01T00:00:00Z").getTime();

function setUp() {
    ts.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 500; i++)
        docs.push({t: new Date(base + i * 60 * 1000), m: "h" + (i % 3), x: i});
    assert.commandWorked(ts.insertMany(docs));
}

function explainStats(pipeline, verbosity) {
    const res = assert.commandWorked(db.runCommand(
        {explain: {aggregate: ts.getName(), pipeline: pipeline, cursor: {}}, verbosity: verbosity}));
    assert.eq("1", res.explainVersion, tojson(res));
    assert(res.stages, tojson(res));
    return res;
}

function stage(res, name) {
    return res.stages.find(s => s.hasOwnProperty(name));
}

function everyStageHasCounts() {
    const pipeline = [{$match: {m: "h1"}}, {$match: {x: {$gte: 100}}}, {$project: {_id: 0, x: 1}}];
    const expected = ts.aggregate(pipeline).toArray().length;
    const res = explainStats(pipeline, "executionStats");
    for (const s of res.stages) {
        assert(s.hasOwnProperty("nReturned"), tojson(s));
        assert(s.hasOwnProperty("executionTimeMillisEstimate"), tojson(s));
    }
    const cursor = stage(res, "$cursor");
    assert(cursor.$cursor.queryPlanner, tojson(cursor));
    const es = cursor.$cursor.executionStats;
    assert(es, tojson(cursor));
    for (const f of ["nReturned", "executionTimeMillis", "totalKeysExamined", "totalDocsExamined",
                     "executionStages"])
        assert(es.hasOwnProperty(f), tojson(es));
    assert.eq(es.nReturned, cursor.nReturned, tojson(cursor));
    assert.eq(expected, res.stages[res.stages.length - 1].nReturned, tojson(res));
}

function unpackReportsBucketsMatchingTheBucketFilter() {
    const pipeline = [{$match: {m: {$in: ["h0", "h2"]}}}];
    const res = explainStats(pipeline, "executionStats");
    const unpack = stage(res, "$_internalUnpackBucket");
    assert(unpack, tojson(res));
    const nBuckets = buckets.countDocuments({meta: {$in: ["h0", "h2"]}});
    assert.gt(nBuckets, 0);
    assert.eq(nBuckets, unpack.nBucketsUnpacked, tojson(unpack));
    assert.eq(nBuckets, stage(res, "$cursor").nReturned, tojson(res));
    assert.eq(ts.find({m: {$in: ["h0", "h2"]}}).itcount(), unpack.nReturned, tojson(unpack));
}

function allPlansExecutionHasTheSameShape() {
    const res = explainStats([{$group: {_id: "$m", n: {$sum: "$x"}}}], "allPlansExecution");
    const es = stage(res, "$cursor").$cursor.executionStats;
    assert(es.allPlansExecution, tojson(es));
    assert.eq(3, res.stages[res.stages.length - 1].nReturned, tojson(res));
}

function queryPlannerVerbosityDoesNotRun() {
    const res = assert.commandWorked(db.runCommand({
        explain: {aggregate: ts.getName(), pipeline: [{$match: {x: 1}}], cursor: {}},
        verbosity: "queryPlanner"
    }));
    assert(!tojson(res).includes("executionStats"), tojson(res));
    const agg = assert.commandWorked(
        db.runCommand({aggregate: ts.getName(), pipeline: [{$match: {x: 1}}], explain: true}));
    assert(!tojson(agg).includes("nReturned"), tojson(agg));
}

setUp();
everyStageHasCounts();
unpackReportsBucketsMatchingTheBucketFilter();
allPlansExecutionHasTheSameShape();
queryPlannerVerbosityDoesNotRun();
