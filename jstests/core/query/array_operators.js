/**
 * $all, $elemMatch (value and object forms) and $size, with their BadValue (2) parse errors.
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
        {_id: 1, tags: ["a", "b", "c"], scores: [70, 82, 90], items: [{k: "x", v: 1}, {k: "y", v: 5}]},
        {_id: 2, tags: ["a"], scores: [85, 95], items: [{k: "x", v: 7}]},
        {_id: 3, tags: "a", scores: [], items: [{k: "y", v: 9}, {k: "x", v: 0}]},
        {_id: 4},
    ]));
}

function allRequiresEveryValue() {
    assert.eq([1], ids({tags: {$all: ["a", "b"]}}));
    assert.eq([1, 2, 3], ids({tags: {$all: ["a"]}}));
    assert.eq([], ids({tags: {$all: []}}));
    assert.eq([1, 3], ids({items: {$all: [{$elemMatch: {k: "x", v: {$lt: 2}}}, {$elemMatch: {k: "y"}}]}}));
}

function elemMatchValueForm() {
    assert.eq([1], ids({scores: {$elemMatch: {$gte: 80, $lt: 85}}}));
    // Without $elemMatch, different elements may satisfy each bound.
    assert.eq([1], ids({scores: {$gt: 85, $lt: 80}}));
    assert.eq([], ids({scores: {$elemMatch: {$gt: 85, $lt: 80}}}));
}

function elemMatchObjectForm() {
    assert.eq([2], ids({items: {$elemMatch: {k: "x", v: {$gt: 1}}}}));
    // Without $elemMatch the two conditions may hold on different elements.
    assert.eq([1, 2, 3], ids({"items.k": "x", "items.v": {$gt: 1}}));
    assert.eq([], ids({tags: {$elemMatch: {$eq: "zzz"}}}));
}

function sizeMatchesArrayLength() {
    assert.eq([1], ids({tags: {$size: 3}}));
    assert.eq([2], ids({tags: {$size: 1}}));
    assert.eq([3], ids({scores: {$size: 0}}));
}

function malformedArrayOperatorsFail() {
    findFails({tags: {$all: "a"}}, ErrorCodes.BadValue);
    findFails({tags: {$elemMatch: 1}}, ErrorCodes.BadValue);
    findFails({tags: {$size: -1}}, ErrorCodes.BadValue);
    findFails({tags: {$size: "x"}}, ErrorCodes.BadValue);
    findFails({tags: {$size: 1.5}}, ErrorCodes.BadValue);
}

runScenarios(setUp, allRequiresEveryValue, elemMatchValueForm, elemMatchObjectForm, sizeMatchesArrayLength,
             malformedArrayOperatorsFail);
