/**
 * find projections: inclusion/exclusion with the _id rules, dotted paths,
 * $slice, $elemMatch and positional $; mixing inclusion and exclusion fails
 * with 31254 / 31253.
 */
const coll = db[jsTestName()];

function proj(projection, filter) {
    return coll.findOne(filter || {_id: 1}, projection);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({
        _id: 1,
        a: 1,
        b: 2,
        x: {y: 1, z: 2},
        arr: [{v: 1, w: "a"}, {v: 2, w: "b"}, {v: 3, w: "c"}],
        nums: [1, 2, 3, 4, 5],
    }));
}

function inclusionKeepsIdUnlessExcluded() {
    assert.docEq({_id: 1, a: 1}, proj({a: 1}));
    assert.docEq({a: 1, b: 2}, proj({a: 1, b: 1, _id: 0}));
    assert.docEq({_id: 1}, proj({_id: 1}));
}

function exclusionDropsOnlyNamedFields() {
    assert.docEq({_id: 1, x: {y: 1, z: 2}}, proj({a: 0, b: 0, arr: 0, nums: 0}));
    const noId = proj({_id: 0});
    assert.eq(undefined, noId._id);
    assert.eq(1, noId.a);
}

function dottedPaths() {
    assert.docEq({_id: 1, x: {y: 1}}, proj({"x.y": 1}));
    assert.docEq({x: {z: 2}}, proj({"x.y": 0, _id: 0, a: 0, b: 0, arr: 0, nums: 0}));
    assert.docEq({arr: [{v: 1}, {v: 2}, {v: 3}]}, proj({"arr.v": 1, _id: 0}));
}

function sliceProjection() {
    assert.eq([1, 2], proj({nums: {$slice: 2}}).nums);
    assert.eq([4, 5], proj({nums: {$slice: -2}}).nums);
    assert.eq([2, 3], proj({nums: {$slice: [1, 2]}}).nums);
    // $slice alone keeps the other fields.
    assert.eq(1, proj({nums: {$slice: 1}}).a);
}

function elemMatchProjection() {
    assert.docEq({_id: 1, arr: [{v: 2, w: "b"}]}, proj({arr: {$elemMatch: {v: {$gte: 2}}}}));
    assert.docEq({_id: 1}, proj({arr: {$elemMatch: {v: 99}}}));
}

function positionalProjection() {
    assert.docEq({_id: 1, arr: [{v: 3, w: "c"}]}, proj({"arr.$": 1}, {"arr.v": 3}));
    assert.docEq({_id: 1, nums: [4]}, proj({"nums.$": 1}, {nums: {$gt: 3}}));
}

function positionalWithoutMatchingArrayFails() {
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {}, projection: {"nums.$": 1}}),
                                 51246);
}

function mixingInclusionAndExclusionFails() {
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), projection: {a: 1, b: 0}}), 31254);
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), projection: {a: 0, b: 1}}), 31253);
}

runScenarios(setUp, inclusionKeepsIdUnlessExcluded, exclusionDropsOnlyNamedFields, dottedPaths, sliceProjection,
             elemMatchProjection, positionalProjection, positionalWithoutMatchingArrayFails,
             mixingInclusionAndExclusionFails);
