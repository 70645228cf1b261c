/**
 * $geoWithin / $geoIntersects on GeoJSON and legacy points, with and without a 2dsphere index:
 * the same results either way, arrays of points, legacy shapes, and parse errors.
 */
const coll = db[jsTestName()];
coll.drop();

const square = {type: "Polygon", coordinates: [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]};
assert.commandWorked(coll.insert([
    {_id: 1, loc: {type: "Point", coordinates: [5, 5]}},
    {_id: 2, loc: [1, 1]},
    {_id: 3, loc: {type: "Point", coordinates: [50, 50]}},
    {_id: 4, loc: {type: "LineString", coordinates: [[5, 5], [20, 20]]}},
    {_id: 5, loc: [[40, 40], [2, 2]]},
    {_id: 6, loc: "not geo"},
    {_id: 7},
    {_id: 8, loc: {type: "Polygon", coordinates: [[[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]]]}},
]));

function ids(filter) {
    return coll.find(filter).sort({_id: 1}).toArray().map(d => d._id);
}

function checkAll() {
    assert.eq([1, 2, 5, 8], ids({loc: {$geoWithin: {$geometry: square}}}));
    assert.eq([1, 2, 4, 5, 8], ids({loc: {$geoIntersects: {$geometry: square}}}));
    assert.eq([1, 4], ids({loc: {$geoIntersects: {$geometry: {type: "Point", coordinates: [5, 5]}}}}));
    assert.eq([2, 5], ids({loc: {$geoWithin: {$box: [[0, 0], [3, 3]]}}}));
    assert.eq([2], ids({loc: {$within: {$center: [[0, 0], 1.5]}}}));
    assert.eq([2, 5], ids({loc: {$geoWithin: {$polygon: [[0, 0], [4, 0], [0, 4]]}}}));
    assert.eq([1, 2, 5, 8], ids({loc: {$geoWithin: {$centerSphere: [[3, 3], 0.1]}}}));
    assert.eq([3, 4, 6, 7], ids({loc: {$not: {$geoWithin: {$geometry: square}}}}));
}

checkAll();
assert.commandWorked(coll.remove({_id: 6}));
assert.commandWorked(coll.createIndex({loc: "2dsphere"}));
assert.commandWorked(coll.insert({_id: 6, loc: {type: "Point", coordinates: [100, 60]}}));
assert.eq([1, 2, 5, 8], ids({loc: {$geoWithin: {$geometry: square}}}));
assert.eq([1, 2, 4, 5, 8], ids({loc: {$geoIntersects: {$geometry: square}}}));

// Parse errors.
assert.commandFailedWithCode(
    db.runCommand({find: coll.getName(), filter: {loc: {$geoWithin: {$geometry: {type: "Point", coordinates: [1, 1]}}}}}),
    ErrorCodes.BadValue);
assert.commandFailedWithCode(
    db.runCommand({find: coll.getName(),
                   filter: {loc: {$geoIntersects: {$geometry: {type: "Polygon", coordinates: [[[0, 0], [1, 1], [0, 0], [0, 0]]]}}}}}),
    ErrorCodes.BadValue);
assert.commandFailedWithCode(
    db.runCommand({find: coll.getName(), filter: {loc: {$geoWithin: {$foo: 1}}}}), ErrorCodes.BadValue);
assert.commandFailedWithCode(
    db.runCommand({find: coll.getName(), filter: {loc: {$geoIntersects: {$geometry: {type: "Point", coordinates: [200, 0]}}}}}),
    ErrorCodes.BadValue);

// One shape per operand: a second one is refused (upstream's "can't parse extra field"), also
// in $match on a time-series collection; the legacy $uniqueDocs flag beside a shape is ignored.
assert.commandFailedWithCode(
    db.runCommand({find: coll.getName(),
                   filter: {loc: {$geoWithin: {$centerSphere: [[0, 80], 1], $center: [[0, 0], 5]}}}}),
    ErrorCodes.BadValue);
assert.commandFailedWithCode(
    db.runCommand({find: coll.getName(),
                   filter: {loc: {$geoIntersects: {$geometry: square, $box: [[0, 0], [1, 1]]}}}}),
    ErrorCodes.BadValue);
assert.eq([2], ids({loc: {$geoWithin: {$box: [[0, 0], [1.5, 1.5]], $uniqueDocs: true}}}));
const tsColl = db[jsTestName() + "_ts"];
tsColl.drop();
assert.commandWorked(db.createCollection(tsColl.getName(), {timeseries: {timeField: "t"}}));
assert.commandWorked(tsColl.insert({t: new Date(), loc: {type: "Point", coordinates: [0, 80]}}));
assert.commandFailedWithCode(
    db.runCommand({aggregate: tsColl.getName(), cursor: {},
                   pipeline: [{$match: {loc: {$geoWithin: {$centerSphere: [[0, 80], 1],
                                                           $center: [[0, 0], 5]}}}}]}),
    ErrorCodes.BadValue);
tsColl.drop();
