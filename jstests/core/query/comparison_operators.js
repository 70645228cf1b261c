/**
 * $eq $ne $gt $gte $lt $lte $in $nin follow MongoDB's array, null/missing and
 * type-bracketing semantics, and $in/$nin reject a non-array with BadValue (2).
 */
const coll = db[jsTestName()];

function ids(filter) {
    return coll.find(filter).sort({_id: 1}).toArray().map((d) => d._id);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: 1},
        {_id: 2, a: [1, 2]},
        {_id: 3, a: null},
        {_id: 4},
        {_id: 5, a: "x"},
        {_id: 6, a: [3, 4]},
        {_id: 7, a: [null, 5]},
    ]));
}

function equalityMatchesScalarsAndArrayElements() {
    assert.eq([1, 2], ids({a: 1}));
    assert.eq([1, 2], ids({a: {$eq: 1}}));
    assert.eq([1, 2], ids({a: NumberLong(1)}));
    assert.eq([1, 2], ids({a: 1.0}));
}

function equalityWithWholeArray() {
    assert.eq([6], ids({a: [3, 4]}));
    assert.eq([], ids({a: [4, 3]}));
    assert.eq([6], ids({a: {$eq: [3, 4]}}));
}

function nullMatchesNullMissingAndArraysWithNull() {
    assert.eq([3, 4, 7], ids({a: null}));
    assert.eq([3, 4, 7], ids({a: {$gte: null}}));
    assert.eq([3, 4, 7], ids({a: {$lte: null}}));
    assert.eq([1, 2, 5, 6], ids({a: {$ne: null}}));
}

function rangesUseTypeBracketing() {
    assert.eq([2, 6, 7], ids({a: {$gt: 1}}));
    assert.eq([1, 2, 6, 7], ids({a: {$gte: 1}}));
    assert.eq([1, 2], ids({a: {$lt: 2}}));
    assert.eq([1, 2], ids({a: {$lte: 2}}));
    assert.eq([5], ids({a: {$gt: "a"}}));
    assert.eq([6], ids({a: {$gt: 2, $lt: 4}}));
}

function notEqualExcludesArraysContainingValue() {
    assert.eq([3, 4, 5, 6, 7], ids({a: {$ne: 1}}));
}

function inAndNin() {
    assert.eq([1, 2, 5], ids({a: {$in: [1, "x"]}}));
    assert.eq([3, 4, 7], ids({a: {$in: [null]}}));
    assert.eq([5], ids({a: {$in: [/^x/]}}));
    assert.eq([], ids({a: {$in: []}}));
    assert.eq([5, 6], ids({a: {$nin: [1, null]}}));
    assert.eq([1, 2, 3, 4, 5, 6, 7], ids({a: {$nin: []}}));
}

function numericPathComponents() {
    assert.eq([2], ids({"a.1": 2}));
    assert.eq([6], ids({"a.0": {$gt: 2}}));
}

function inRequiresAnArray() {
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {a: {$in: 1}}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {a: {$nin: 1}}}),
                                 ErrorCodes.BadValue);
}

runScenarios(setUp,
             equalityMatchesScalarsAndArrayElements,
             equalityWithWholeArray,
             nullMatchesNullMissingAndArraysWithNull,
             rangesUseTypeBracketing,
             notEqualExcludesArraysContainingValue,
             inAndNin,
             numericPathComponents,
             inRequiresAnArray);
