/**
 * Last-point through DISTINCT_SCAN (spec §5.4): with a buckets index that orders each series
 * by control.max.<time> (the conversion of a view index {<meta>: 1, <time>: -1}), the
 * last-point rewrite's bucket-level $sort + $group becomes a DISTINCT_SCAN + FETCH and
 * $groupByDistinctScan — one bucket per series, the one with the latest control.max. An index
 * ordered by control.min first ({<meta>: 1, <time>: 1}) is not used: with overlapping buckets
 * the latest-min bucket need not hold the latest measurement. Results equal the pipeline with
 * the rewrites inhibited and the same pipeline over a plain collection.
 */
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];
const base = ISODate("2024-04-01T00:00:00Z").getTime();

function insertBoth(docs) {
    assert.commandWorked(ts.insertMany(docs));
    assert.commandWorked(plain.insertMany(docs));
}

function setUp() {
    ts.drop();
    plain.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    let id = 0;
    // Series s0..s3 with {k}: 1500 measurements each, one per second, so a full bucket (1000)
    // rolls over into a second one.
    for (let s = 0; s < 4; s++) {
        const docs = [];
        for (let i = 0; i < 1500; i++)
            docs.push({_id: id++, t: new Date(base + i * 1000), m: {s: "s" + s, k: s % 2}, x: i});
        insertBoth(docs);
    }
    // Late measurements: each opens a bucket whose control.min is later than the first
    // (full) bucket's, but whose control.max is earlier than the series' latest time.
    const late = [];
    for (let s = 0; s < 4; s++)
        late.push({_id: id++, t: new Date(base + (1200 + s) * 1000), m: {s: "s" + s, k: s % 2}, x: -1});
    insertBoth(late);
    // Overlap inside the first bucket too: series s0's 1000-measurement bucket ends at 999s;
    // series s5 gets a full bucket [0, 999] then a late one at 500s.
    const s5 = [];
    for (let i = 0; i < 1000; i++)
        s5.push({_id: id++, t: new Date(base + i * 1000), m: {s: "s5", k: 1}, x: i});
    insertBoth(s5);
    insertBoth([{_id: id++, t: new Date(base + 500 * 1000 + 1), m: {s: "s5", k: 1}, x: -2}]);
    // Measurements without meta form their own series (group key null).
    insertBoth([{_id: id++, t: new Date(base + 7 * 1000), x: 7}, {_id: id++, t: new Date(base + 3000), x: 3}]);
}

load("jstests/libs/doc_compare.js");
const canon = canonicalDoc;
const sorted = (docs) => docs.map(d => tojson(canon(d))).sort();

function assertSameResults(pipeline) {
    const got = sorted(ts.aggregate(pipeline).toArray());
    const inhibited =
        sorted(ts.aggregate([{$_internalInhibitOptimization: {}}].concat(pipeline)).toArray());
    const expected = sorted(plain.aggregate(pipeline).toArray());
    assert.eq(expected, got, tojson(pipeline));
    assert.eq(expected, inhibited, tojson(pipeline));
}

function explain(pipeline) {
    const e = ts.explain("executionStats").aggregate(pipeline);
    assert(e.stages, tojson(e));
    return e;
}
const stageNames = (e) => e.stages.map(s => Object.keys(s)[0]);

/** The DISTINCT_SCAN under the $cursor's FETCH, or null. */
function distinctScan(e) {
    const plan = e.stages[0].$cursor.queryPlanner.winningPlan;
    if (plan.stage !== "FETCH" || !plan.inputStage || plan.inputStage.stage !== "DISTINCT_SCAN")
        return null;
    return plan.inputStage;
}

const latestBySeries = [
    {$sort: {"m.s": 1, t: -1}},
    {$group: {_id: "$m.s", t: {$first: "$t"}, x: {$first: "$x"}}}
];

function minTimeIndexIsNotUsed() {
    assert.commandWorked(ts.createIndex({"m.s": 1, t: 1}));
    const e = explain(latestBySeries);
    assert.eq(null, distinctScan(e), tojson(e.stages[0]));
    assert(stageNames(e).includes("$group"), tojson(stageNames(e)));
    assertSameResults(latestBySeries);
    assert.commandWorked(ts.dropIndex({"m.s": 1, t: 1}));
}

function maxTimeIndexGivesDistinctScan() {
    assert.commandWorked(ts.createIndex({"m.s": 1, t: -1}));
    const e = explain(latestBySeries);
    const scan = distinctScan(e);
    assert(scan, tojson(e.stages[0]));
    assert.eq({"meta.s": 1, "control.max.t": -1, "control.min.t": -1}, scan.keyPattern);
    assert.eq("forward", scan.direction);
    assert.eq(["[MinKey, MaxKey]"], scan.indexBounds["meta.s"]);
    const n = stageNames(e);
    assert.eq(["$cursor", "$groupByDistinctScan", "$replaceRoot", "$_internalUnpackBucket"],
              n.slice(0, 4), tojson(n));
    assert.eq({_id: "$meta.s", bucket: "$$ROOT"}, e.stages[1].$groupByDistinctScan.newRoot);
    // One bucket per series (s0..s3, s5, null) is read and unpacked.
    assert.eq(6, e.stages[0].$cursor.executionStats.totalKeysExamined, tojson(e.stages[0]));
    assert.eq(6, e.stages[0].$cursor.executionStats.totalDocsExamined, tojson(e.stages[0]));
    assert.eq(6, e.stages[3].nBucketsUnpacked, tojson(e.stages[3]));
    assertSameResults(latestBySeries);
}

function otherShapesUseTheIndex() {
    // $last over an ascending time order reads the index backwards... in the same direction.
    const last = [{$sort: {"m.s": 1, t: 1}}, {$group: {_id: "$m.s", t: {$last: "$t"}, x: {$last: "$x"}}}];
    assert(distinctScan(explain(last)));
    assertSameResults(last);
    const top = [{$group: {_id: "$m.s", p: {$top: {sortBy: {t: -1}, output: ["$t", "$x"]}}}}];
    assert(distinctScan(explain(top)));
    assertSameResults(top);
    // Earliest is never a DISTINCT_SCAN (control.min is only a lower bound).
    const earliest = [{$sort: {"m.s": 1, t: 1}}, {$group: {_id: "$m.s", t: {$first: "$t"}}}];
    assert.eq(null, distinctScan(explain(earliest)));
    assertSameResults(earliest);
}

function wholeMetaKeyWithMetaFilter() {
    assert.commandWorked(ts.createIndex({m: 1, t: -1}));
    const p = [
        {$match: {"m.k": 1}},
        {$sort: {m: 1, t: -1}},
        {$group: {_id: "$m", t: {$first: "$t"}, x: {$first: "$x"}}}
    ];
    const e = explain(p);
    const scan = distinctScan(e);
    assert(scan, tojson(e.stages[0]));
    assert.eq({meta: 1, "control.max.t": -1, "control.min.t": -1}, scan.keyPattern);
    assertSameResults(p);
    // A sub-field key with a filter on another meta field is not constant per group.
    const q = [{$match: {"m.k": 1}}].concat(latestBySeries);
    assert.eq(null, distinctScan(explain(q)));
    assertSameResults(q);
}

function measurementFilterBlocksIt() {
    const p = [{$match: {x: {$gte: 0}}}].concat(latestBySeries);
    assert.eq(null, distinctScan(explain(p)));
    assertSameResults(p);
}

setUp();
minTimeIndexIsNotUsed();
maxTimeIndexGivesDistinctScan();
otherShapesUseTheIndex();
wholeMetaKeyWithMetaFilter();
measurementFilterBlocksIt();
