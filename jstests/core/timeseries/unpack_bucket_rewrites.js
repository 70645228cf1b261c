/**
 * The $_internalUnpackBucket rewrites of spec §5.4, one scenario each: the explain shape of
 * the rewritten pipeline and results equal to the same pipeline over a plain collection.
 */
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];
const base = ISODate("2024-02-01T00:00:00Z").getTime();

function setUp() {
    ts.drop();
    plain.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 600; i++) {
        const d = {_id: i, t: new Date(base + ((i * 37) % 600) * 60 * 1000 + i), m: {host: "h" + (i % 4)}};
        if (i % 5 != 0)
            d.x = i % 11 == 0 ? null : (i * 7) % 101;
        docs.push(d);
    }
    assert.commandWorked(ts.insertMany(docs));
    assert.commandWorked(plain.insertMany(docs));
}

/** The explain stages, with the $cursor stage reduced to its winning plan. */
function stagesOf(pipeline) {
    const e = ts.explain("queryPlanner").aggregate(pipeline);
    assert(e.stages, tojson(e));
    return e.stages.map(s => s.$cursor ? {$cursor: s.$cursor.queryPlanner.winningPlan} : s);
}
const names = (stages) => stages.map(s => Object.keys(s)[0]);

function planHas(plan, pred) {
    if (!plan)
        return false;
    return pred(plan) || planHas(plan.inputStage, pred);
}

load("jstests/libs/doc_compare.js");
const canon = canonicalDoc;

function assertSameResults(pipeline, ordered) {
    let a = ts.aggregate(pipeline).toArray().map(d => tojson(canon(d)));
    let b = plain.aggregate(pipeline).toArray().map(d => tojson(canon(d)));
    if (!ordered) {
        a.sort();
        b.sort();
    }
    assert.eq(b, a, tojson(pipeline));
}

function metaSortMovesBeforeUnpack() {
    const p = [{$sort: {"m.host": -1}}, {$limit: 3}, {$project: {_id: 0, m: 1}}];
    const stages = stagesOf(p);
    assert.eq(["$cursor", "$_internalUnpackBucket", "$limit", "$project"], names(stages), tojson(stages));
    assert(planHas(stages[0].$cursor, s => s.stage == "SORT" && bsonWoCompare(s.sortPattern, {"meta.host": -1}) == 0),
           tojson(stages[0]));
    assertSameResults(p, true);
}

function limitCopiedBeforeUnpack() {
    const p = [{$limit: 9}];
    const stages = stagesOf(p);
    assert.eq(["$cursor", "$_internalUnpackBucket", "$limit"], names(stages), tojson(stages));
    assert(planHas(stages[0].$cursor, s => s.stage == "LIMIT"), tojson(stages[0]));
    assert.eq(9, ts.aggregate(p).itcount());
    // A measurement filter in between keeps the limit after unpacking only.
    const filtered = stagesOf([{$match: {x: {$gt: 50}}}, {$limit: 9}]);
    assert(!planHas(filtered[0].$cursor, s => s.stage == "LIMIT"), tojson(filtered));
    assertSameResults([{$match: {x: {$gt: 50}}}, {$limit: 9}, {$count: "n"}], true);
}

function countFromControlCount() {
    for (const p of [[{$count: "n"}], [{$match: {"m.host": "h1"}}, {$count: "n"}],
                     [{$group: {_id: "$m.host", n: {$sum: 1}}}]]) {
        const stages = stagesOf(p);
        assert(!names(stages).includes("$_internalUnpackBucket"), tojson(stages));
        const group = stages.find(s => s.$group).$group;
        assert(tojson(group).includes("$control.count"), tojson(group));
        assertSameResults(p, false);
    }
    // A filter on measurements needs the events: no rewrite.
    const p = [{$match: {x: {$gte: 10}}}, {$count: "n"}];
    assert(names(stagesOf(p)).includes("$_internalUnpackBucket"));
    assertSameResults(p, true);
}

function groupMinMaxFromControl() {
    const p = [{$group: {_id: "$m.host", lo: {$min: "$x"}, hi: {$max: "$x"}, last: {$max: "$t"}}}];
    const stages = stagesOf(p);
    assert(!names(stages).includes("$_internalUnpackBucket"), tojson(stages));
    assert.docEq({_id: "$meta.host", lo: {$min: "$control.min.x"}, hi: {$max: "$control.max.x"},
                  last: {$max: "$control.max.t"}},
                 stages.find(s => s.$group).$group);
    assertSameResults(p, false);
    // $min of the time field cannot use the rounded control.min.t.
    const q = [{$group: {_id: "$m.host", first: {$min: "$t"}}}];
    assert(names(stagesOf(q)).includes("$_internalUnpackBucket"));
    assertSameResults(q, false);
}

function boundedSortOnTime() {
    const asc = [{$sort: {t: 1}}];
    let stages = stagesOf(asc);
    const sortStage = stages.find(s => s.$_internalBoundedSort);
    assert(sortStage, tojson(stages));
    assert.docEq({sortKey: {t: 1}, bound: {base: "min"}}, sortStage.$_internalBoundedSort);
    // Bucket _id order is bucket start order: a scan in cluster key order, no blocking sort.
    assert(!planHas(stages[0].$cursor, s => s.stage == "SORT"), tojson(stages[0]));
    assert(planHas(stages[0].$cursor, s => s.stage == "COLLSCAN" && s.direction == "forward"),
           tojson(stages[0]));
    // An exact bound (min order, ascending) needs no check of the buckets' span.
    assert(!stages.find(s => s.$match), tojson(stages));
    assertSameResults(asc, true);

    const desc = [{$sort: {t: -1}}, {$limit: 20}];
    stages = stagesOf(desc);
    assert.docEq({sortKey: {t: -1}, bound: {base: "min", offsetSeconds: 3600}, limit: 20},
                 stages.find(s => s.$_internalBoundedSort).$_internalBoundedSort);
    assert(planHas(stages[0].$cursor, s => s.stage == "COLLSCAN" && s.direction == "backward"),
           tojson(stages[0]));
    // The bound min + span holds only for buckets spanning at most the span: they are checked
    // before unpacking, by a $match after the find layer.
    assert.eq(["$cursor", "$match", "$_internalUnpackBucket", "$_internalBoundedSort"],
              names(stages), tojson(stages));
    assert.docEq({
        $expr: {
            $lte: [{$subtract: ["$control.max.t", "$control.min.t"]}, {$const: NumberLong(3600000)}]
        }
    },
                 stages[1].$match);
    assertSameResults(desc, true);
    // The hint {$natural: -1} reverses the buckets' scan; explain shows the plan that runs.
    const hinted = ts.explain("queryPlanner").aggregate([], {hint: {$natural: -1}});
    assert(planHas(hinted.stages[0].$cursor.queryPlanner.winningPlan,
                   s => s.stage == "COLLSCAN" && s.direction == "backward"),
           tojson(hinted.stages[0]));

    // Meta and time: only when an index gives the buckets in that order (as upstream);
    // otherwise the plain $sort stays.
    const metaTime = [{$match: {x: {$ne: null}}}, {$sort: {"m.host": 1, t: -1}}];
    stages = stagesOf(metaTime);
    assert(!stages.find(s => s.$_internalBoundedSort), tojson(stages));
    assert(stages.find(s => s.$sort), tojson(stages));
    assertSameResults(metaTime, true);
    // {m.host: 1, t: -1} on the buckets is {meta.host: 1, control.max.t: -1, ...}: buckets in
    // control.max order, so the bound is on max (no offset when descending).
    assert.commandWorked(ts.createIndex({"m.host": 1, t: -1}));
    stages = stagesOf(metaTime);
    assert.docEq({sortKey: {"m.host": 1, t: -1}, bound: {base: "max"}},
                 stages.find(s => s.$_internalBoundedSort).$_internalBoundedSort, tojson(stages));
    assert(!planHas(stages[0].$cursor, s => s.stage == "SORT"), tojson(stages[0]));
    assertSameResults(metaTime, true);
    // Ascending time over the same index scanned backward: control.max order again, the bound
    // one span below it.
    const metaTimeAsc = [{$match: {x: {$ne: null}}}, {$sort: {"m.host": -1, t: 1}}];
    stages = stagesOf(metaTimeAsc);
    assert.docEq({sortKey: {"m.host": -1, t: 1}, bound: {base: "max", offsetSeconds: -3600}},
                 stages.find(s => s.$_internalBoundedSort).$_internalBoundedSort, tojson(stages));
    assertSameResults(metaTimeAsc, true);
    assert.commandWorked(ts.dropIndex({"m.host": 1, t: -1}));
    // {m.host: 1, t: 1} gives control.min order: bound on min.
    assert.commandWorked(ts.createIndex({"m.host": 1, t: 1}));
    const metaTimeMin = [{$match: {x: {$ne: null}}}, {$sort: {"m.host": 1, t: 1}}];
    stages = stagesOf(metaTimeMin);
    assert.docEq({sortKey: {"m.host": 1, t: 1}, bound: {base: "min"}},
                 stages.find(s => s.$_internalBoundedSort).$_internalBoundedSort, tojson(stages));
    assert(!planHas(stages[0].$cursor, s => s.stage == "SORT"), tojson(stages[0]));
    assertSameResults(metaTimeMin, true);
    assert.commandWorked(ts.dropIndex({"m.host": 1, t: 1}));
}

function computedMetaProjectionMovesBeforeUnpack() {
    const p = [{$addFields: {h: {$toUpper: "$m.host"}}}, {$match: {h: "H2"}}];
    let stages = stagesOf(p);
    assert.eq(["$cursor", "$addFields", "$match", "$_internalUnpackBucket"], names(stages),
              tojson(stages));
    assert.docEq({h: {$toUpper: ["$meta.host"]}}, stages[1].$addFields);
    assert.docEq({h: "H2"}, stages[2].$match);
    const unpack = stages[3].$_internalUnpackBucket;
    assert.eq(["h"], unpack.computedMetaProjFields, tojson(unpack));
    assert(!unpack.eventFilter, tojson(unpack));
    assertSameResults(p, false);

    // A meta predicate in the same $match still reaches the find layer ahead of $addFields.
    const q = [{$addFields: {h: "$m.host"}}, {$match: {h: "h1", "m.host": {$ne: "h0"}}}];
    stages = stagesOf(q);
    assert.eq(["$cursor", "$addFields", "$match", "$_internalUnpackBucket"], names(stages),
              tojson(stages));
    assert(tojson(stages[0]).includes("meta.host"), tojson(stages[0]));
    assertSameResults(q, false);

    // $project: the computed meta field moves; the rest of the projection stays.
    const r = [{$project: {_id: 0, x: 1, h: "$m.host"}}];
    stages = stagesOf(r);
    assert.eq(["$cursor", "$addFields", "$_internalUnpackBucket", "$project"], names(stages),
              tojson(stages));
    assert.docEq({_id: false, x: true, h: true}, stages[3].$project);
    assertSameResults(r, false);

    // Reading a measurement, the time field or $$ROOT keeps the stage after unpacking.
    for (const spec of [{h: {$concat: ["$m.host", "$x"]}}, {h: "$t"}, {h: "$$ROOT"}]) {
        stages = stagesOf([{$addFields: spec}]);
        assert.eq(["$cursor", "$_internalUnpackBucket", "$addFields"], names(stages),
                  tojson(stages));
    }
    // Names of the bucket, time or meta field are never computed per bucket.
    for (const name of ["t", "m", "_id", "control", "meta", "data"]) {
        stages = stagesOf([{$addFields: {[name]: "$m.host"}}]);
        assert(!stages.find(s => s.$_internalUnpackBucket &&
                                 s.$_internalUnpackBucket.computedMetaProjFields),
               tojson(stages));
    }
}

setUp();
metaSortMovesBeforeUnpack();
limitCopiedBeforeUnpack();
countFromControlCount();
groupMinMaxFromControl();
boundedSortOnTime();
computedMetaProjectionMovesBeforeUnpack();
