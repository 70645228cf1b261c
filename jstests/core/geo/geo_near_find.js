/**
 * find with $near / $nearSphere on a 2dsphere index: distance order, $maxDistance /
 * $minDistance in both operand forms, the rest of the filter, sort/limit/projection, and the
 * "unable to find index" error (291) without an index or for legacy $near (2d only).
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.insert([
    {_id: 1, loc: {type: "Point", coordinates: [0, 3]}, k: 1},
    {_id: 2, loc: {type: "Point", coordinates: [0, 1]}, k: 1},
    {_id: 3, loc: [0, 2], k: 2},
    {_id: 4, k: 1},
]));
const point = {type: "Point", coordinates: [0, 0]};
assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {loc: {$near: {$geometry: point}}}}),
                             ErrorCodes.NoQueryExecutionPlans);
assert.commandWorked(coll.createIndex({loc: "2dsphere"}));

const ids = (filter, opts) => {
    let c = coll.find(filter);
    if (opts && opts.limit) c = c.limit(opts.limit);
    if (opts && opts.sort) c = c.sort(opts.sort);
    return c.toArray().map(d => d._id);
};
assert.eq([2, 3, 1], ids({loc: {$near: {$geometry: point}}}));
assert.eq([2, 3, 1], ids({loc: {$nearSphere: {$geometry: point}}}));
assert.eq([2, 3], ids({loc: {$near: {$geometry: point, $maxDistance: 250000}}}));
assert.eq([3], ids({loc: {$near: {$geometry: point, $maxDistance: 250000, $minDistance: 150000}}}));
assert.eq([2, 1], ids({loc: {$near: {$geometry: point}}, k: 1}));
assert.eq([2], ids({loc: {$near: {$geometry: point}}}, {limit: 1}));
assert.eq([3, 1, 2], ids({loc: {$near: {$geometry: point}}}, {sort: {k: -1, _id: 1}}));
// Legacy $nearSphere: radians.
assert.eq([2, 3], ids({loc: {$nearSphere: [0, 0], $maxDistance: 2.5 * Math.PI / 180}}));
// The distance field does not leak.
assert.eq(undefined, coll.findOne({loc: {$near: {$geometry: point}}}).__geoNearDistance);
assert.eq({_id: 2}, coll.find({loc: {$near: {$geometry: point}}}, {_id: 1}).limit(1).next());
// Legacy $near needs a 2d index.
assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {loc: {$near: [0, 0]}}}),
                             ErrorCodes.NoQueryExecutionPlans);
