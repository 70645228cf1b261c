/**
 * $and $or $nor $not combine predicates; malformed arguments fail with BadValue (2).
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
        {_id: 1, a: 1, b: 1},
        {_id: 2, a: 2, b: 1},
        {_id: 3, a: 3, b: 2},
        {_id: 4, a: "s"},
        {_id: 5},
    ]));
}

function andOrNor() {
    assert.eq([2], ids({$and: [{a: {$gt: 1}}, {b: 1}]}));
    assert.eq([1, 3], ids({$or: [{a: 1}, {b: 2}]}));
    assert.eq([4, 5], ids({$nor: [{b: 1}, {b: 2}]}));
    assert.eq([2, 3], ids({$and: [{$or: [{a: 2}, {a: 3}]}, {b: {$exists: true}}]}));
}

function notMatchesMissingAndOtherTypes() {
    assert.eq([1, 4, 5], ids({a: {$not: {$gt: 1}}}));
    assert.eq([1, 2, 3, 5], ids({a: {$not: /^s/}}));
    assert.eq([1, 2, 3, 5], ids({a: {$not: {$regex: "s"}}}));
}

function malformedLogicalOperatorsFail() {
    findFails({$and: []}, ErrorCodes.BadValue);
    findFails({$or: []}, ErrorCodes.BadValue);
    findFails({$nor: []}, ErrorCodes.BadValue);
    findFails({$or: {a: 1}}, ErrorCodes.BadValue);
    findFails({$and: [1]}, ErrorCodes.BadValue);
    findFails({a: {$not: 5}}, ErrorCodes.BadValue);
    findFails({a: {$not: {}}}, ErrorCodes.BadValue);
    findFails({$not: {a: 1}}, ErrorCodes.BadValue);
}

runScenarios(setUp, andOrNor, notMatchesMissingAndOtherTypes, malformedLogicalOperatorsFail);
