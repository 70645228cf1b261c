/**
 * $exists distinguishes null from missing; $type accepts numeric codes,
 * string aliases, "number" and lists, and rejects unknown types with BadValue (2).
 */
const coll = db[jsTestName()];

function ids(filter) {
    return coll.find(filter).sort({_id: 1}).toArray().map((d) => d._id);
}

function findFails(filter, code) {
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: filter}), code);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: NumberInt(1)},
        {_id: 2, a: NumberLong(2)},
        {_id: 3, a: 3.5},
        {_id: 4, a: NumberDecimal("4.5")},
        {_id: 5, a: "str"},
        {_id: 6, a: null},
        {_id: 7},
        {_id: 8, a: ["str", 1]},
        {_id: 9, a: {b: 1}},
    ]));
}

function existsDistinguishesNullFromMissing() {
    assert.eq([1, 2, 3, 4, 5, 6, 8, 9], ids({a: {$exists: true}}));
    assert.eq([7], ids({a: {$exists: false}}));
    assert.eq([9], ids({"a.b": {$exists: true}}));
    assert.eq([1, 2, 3, 4, 5, 6, 8, 9], ids({a: {$exists: 1}}));
}

function typeByNumberAndAlias() {
    assert.eq([1, 8], ids({a: {$type: 16}}));
    assert.eq([1, 8], ids({a: {$type: "int"}}));
    assert.eq([2], ids({a: {$type: "long"}}));
    assert.eq([3], ids({a: {$type: "double"}}));
    assert.eq([3], ids({a: {$type: 1}}));
    assert.eq([4], ids({a: {$type: "decimal"}}));
    assert.eq([5, 8], ids({a: {$type: "string"}}));
    assert.eq([6], ids({a: {$type: "null"}}));
    assert.eq([8], ids({a: {$type: "array"}}));
    assert.eq([9], ids({a: {$type: "object"}}));
}

function typeNumberMatchesAllNumericTypes() {
    assert.eq([1, 2, 3, 4, 8], ids({a: {$type: "number"}}));
    assert.eq([5, 6, 8], ids({a: {$type: ["string", "null"]}}));
}

function unknownTypesFail() {
    findFails({a: {$type: "foo"}}, ErrorCodes.BadValue);
    findFails({a: {$type: 100}}, ErrorCodes.BadValue);
    findFails({a: {$type: {}}}, ErrorCodes.TypeMismatch);
}

runScenarios(setUp, existsDistinguishesNullFromMissing, typeByNumberAndAlias, typeNumberMatchesAllNumericTypes,
             unknownTypesFail);
