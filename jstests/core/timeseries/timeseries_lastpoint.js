/**
 * The last-point rewrite (spec §5.4): a $sort on meta + time followed by a $group taking
 * $first/$last per series (or a $group with $top/$bottom on time) selects candidate buckets
 * before unpacking — latest: bucket $sort on control.max.<t> and $group {$first: "$$ROOT"};
 * earliest: buckets whose control.min.<t> is at most the group's smallest control.max.<t>.
 * Results equal the same pipeline over a plain collection, also after deletes.
 */
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];
const base = ISODate("2024-04-01T00:00:00Z").getTime();

function setUp() {
    ts.drop();
    plain.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 3000; i++) {
        // Out-of-order distinct times, four series and one without meta; buckets roll over.
        const d = {_id: i, t: new Date(base + ((i * 7919) % 3000) * 60 * 1000 + (i % 60) * 1000)};
        if (i % 5 != 4)
            d.m = {s: "s" + (i % 5), k: i % 2};
        if (i % 3 != 0)
            d.x = i;
        docs.push(d);
    }
    assert.commandWorked(ts.insertMany(docs, {ordered: false}));
    assert.commandWorked(plain.insertMany(docs));
}

load("jstests/libs/doc_compare.js");
const canon = canonicalDoc;

function assertSameResults(pipeline) {
    const a = ts.aggregate(pipeline).toArray().map(d => tojson(canon(d))).sort();
    const b = plain.aggregate(pipeline).toArray().map(d => tojson(canon(d))).sort();
    assert.eq(b, a, tojson(pipeline));
}

/** The stage names of the explain (the $cursor stage's find-layer sort shown as $sort). */
function explainStages(pipeline) {
    const e = ts.explain("queryPlanner").aggregate(pipeline);
    assert(e.stages, tojson(e));
    return e.stages;
}
const names = (stages) => stages.map(s => Object.keys(s)[0]);

const latest = [
    {$sort: {"m.s": 1, t: -1}},
    {$group: {_id: "$m.s", t: {$first: "$t"}, x: {$first: "$x"}}}
];
const earliest = [
    {$sort: {"m.s": 1, t: 1}},
    {$group: {_id: "$m.s", t: {$first: "$t"}, x: {$first: "$x"}}}
];

function latestSelectsOneBucketPerSeries() {
    const stages = explainStages(latest);
    const s = tojson(stages);
    assert(s.includes("control.max.t"), s);
    assert(s.includes("$$ROOT"), s);
    const n = names(stages);
    assert.lt(n.indexOf("$replaceRoot"), n.indexOf("$_internalUnpackBucket"), s);
    assertSameResults(latest);
}

function earliestKeepsCandidateBuckets() {
    const stages = explainStages(earliest);
    const n = names(stages);
    assert.lt(n.indexOf("$_internalSetWindowFields"), n.indexOf("$_internalUnpackBucket"), tojson(stages));
    assertSameResults(earliest);
}

function topAndBottomAreRewritten() {
    const top = [{$group: {_id: "$m", p: {$top: {sortBy: {t: -1}, output: ["$t", "$x"]}}}}];
    assert(names(explainStages(top)).includes("$replaceRoot"));
    assertSameResults(top);
    const bottom = [{$group: {_id: "$m.k", p: {$bottom: {sortBy: {t: -1}, output: "$t"}}}}];
    assert(names(explainStages(bottom)).includes("$_internalSetWindowFields"));
    assertSameResults(bottom);
}

function measurementFilterBlocksTheRewrite() {
    const p = [{$match: {x: {$gt: 100}}}].concat(latest);
    assert(!names(explainStages(p)).includes("$replaceRoot"));
    assertSameResults(p);
}

function metaFilterKeepsTheRewrite() {
    const p = [{$match: {"m.k": 1}}].concat(latest);
    assert(names(explainStages(p)).includes("$replaceRoot"));
    assertSameResults(p);
}

function resultsHoldAfterDeletes() {
    // Deleting each series' earliest and latest measurements leaves control.min.t stale.
    for (const pipeline of [earliest, latest]) {
        for (const d of plain.aggregate(pipeline).toArray()) {
            const q = {t: d.t};
            assert.commandWorked(ts.deleteMany(q));
            assert.commandWorked(plain.deleteMany(q));
        }
    }
    assertSameResults(earliest);
    assertSameResults(latest);
}

setUp();
latestSelectsOneBucketPerSeries();
earliestKeepsCandidateBuckets();
topAndBottomAreRewritten();
measurementFilterBlocksTheRewrite();
metaFilterKeepsTheRewrite();
resultsHoldAfterDeletes();
