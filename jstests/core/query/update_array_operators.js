/**
 * $push with $each/$slice/$sort/$position, $addToSet, $pop, $pull and $pullAll.
 */
const coll = db[jsTestName()];

function field(name) {
    return coll.findOne({_id: 1})[name];
}

function setUp() {
    coll.drop();
    assert.commandWorked(
        coll.insert({_id: 1, p: [3], s: [1, 2], q: [1, 2, 3, 4, 5], items: [{k: "x"}, {k: "y"}]}));
}

function pushSingleValuesAndCreatesArrays() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$push: {p: 7, fresh: "a"}}));
    assert.eq([3, 7], field("p"));
    assert.eq(["a"], field("fresh"));
    assert.commandWorked(coll.updateOne({_id: 1}, {$push: {fresh: ["b", "c"]}}));
    assert.eq(["a", ["b", "c"]], field("fresh"));
}

function pushWithModifiers() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$push: {p: {$each: [5, 1, 4], $sort: 1, $slice: 3}}}));
    assert.eq([1, 3, 4], field("p"));
    assert.commandWorked(coll.updateOne({_id: 1}, {$push: {p: {$each: [9, 8], $position: 0}}}));
    assert.eq([9, 8, 1, 3, 4], field("p"));
    assert.commandWorked(coll.updateOne({_id: 1}, {$push: {p: {$each: [], $slice: -2}}}));
    assert.eq([3, 4], field("p"));
    assert.commandWorked(
        coll.updateOne({_id: 1}, {$push: {docs: {$each: [{r: 1}, {r: 3}, {r: 2}], $sort: {r: -1}}}}));
    assert.eq([{r: 3}, {r: 2}, {r: 1}], field("docs"));
}

function addToSet() {
    const res = coll.updateOne({_id: 1}, {$addToSet: {s: 2}});
    assert.eq(0, res.modifiedCount);
    assert.commandWorked(coll.updateOne({_id: 1}, {$addToSet: {s: {$each: [2, 3, 3]}}}));
    assert.eq([1, 2, 3], field("s"));
}

function pop() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$pop: {q: 1}}));
    assert.eq([1, 2, 3, 4], field("q"));
    assert.commandWorked(coll.updateOne({_id: 1}, {$pop: {q: -1}}));
    assert.eq([2, 3, 4], field("q"));
}

function pullAndPullAll() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$pull: {q: {$gte: 4}}}));
    assert.eq([2, 3], field("q"));
    assert.commandWorked(coll.updateOne({_id: 1}, {$pull: {items: {k: "x"}}}));
    assert.eq([{k: "y"}], field("items"));
    assert.commandWorked(coll.updateOne({_id: 1}, {$pullAll: {s: [1, 3]}}));
    assert.eq([2], field("s"));
}

runScenarios(setUp, pushSingleValuesAndCreatesArrays, pushWithModifiers, addToSet, pop, pullAndPullAll);
