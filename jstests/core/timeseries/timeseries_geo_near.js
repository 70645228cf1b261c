/**
 * $geoNear on a time-series view (spec §5.4): on the meta field (a $geoNearCursor on
 * meta.<path> before the unpack, shown by explain) and on a measurement field (with the
 * 2dsphere_bucket index, or named by `key` without any index, spherical or flat); results
 * equal those of a regular collection.
 */
const name = jsTestName();
const ts = db[name];
const plain = db[name + "_plain"];
ts.drop();
plain.drop();
assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t", metaField: "m"}}));

const t0 = ISODate("2024-01-01T00:00:00Z");
const docs = [];
for (let i = 0; i < 40; i++) {
    docs.push({
        _id: i,
        t: new Date(t0.getTime() + i * 1000),
        m: {loc: {type: "Point", coordinates: [i % 4, 0]}},
        loc: {type: "Point", coordinates: [0, i * 0.25]},
        v: i,
    });
}
assert.commandWorked(ts.insert(docs));
assert.commandWorked(plain.insert(docs));

const near = {type: "Point", coordinates: [0, 0]};
function run(coll, spec, extra) {
    return coll.aggregate([{$geoNear: spec}, {$project: {_id: 1, d: 1}}].concat(extra || []))
        .toArray();
}

// Without a geo index: IndexNotFound.
assert.commandFailedWithCode(
    db.runCommand({aggregate: name, cursor: {}, pipeline: [{$geoNear: {near: near, distanceField: "d"}}]}),
    ErrorCodes.IndexNotFound);

// A measurement field named by `key` needs no index: distances from the unpacked measurements,
// spherical (GeoJSON near) or flat (legacy near) as on a collection that has the index.
{
    const legacy = db[name + "_legacy"];
    legacy.drop();
    assert.commandWorked(legacy.createIndex({loc: "2d"}));
    const tsLegacy = db[name + "_ts_legacy"];
    tsLegacy.drop();
    assert.commandWorked(db.createCollection(tsLegacy.getName(), {timeseries: {timeField: "t"}}));
    const pts = docs.map(d => ({_id: d._id, t: d.t, loc: [d._id % 7, d._id * 0.5]}));
    assert.commandWorked(legacy.insert(pts));
    assert.commandWorked(tsLegacy.insert(pts));
    const flat = {near: [1, 1], key: "loc", distanceField: "d", maxDistance: 6};
    const flatTs = run(tsLegacy, flat);
    assert.gt(flatTs.length, 0);
    assert.eq(run(legacy, flat), flatTs);
    assert.commandWorked(plain.createIndex({loc: "2dsphere"}));
    const sphere = {near: near, key: "loc", distanceField: "d", maxDistance: 300000};
    const sphereTs = run(ts, sphere);
    assert.gt(sphereTs.length, 0);
    assert.eq(run(plain, sphere), sphereTs);
    assert.commandWorked(plain.dropIndex({loc: "2dsphere"}));
}

// Meta field.
assert.commandWorked(ts.createIndex({"m.loc": "2dsphere"}));
assert.commandWorked(plain.createIndex({"m.loc": "2dsphere"}));
let spec = {near: near, distanceField: "d", key: "m.loc", maxDistance: 250000, query: {v: {$gte: 5}}};
let a = run(ts, spec, [{$sort: {d: 1, _id: 1}}]);
let b = run(plain, spec, [{$sort: {d: 1, _id: 1}}]);
assert.gt(a.length, 0);
assert.eq(b, a);
const explain = ts.explain().aggregate([{$geoNear: spec}]);
assert(tojson(explain).includes("$geoNearCursor"), tojson(explain));

// Measurement field.
assert.commandWorked(ts.createIndex({loc: "2dsphere"}));
assert.commandWorked(plain.createIndex({loc: "2dsphere"}));
spec = {near: near, distanceField: "d", key: "loc", maxDistance: 500000, minDistance: 10000};
a = run(ts, spec);
b = run(plain, spec);
assert.gt(a.length, 0);
assert.eq(b, a);
for (let i = 1; i < a.length; i++)
    assert.lte(a[i - 1].d, a[i].d);

// Two geo indexes and no key.
assert.commandFailedWithCode(
    db.runCommand({aggregate: name, cursor: {}, pipeline: [{$geoNear: {near: near, distanceField: "d"}}]}),
    ErrorCodes.IndexNotFound);

// find with $near / $nearSphere through the view is refused (as on any view: its $match
// cannot sort by distance); the $geoNear stage is the way.
for (const op of ["$near", "$nearSphere"]) {
    const nearFind = {loc: {[op]: {$geometry: near, $maxDistance: 300000}}};
    assert.commandFailedWithCode(db.runCommand({find: name, filter: nearFind}), 5626500);
}
