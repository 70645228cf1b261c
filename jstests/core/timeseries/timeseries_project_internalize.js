/**
 * Projection internalisation (spec §5.4): an inclusion or exclusion $project of top-level
 * fields right after the unpacking is absorbed into $_internalUnpackBucket's include/exclude
 * list and disappears from explain; computed or dotted projections stay. Results, including
 * the field order of each document, equal those of the unoptimised pipeline.
 */
const ts = db[jsTestName() + "_ts"];
const base = ISODate("2024-02-01T00:00:00Z").getTime();

function setUp() {
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 300; i++) {
        const d = {_id: i, t: new Date(base + i * 60 * 1000), m: {host: "h" + (i % 3)}};
        if (i % 4 != 0)
            d.x = i;
        if (i % 3 == 0)
            d.y = {a: i, b: "s" + i};
        d.z = i % 7;
        docs.push(d);
    }
    assert.commandWorked(ts.insertMany(docs));
}

function unpackOf(pipeline) {
    const e = ts.explain("queryPlanner").aggregate(pipeline);
    assert(e.stages, tojson(e));
    return {names: e.stages.map(s => Object.keys(s)[0]),
            unpack: e.stages.find(s => s.$_internalUnpackBucket).$_internalUnpackBucket};
}

/** Results with the rewrites off: the view pipeline, $_internalInhibitOptimization, then `p`. */
function unoptimised(p) {
    const view = db.system.views.findOne({_id: ts.getFullName()});
    return db.getCollection("system.buckets." + ts.getName())
        .aggregate(view.pipeline.concat([{$_internalInhibitOptimization: {}}], p))
        .toArray();
}

/** Same documents in the same order with the same field order (tojson keeps key order). */
function assertSameExactly(p) {
    const sortById = (docs) => docs.map(d => tojson(d)).sort();
    assert.eq(sortById(unoptimised(p)), sortById(ts.aggregate(p).toArray()), tojson(p));
}

function inclusionIsAbsorbed() {
    const p = [{$project: {x: 1, m: 1}}];
    const {names, unpack} = unpackOf(p);
    assert(!names.includes("$project"), tojson(names));
    assert.eq(["_id", "m", "x"], unpack.include, tojson(unpack));
    assertSameExactly(p);
    assertSameExactly([{$project: {_id: 0, t: 1, y: true}}]);
}

function exclusionIsAbsorbed() {
    const p = [{$project: {m: 0, y: 0}}];
    const {names, unpack} = unpackOf(p);
    assert(!names.includes("$project"), tojson(names));
    assert.eq(["m", "y"], unpack.exclude, tojson(unpack));
    assertSameExactly(p);
    assertSameExactly([{$project: {_id: 0}}]);
    assertSameExactly([{$unset: ["x", "t"]}]);
}

function computedOrDottedProjectionStays() {
    for (const p of [[{$project: {"y.a": 1, x: 1}}], [{$project: {x: 1, w: {$add: ["$z", 1]}}}]]) {
        const {names} = unpackOf(p);
        assert(names.includes("$project"), tojson(names));
        assertSameExactly(p);
    }
}

function filterOnAnExcludedFieldKeepsTheProjection() {
    const p = [{$match: {z: {$gte: 3}}}, {$project: {x: 1}}];
    const {names, unpack} = unpackOf(p);
    assert(names.includes("$project"), tojson(names));
    assert(unpack.eventFilter, tojson(unpack));
    assertSameExactly(p);
    const q = [{$match: {x: {$gte: 100}}}, {$project: {x: 1, t: 1}}];
    assert(!unpackOf(q).names.includes("$project"));
    assertSameExactly(q);
}

function timeSortStillBoundedAfterProjection() {
    const p = [{$project: {t: 1, x: 1}}, {$sort: {t: -1}}, {$limit: 5}];
    const {names} = unpackOf(p);
    assert(names.includes("$_internalBoundedSort"), tojson(names));
    assert.eq(unoptimised(p), ts.aggregate(p).toArray());
}

setUp();
inclusionIsAbsorbed();
exclusionIsAbsorbed();
computedOrDottedProjectionStays();
filterOnAnExcludedFieldKeepsTheProjection();
timeSortStillBoundedAfterProjection();
