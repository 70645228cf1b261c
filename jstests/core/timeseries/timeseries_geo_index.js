/**
 * A 2dsphere index on a time-series measurement (a {data.<f>: "2dsphere_bucket"} index on the
 * buckets) serves the bucket-level $_internalBucketGeoWithin predicate: FETCH + IXSCAN on the
 * bucket index (spec §5.4), for $geoWithin/$geoIntersects and for $geoNear with maxDistance.
 * Results equal those of a regular collection holding the same documents (differential), and
 * $geoNear with maxDistance equals $geoNear without it, cut at that distance.
 */
load("jstests/libs/query_helpers.js");
const name = jsTestName();
const ts = db[name];
const plain = db[name + "_plain"];

const rand = seededRandom(777).unit;  // same data on every run
function between(lo, hi) {
    return lo + (hi - lo) * rand();
}

function bucketPlan(pipeline) {
    const explain = ts.explain().aggregate(pipeline);
    return planStages(explain.stages[0]["$cursor"].queryPlanner.winningPlan);
}

function setUp() {
    ts.drop();
    plain.drop();
    assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    const t0 = ISODate("2024-01-01T00:00:00Z");
    for (let i = 0; i < 400; i++) {
        const x = between(-20, 20), y = between(-20, 20);
        const d = {_id: i, t: new Date(t0.getTime() + i * 60000), m: i % 8};
        if (i % 9 !== 4)
            d.loc = (i % 2) ? {type: "Point", coordinates: [x, y]} : [x, y];
        docs.push(d);
    }
    assert.commandWorked(ts.insert(docs));
    assert.commandWorked(plain.insert(docs));
    assert.commandWorked(ts.createIndex({loc: "2dsphere"}));
}

function triangle(cx, cy, s) {
    const a = [cx - s, cy - s];
    return {type: "Polygon", coordinates: [[a, [cx + s, cy - s / 2], [cx, cy + s], a]]};
}

function findResultsEqualARegularCollection() {
    for (let i = 0; i < 20; i++) {
        const cx = between(-20, 20), cy = between(-20, 20), s = between(1, 10);
        for (const q of [{loc: {$geoWithin: {$geometry: triangle(cx, cy, s)}}},
                         {loc: {$geoIntersects: {$geometry: triangle(cx, cy, s)}}},
                         {loc: {$geoWithin: {$centerSphere: [[cx, cy], s / 57.3]}}},
                         {m: i % 8, loc: {$geoWithin: {$centerSphere: [[cx, cy], s / 57.3]}}}]) {
            const a = ts.find(q).toArray().map(d => d._id).sort((x, y) => x - y);
            const b = plain.find(q).toArray().map(d => d._id).sort((x, y) => x - y);
            assert.eq(b, a, tojson(q));
        }
    }
}

function explainShowsTheBucketIndexScan() {
    const stages = bucketPlan([{$match: {loc: {$geoWithin: {$centerSphere: [[1, 1], 0.05]}}}}]);
    assert.eq(["FETCH", "IXSCAN"], stages.map(s => s.stage), tojson(stages));
    assert(tojson(stages[0].filter).includes("$_internalBucketGeoWithin"), tojson(stages[0]));
    assert.eq({"data.loc": "2dsphere_bucket"}, stages[1].keyPattern);
    for (const b of stages[1].indexBounds["data.loc"])
        assert(/^\[-?\d+, -?\d+\]$/.test(b), b);

    const near = bucketPlan([{$geoNear: {near: {type: "Point", coordinates: [1, 1]}, distanceField: "d",
                                         maxDistance: 200000}}]);
    assert.eq(["FETCH", "IXSCAN"], near.map(s => s.stage), tojson(near));
}

function geoNearWithMaxDistanceEqualsTheCutFullScan() {
    const plainIndexed = db[name + "_near"];
    plainIndexed.drop();
    assert.commandWorked(plainIndexed.insert(plain.find().toArray()));
    assert.commandWorked(plainIndexed.createIndex({loc: "2dsphere"}));
    for (let i = 0; i < 10; i++) {
        const near = {type: "Point", coordinates: [between(-20, 20), between(-20, 20)]};
        const max = between(50000, 900000);
        const all = plainIndexed.aggregate([{$geoNear: {near, distanceField: "d"}}]).toArray();
        const want = all.filter(d => d.d <= max).map(d => d._id).sort((x, y) => x - y);
        const sorted = r => r.map(d => d._id).sort((x, y) => x - y);
        const stage = {$geoNear: {near, distanceField: "d", maxDistance: max}};
        const viaIndex = plainIndexed.aggregate([stage]).toArray();
        assert.eq(want, sorted(viaIndex), tojson(stage));
        for (let j = 1; j < viaIndex.length; j++)
            assert.lte(viaIndex[j - 1].d, viaIndex[j].d);
        assert.eq(want, sorted(ts.aggregate([stage]).toArray()), tojson(stage));
        // Legacy near point: distances in radians.
        const legacy = {$geoNear: {near: near.coordinates, distanceField: "d", maxDistance: max / 6378100}};
        assert.eq(want, sorted(plainIndexed.aggregate([legacy]).toArray()), tojson(legacy));
        // find $nearSphere with $maxDistance goes through the same path.
        const found = plainIndexed.find({loc: {$nearSphere: {$geometry: near, $maxDistance: max}}}).toArray();
        assert.eq(want, sorted(found));
    }
}

setUp();
findResultsEqualARegularCollection();
explainShowsTheBucketIndexScan();
geoNearWithMaxDistanceEqualsTheCutFullScan();
