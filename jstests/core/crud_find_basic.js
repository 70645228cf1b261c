/**
 * find returns inserted documents and honours filter, sort, limit, skip and
 * projection; the raw find reply has the upstream cursor shape.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: 3, b: "x"},
        {_id: 2, a: 1, b: "y"},
        {_id: 3, a: 2, b: "x"},
        {_id: 4, a: 5, b: "z"},
    ]));
}

function findWithoutFilterReturnsEverything() {
    assert.eq(4, coll.find().toArray().length);
    assert.docEq({_id: 2, a: 1, b: "y"}, coll.findOne({_id: 2}));
}

function equalityAndRangeFilters() {
    assert.sameMembers([{_id: 1, a: 3, b: "x"}, {_id: 3, a: 2, b: "x"}],
                       coll.find({b: "x"}).toArray());
    assert.eq([1, 4], coll.find({a: {$gte: 3}}).sort({_id: 1}).toArray().map((d) => d._id));
    assert.eq([], coll.find({b: "nope"}).toArray());
}

function sortLimitSkip() {
    assert.eq([2, 3, 1, 4], coll.find().sort({a: 1}).toArray().map((d) => d._id));
    assert.eq([4, 1], coll.find().sort({a: -1}).limit(2).toArray().map((d) => d._id));
    assert.eq([3, 1], coll.find().sort({a: 1}).skip(1).limit(2).toArray().map((d) => d._id));
}

function projection() {
    assert.docEq({_id: 1, b: "x"}, coll.findOne({_id: 1}, {b: 1}));
    assert.docEq({a: 3}, coll.findOne({_id: 1}, {_id: 0, a: 1}));
}

function rawFindReplyShape() {
    const res = assert.commandWorked(db.runCommand({find: coll.getName(), filter: {a: 1}}));
    assert.eq(coll.getFullName(), res.cursor.ns);
    assert.eq(0, res.cursor.id);
    assert.eq([{_id: 2, a: 1, b: "y"}], res.cursor.firstBatch);
    assert.eq(1, res.ok);
}

function findOnMissingCollectionIsEmpty() {
    const res = assert.commandWorked(db.runCommand({find: "crud_find_basic_no_such_coll"}));
    assert.eq([], res.cursor.firstBatch);
    assert.eq(0, res.cursor.id);
}

runScenarios(
    setUp,
    findWithoutFilterReturnsEverything,
    equalityAndRangeFilters,
    sortLimitSkip,
    projection,
    rawFindReplyShape,
    findOnMissingCollectionIsEmpty,
);
