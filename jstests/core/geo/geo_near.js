/**
 * $geoNear: ordering, distances in meters (GeoJSON) or radians (legacy), min/maxDistance,
 * query, includeLocs, distanceMultiplier, key, and its errors (40602, IndexNotFound).
 */
const coll = db[jsTestName()];
coll.drop();

assert.commandWorked(coll.insert([
    {_id: 1, loc: {type: "Point", coordinates: [0, 0]}, k: "a"},
    {_id: 2, loc: {type: "Point", coordinates: [0, 1]}, k: "b"},
    {_id: 3, loc: [0, 2], k: "a"},
    {_id: 4, loc: {type: "Point", coordinates: [0, 10]}, k: "b"},
    {_id: 5, other: 1},
]));

// No index.
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), cursor: {},
                   pipeline: [{$geoNear: {near: {type: "Point", coordinates: [0, 0]}, distanceField: "d"}}]}),
    ErrorCodes.IndexNotFound);
assert.commandWorked(coll.createIndex({loc: "2dsphere"}));

const near = {type: "Point", coordinates: [0, 0.1]};
let out = coll.aggregate([{$geoNear: {near: near, distanceField: "dist"}}]).toArray();
assert.eq([1, 2, 3, 4], out.map(d => d._id));
const oneDegree = 6378.1 * 1000 * Math.PI / 180;
assert.close(0.1 * oneDegree, out[0].dist);
assert.close(0.9 * oneDegree, out[1].dist);

out = coll.aggregate([{$geoNear: {near: near, distanceField: "dist", maxDistance: 2 * oneDegree,
                                  minDistance: 0.5 * oneDegree, query: {k: "a"}, includeLocs: "where",
                                  distanceMultiplier: 2}}]).toArray();
assert.eq([3], out.map(d => d._id));
assert.eq([0, 2], out[0].where);
assert.close(2 * 1.9 * oneDegree, out[0].dist);

// Legacy near: radians.
out = coll.aggregate([{$geoNear: {near: [0, 0], distanceField: "x.d", spherical: true}}, {$limit: 2}]).toArray();
assert.eq([1, 2], out.map(d => d._id));
assert.close(Math.PI / 180, out[1].x.d);

// key, and two geo indexes.
assert.commandWorked(coll.createIndex({loc2: "2dsphere"}));
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), cursor: {},
                   pipeline: [{$geoNear: {near: near, distanceField: "d"}}]}),
    ErrorCodes.IndexNotFound);
assert.eq(4, coll.aggregate([{$geoNear: {near: near, distanceField: "d", key: "loc"}}]).itcount());

// Not first; missing options.
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), cursor: {},
                   pipeline: [{$match: {}}, {$geoNear: {near: near, distanceField: "d", key: "loc"}}]}),
    40602);
assert.commandFailed(db.runCommand({aggregate: coll.getName(), cursor: {},
                                    pipeline: [{$geoNear: {near: near, key: "loc"}}]}));
assert.commandFailed(db.runCommand({aggregate: coll.getName(), cursor: {},
                                    pipeline: [{$geoNear: {distanceField: "d", key: "loc"}}]}));
