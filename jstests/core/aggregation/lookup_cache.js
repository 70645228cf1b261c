/**
 * $lookup memoises its inner results: an uncorrelated pipeline runs once for all outer
 * documents, and a correlated one (localField or used `let` variables) once per distinct
 * correlation value. Results equal the uncached ones; explain executionStats reports
 * innerPipelineRuns and cacheHits. Non-deterministic inner pipelines ($sample, $rand) are
 * not cached.
 */
const outer = db[jsTestName() + "_outer"];
const inner = db[jsTestName() + "_inner"];

function setUp() {
    outer.drop();
    inner.drop();
    const o = [];
    for (let i = 0; i < 40; i++)
        o.push({_id: i, k: i % 4, unused: i});
    assert.commandWorked(outer.insertMany(o));
    const n = [];
    for (let i = 0; i < 20; i++)
        n.push({_id: i, k: i % 5, v: i});
    assert.commandWorked(inner.insertMany(n));
}

function lookupStats(pipeline) {
    const ex = assert.commandWorked(db.runCommand({
        explain: {aggregate: outer.getName(), pipeline: pipeline, cursor: {}},
        verbosity: "executionStats"
    }));
    const st = ex.stages.find((s) => s.$lookup);
    assert(st, tojson(ex));
    return st;
}

function uncorrelatedRunsOnce() {
    const pipeline = [{$lookup: {from: inner.getName(), as: "r", let: {u: "$unused"},
                                 pipeline: [{$match: {k: 1}}, {$sort: {_id: 1}},
                                            {$project: {_id: 1}}]}}];
    const res = outer.aggregate(pipeline).toArray();
    assert.eq(40, res.length);
    for (const d of res)
        assert.eq([{_id: 1}, {_id: 6}, {_id: 11}, {_id: 16}], d.r, tojson(d));
    const st = lookupStats(pipeline);
    assert.eq(1, st.innerPipelineRuns, tojson(st));
    assert.eq(39, st.cacheHits, tojson(st));
}

function correlatedRunsOncePerValue() {
    const pipeline = [
        {$lookup: {from: inner.getName(), localField: "k", foreignField: "k", as: "r",
                   let: {kk: "$k"},
                   pipeline: [{$addFields: {kk: "$$kk"}}, {$sort: {_id: 1}}]}},
        {$sort: {_id: 1}},
    ];
    const res = outer.aggregate(pipeline).toArray();
    assert.eq(40, res.length);
    for (const d of res) {
        const want = inner.find({k: d.k}).sort({_id: 1}).toArray()
                         .map((x) => Object.assign(x, {kk: d.k}));
        assert.eq(want, d.r, tojson(d));
    }
    const st = lookupStats(pipeline);
    assert.eq(4, st.innerPipelineRuns, tojson(st));
    assert.eq(36, st.cacheHits, tojson(st));
}

function nonDeterministicIsNotCached() {
    const st = lookupStats([{$lookup: {from: inner.getName(), as: "r",
                                       pipeline: [{$sample: {size: 2}}]}}]);
    assert.eq(40, st.innerPipelineRuns, tojson(st));
    assert.eq(0, st.cacheHits, tojson(st));
}

runScenarios(setUp, uncorrelatedRunsOnce, correlatedRunsOncePerValue,
             nonDeterministicIsNotCached);
