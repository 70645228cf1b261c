/**
 * $mod matches numeric fields (and array elements) by remainder; malformed
 * arguments fail with BadValue (2).
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
        {_id: 1, a: 4},
        {_id: 2, a: 5},
        {_id: 3, a: NumberLong(8)},
        {_id: 4, a: [1, 9]},
        {_id: 5, a: "8"},
        {_id: 6},
    ]));
}

function modMatchesRemainder() {
    assert.eq([1, 3], ids({a: {$mod: [4, 0]}}));
    assert.eq([2, 4], ids({a: {$mod: [4, 1]}}));
    assert.eq([2, 4, 5, 6], ids({a: {$not: {$mod: [4, 0]}}}));
}

function malformedModFails() {
    findFails({a: {$mod: [0, 1]}}, ErrorCodes.BadValue);
    findFails({a: {$mod: [4]}}, ErrorCodes.BadValue);
    findFails({a: {$mod: [4, 1, 2]}}, ErrorCodes.BadValue);
    findFails({a: {$mod: 4}}, ErrorCodes.BadValue);
    findFails({a: {$mod: ["4", 1]}}, ErrorCodes.BadValue);
}

runScenarios(setUp, modMatchesRemainder, malformedModFails);
