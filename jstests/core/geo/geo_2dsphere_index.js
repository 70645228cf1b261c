/**
 * 2dsphere indexes: createIndexes/listIndexes (2dsphereIndexVersion: 3), geo keys rejected with
 * 16755 on insert/update and at index build, documents without the field are accepted, and
 * unsupported index kinds are refused.
 */
const coll = db[jsTestName()];
coll.drop();

assert.commandWorked(coll.insert([{_id: 1, loc: {type: "Point", coordinates: [1, 2]}}, {_id: 2}]));
assert.commandWorked(coll.createIndex({loc: "2dsphere"}));
const idx = coll.getIndexes().find(i => i.name === "loc_2dsphere");
assert(idx, tojson(coll.getIndexes()));
assert.docEq({loc: "2dsphere"}, idx.key);
assert.eq(3, idx["2dsphereIndexVersion"], tojson(idx));

// Not geo: rejected.
let res = coll.insert({_id: 3, loc: {type: "Point", coordinates: [190, 0]}});
assert.writeErrorWithCode(res, 16755);
assert(res.getWriteError().errmsg.includes("Can't extract geo keys"), tojson(res));
assert.writeErrorWithCode(coll.insert({_id: 4, loc: {type: "Point", coordinates: ["a", 0]}}), 16755);
assert.writeErrorWithCode(coll.insert({_id: 5, loc: "x"}), 16755);
assert.writeErrorWithCode(
    coll.insert({_id: 6, loc: {type: "Polygon", coordinates: [[[0, 0], [1, 1], [0, 0], [0, 0]]]}}), 16755);
assert.writeErrorWithCode(coll.update({_id: 1}, {$set: {loc: [500, 500]}}), 16755);
assert.eq({type: "Point", coordinates: [1, 2]}, coll.findOne({_id: 1}).loc);

// Accepted: missing, null, legacy pair, every GeoJSON type.
assert.commandWorked(coll.insert([
    {_id: 10, loc: null},
    {_id: 11, loc: [3, 4]},
    {_id: 12, loc: {type: "MultiPoint", coordinates: [[1, 1], [2, 2]]}},
    {_id: 13, loc: {type: "GeometryCollection", geometries: [{type: "Point", coordinates: [1, 1]}]}},
]));
assert.eq(6, coll.count());

// Index build over bad documents fails with 16755.
const other = db[jsTestName() + "_build"];
other.drop();
assert.commandWorked(other.insert({loc: {type: "Point", coordinates: [0, 100]}}));
assert.commandFailedWithCode(other.createIndex({loc: "2dsphere"}), 16755);

// Compound with an ordinary field; the btree planner does not use geo indexes for equality.
assert.commandWorked(other.remove({}));
assert.commandWorked(other.createIndex({a: 1, loc: "2dsphere"}));
assert.commandWorked(other.insert([{a: 1, loc: [1, 1]}, {a: 1, loc: [2, 2]}, {a: 2}]));
assert.eq(2, other.find({a: 1}).itcount());
assert.eq(1, other.find({loc: [1, 1]}).itcount());

assert.commandFailedWithCode(other.createIndex({x: "foo"}), ErrorCodes.CannotCreateIndex);
