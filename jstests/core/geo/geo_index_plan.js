/**
 * $geoWithin / $geoIntersects use a 2dsphere index: the plan is FETCH over an IXSCAN whose
 * bounds are S2 cell-id ranges ("[x, y]"), also inside $and, with compound indexes (geo field
 * first, or after an equality-bound field) and when hinted; results equal those of a
 * collection scan ({$natural: 1}) and of a collection without the index (differential over
 * random points, lines and polygons and random query polygons and caps).
 */
load("jstests/libs/query_helpers.js");
const indexed = db[jsTestName()];
const plain = db[jsTestName() + "_plain"];

function ixscanOf(explain) {
    return planStages(explain.queryPlanner.winningPlan).find(s => s.stage === "IXSCAN");
}

const rand = seededRandom(12345).unit;  // same data on every run
function between(lo, hi) {
    return lo + (hi - lo) * rand();
}

function randomTriangle(cx, cy, size) {
    // Counter-clockwise, so it is the small region whatever normalisation applies.
    const a = [cx - size, cy - size], b = [cx + size, cy - size * 0.5], c = [cx, cy + size];
    return {type: "Polygon", coordinates: [[a, b, c, a]]};
}

function randomDoc(i) {
    const x = between(-30, 30), y = between(-30, 30);
    const d = {_id: i, a: i % 4};
    switch (i % 6) {
        case 0: d.loc = [x, y]; break;
        case 1: d.loc = {type: "Point", coordinates: [x, y]}; break;
        case 2: d.loc = {type: "LineString", coordinates: [[x, y], [x + between(-3, 3), y + between(-3, 3)]]}; break;
        case 3: d.loc = randomTriangle(x, y, between(0.1, 2)); break;
        case 4: d.loc = {type: "MultiPoint", coordinates: [[x, y], [y, x]]}; break;
        default: if (i % 12 === 5) d.loc = null; break;  // missing or null: not indexed
    }
    return d;
}

const allDocs = [];
function randomDocAt(i) {
    return allDocs[i];
}

function setUp() {
    indexed.drop();
    plain.drop();
    const docs = allDocs;
    for (let i = 0; i < 600; i++)
        docs.push(randomDoc(i));
    assert.commandWorked(indexed.insert(docs));
    assert.commandWorked(plain.insert(docs));
    assert.commandWorked(indexed.createIndex({loc: "2dsphere"}));
}

function randomQueries() {
    const out = [];
    for (let i = 0; i < 25; i++) {
        const cx = between(-30, 30), cy = between(-30, 30), size = between(0.5, 15);
        const poly = randomTriangle(cx, cy, size);
        out.push({loc: {$geoWithin: {$geometry: poly}}});
        out.push({loc: {$geoIntersects: {$geometry: poly}}});
        out.push({loc: {$geoWithin: {$centerSphere: [[cx, cy], size / 57.3]}}});
        out.push({loc: {$geoIntersects: {$geometry: {type: "LineString", coordinates: [[cx, cy], [cx + size, cy + 1]]}}}});
        out.push({$and: [{a: i % 4}, {loc: {$geoWithin: {$geometry: poly}}}]});
    }
    // A point query, and a polygon holding every stored geometry.
    out.push({loc: {$geoIntersects: {$geometry: {type: "Point", coordinates: [0, 0]}}}});
    out.push({loc: {$geoWithin: {$geometry: {type: "Polygon", coordinates: [[[-60, -60], [60, -60], [60, 60], [-60, 60], [-60, -60]]]}}}});
    // Points exactly on stored points and on stored polygon vertices.
    for (let i = 0; i < 40; i++) {
        const d = randomDocAt(i);
        if (i % 6 === 0)
            out.push({loc: {$geoIntersects: {$geometry: {type: "Point", coordinates: d.loc}}}});
        if (i % 6 === 3)
            out.push({loc: {$geoIntersects: {$geometry: {type: "Point", coordinates: d.loc.coordinates[0][1]}}}});
    }
    return out;
}

function ids(cursor) {
    return cursor.toArray().map(d => d._id).sort((a, b) => a - b);
}

function resultsEqualCollectionScans() {
    for (const q of randomQueries()) {
        const viaIndex = ids(indexed.find(q));
        assert.eq(ids(plain.find(q)), viaIndex, tojson(q));
        assert.eq(ids(indexed.find(q).hint({$natural: 1})), viaIndex, tojson(q));
        assert.eq(ids(indexed.find(q).hint({loc: "2dsphere"})), viaIndex, tojson(q));
    }
}

function explainShowsCellRanges() {
    const q = {loc: {$geoWithin: {$centerSphere: [[1, 2], 0.05]}}};
    const explain = indexed.find(q).explain("executionStats");
    const stages = planStages(explain.queryPlanner.winningPlan).map(s => s.stage);
    assert.eq(["FETCH", "IXSCAN"], stages, tojson(explain));
    const ix = ixscanOf(explain);
    assert.eq({loc: "2dsphere"}, ix.keyPattern);
    assert.gt(ix.indexBounds.loc.length, 1, tojson(ix));
    for (const b of ix.indexBounds.loc)
        assert(/^\[-?\d+, -?\d+\]$/.test(b), b);
    // The filter is re-applied by FETCH; the scan reads far fewer documents than exist.
    assert.lt(explain.executionStats.totalDocsExamined, 300, tojson(explain.executionStats));
    assert.eq(ids(plain.find(q)).length, explain.executionStats.nReturned);

    // Inside $and with another predicate, and with a sort (a SORT stage on top).
    const withAnd = indexed.find({$and: [{a: 1}, q]}).sort({_id: -1}).explain();
    assert.eq(["SORT", "FETCH", "IXSCAN"], planStages(withAnd.queryPlanner.winningPlan).map(s => s.stage));
    // A planar shape cannot use the index.
    const flat = indexed.find({loc: {$geoWithin: {$box: [[0, 0], [5, 5]]}}}).explain();
    assert.eq(undefined, ixscanOf(flat));
}

function compoundIndexes() {
    assert.commandWorked(indexed.dropIndexes());
    assert.commandWorked(indexed.createIndex({loc: "2dsphere", a: 1}));
    const q = {loc: {$geoIntersects: {$geometry: randomTriangle(3, 3, 10)}}, a: 2};
    let ix = ixscanOf(indexed.find(q).explain());
    assert.eq({loc: "2dsphere", a: 1}, ix.keyPattern);
    assert.eq(["[MinKey, MaxKey]"], ix.indexBounds.a);
    assert.eq(ids(plain.find(q)), ids(indexed.find(q)));

    assert.commandWorked(indexed.dropIndexes());
    assert.commandWorked(indexed.createIndex({a: 1, loc: "2dsphere"}));
    ix = ixscanOf(indexed.find(q).explain());
    assert.eq({a: 1, loc: "2dsphere"}, ix.keyPattern);
    assert.eq(["[2, 2]"], ix.indexBounds.a);
    assert.eq(ids(plain.find(q)), ids(indexed.find(q)));
    // Without an equality on the leading field the index is not used.
    const geoOnly = {loc: q.loc};
    assert.eq(undefined, ixscanOf(indexed.find(geoOnly).explain()));
    assert.eq(ids(plain.find(geoOnly)), ids(indexed.find(geoOnly)));
}

setUp();
resultsEqualCollectionScans();
explainShowsCellRanges();
compoundIndexes();
