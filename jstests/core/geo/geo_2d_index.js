/**
 * 2d indexes: key pattern and option rules (2d first, one geo field, bits), legacy points keyed
 * and range-checked on write (13027, 16804, 13026), documents without a location not indexed,
 * $near on a 2d index in flat distance order (find, count, $maxDistance), $nearSphere and
 * $geoNear through it, $geoWithin legacy shapes answered exactly, validate.
 */
const coll = db[jsTestName()];
coll.drop();

// Key pattern and options.
function createFails(key, options, code) {
    const spec = Object.assign({key: key, name: "x"}, options);
    assert.commandFailedWithCode(
        db.runCommand({createIndexes: coll.getName(), indexes: [spec]}), code, tojson(spec));
}
createFails({a: 1, loc: "2d"}, {}, 16801);
createFails({loc: "2d", other: "2dsphere"}, {}, 16800);
createFails({loc: "2d"}, {bits: 33}, 16803);
createFails({loc: "2d"}, {bits: 0}, 16803);

assert.commandWorked(coll.insert([
    {_id: 1, loc: [0.25, 0.35], k: 1},
    {_id: 2, loc: {x: 1, y: 1}, k: 2},
    {_id: 3, loc: [10, 10], k: 1},
    {_id: 4, k: 2},
    {_id: 5, loc: [[2, 2], [-20, 0]], k: 1},
    {_id: 6, loc: "not a location", k: 1},
]));
assert.commandWorked(coll.createIndex({loc: "2d", k: 1}));

// Documents without a location are not in the index.
assert.eq([1, 2, 3, 5], coll.find().hint({loc: "2d", k: 1}).toArray().map(d => d._id).sort());

// Writes that are not legacy points inside [-180, 180).
assert.writeErrorWithCode(coll.insert({_id: 10, loc: [200, 0]}), 13027);
assert.writeErrorWithCode(coll.insert({_id: 11, loc: ["a", 0]}), 13026);
assert.writeErrorWithCode(coll.insert({_id: 12, loc: [[1, 2], 3]}), 16804);
assert.writeErrorWithCode(coll.update({_id: 1}, {$set: {loc: [0, 180]}}), 13027);
assert.eq(6, coll.count());

// $near: flat distance order; count and $maxDistance.
function ids(filter) {
    return coll.find(filter).toArray().map(d => d._id);
}
assert.eq([1, 2, 5, 3], ids({loc: {$near: [0, 0]}}));
assert.eq(4, coll.find({loc: {$near: [0, 0]}}).count());
assert.eq([1, 2], ids({loc: {$near: [0, 0], $maxDistance: 2}}));
assert.eq([1, 5, 3], ids({loc: {$near: [0, 0]}, k: 1}));
assert.eq([3, 5, 2, 1], ids({loc: {$near: [20, 20]}}));
// $nearSphere with a legacy point: spherical distance in radians.
assert.eq([1, 2], ids({loc: {$nearSphere: [0, 0], $maxDistance: 2 * Math.PI / 180}}));
// $geoNear through the 2d index: flat distances.
const near = coll.aggregate([{$geoNear: {near: [0, 0], distanceField: "d", key: "loc"}}]).toArray();
assert.eq([1, 2, 5, 3], near.map(d => d._id));
assert.close(Math.sqrt(2), near[1].d);
// GeoJSON points need a 2dsphere index.
assert.commandFailedWithCode(
    db.runCommand({find: coll.getName(), filter: {loc: {$near: {$geometry: {type: "Point", coordinates: [0, 0]}}}}}),
    ErrorCodes.NoQueryExecutionPlans);

// $geoWithin on legacy shapes: exact whatever the index.
assert.eq([1, 2, 5], ids({loc: {$geoWithin: {$box: [[0, 0], [3, 3]]}}}).sort());
assert.eq([1, 2], ids({loc: {$geoWithin: {$center: [[0, 0], 1.5]}}}).sort());

// Custom grid.
const other = db[jsTestName() + "_grid"];
other.drop();
assert.commandWorked(other.createIndex({p: "2d"}, {min: -500, max: 500, bits: 32}));
assert.commandWorked(other.insert({_id: 1, p: [400, -400]}));
assert.writeErrorWithCode(other.insert({_id: 2, p: [500, 0]}), 13027);
assert.eq(1, other.find().hint({p: "2d"}).itcount());

assert(coll.validate({full: true}).valid);
assert(other.validate({full: true}).valid);

// $geoNear without key needs a geo index: a hashed or text index is not one.
const hashedOnly = db[jsTestName() + "_hashed"];
hashedOnly.drop();
assert.commandWorked(hashedOnly.insert({_id: 1, h: {x: 1, y: 1}}));
assert.commandWorked(hashedOnly.createIndex({h: "hashed"}));
assert.commandFailedWithCode(
    db.runCommand({aggregate: hashedOnly.getName(),
                   pipeline: [{$geoNear: {near: [0, 0], distanceField: "d"}}], cursor: {}}),
    ErrorCodes.IndexNotFound);
