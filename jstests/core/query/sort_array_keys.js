/**
 * Sort keys of documents holding arrays, for find and $sort alike: the parts of a sort pattern
 * that go through one array are paired per element (as an index over the pattern keys them),
 * a positional component takes the element as it is, an empty array is undefined at the end of
 * a path and null in the middle, and two parts through different arrays are refused.
 */
const coll = db[jsTestName()];

function ids(sort, extra) {
    const viaFind = coll.find({}, {_id: 1}).sort(sort).toArray().map(d => d._id);
    const viaAgg = coll.aggregate([{$sort: sort}, {$project: {_id: 1}}].concat(extra || []))
                       .toArray()
                       .map(d => d._id);
    assert.eq(viaFind, viaAgg, "find and $sort disagree for " + tojson(sort));
    return viaFind;
}

function pairedPerElement() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        // Keys (c, b) of _id 1 are (1, 9) and (5, 0): never (1, 0).
        {_id: 1, a: [{b: 9, c: 1}, {b: 0, c: 5}]},
        {_id: 2, a: [{b: 3, c: 1}, {b: 8, c: 2}]},
        {_id: 3, a: {b: 1, c: 1}},
        {_id: 4, a: [{b: 2, c: 0}]},
    ]));
    assert.eq([4, 3, 2, 1], ids({"a.c": 1, "a.b": 1}));
    assert.eq([1, 2, 3, 4], ids({"a.c": -1, "a.b": 1}));
    // Descending on b picks, per document, the key (c, b) sorting first: (1, 9) for _id 1.
    assert.eq([4, 1, 2, 3], ids({"a.c": 1, "a.b": -1}));
    // The top-k path (a limit) uses the same keys.
    assert.eq([4, 1], coll.find().sort({"a.c": 1, "a.b": -1}).limit(2).toArray().map(d => d._id));
}

function positionalAndEmpty() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: [[7, 1], 5]},  // a.0 is the array [7, 1] as a whole: sorts after numbers
        {_id: 2, a: [3]},
        {_id: 3, a: []},  // a.0 missing: null
        {_id: 4, a: [{b: [6, 2]}, 0]},
    ]));
    // Arrays sort after objects after numbers; null first.
    assert.eq([3, 2, 4, 1], ids({"a.0": 1, _id: 1}));

    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: {b: []}},  // undefined: before null
        {_id: 2, a: []},       // empty array in the middle: null
        {_id: 3, a: {b: 1}},
        {_id: 4},  // missing: null
    ]));
    assert.eq([1, 2, 4, 3], ids({"a.b": 1, _id: 1}));
    assert.eq([3, 2, 4, 1], ids({"a.b": -1, _id: 1}));
}

function parallelArrays() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, x: [1, 2], y: {z: 3}},
        {_id: 2, x: 0, y: {z: [4, 5]}},
    ]));
    assert.eq([2, 1], ids({x: 1, "y.z": 1}));
    assert.commandWorked(coll.insert({_id: 3, x: [1], y: {z: [2]}}));
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {}, sort: {x: 1, "y.z": 1}}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$sort: {x: 1, "y.z": 1}}], cursor: {}}),
        ErrorCodes.BadValue);
    // Empty arrays count as arrays.
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, x: [], y: {z: []}}));
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {}, sort: {x: 1, "y.z": 1}}), ErrorCodes.BadValue);
    // One array, different elements holding the inner arrays: allowed.
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, a: [{b: [1], c: 2}, {b: 1, c: [2]}]}));
    assert.eq([1], ids({"a.b": 1, "a.c": 1}));
}

pairedPerElement();
positionalAndEmpty();
parallelArrays();
