/**
 * mongosh's countDocuments() is an aggregate [{$match}, {$group: {_id: 1, n: {$sum: 1}}}].
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{a: 1}, {a: 2}, {a: 2}, {b: 1}]));
}

function countDocumentsHelper() {
    assert.eq(4, coll.countDocuments({}));
    assert.eq(2, coll.countDocuments({a: 2}));
    assert.eq(0, coll.countDocuments({a: 99}));
    assert.eq(1, coll.countDocuments({a: {$gte: 1}}, {skip: 2}));
    assert.eq(2, coll.countDocuments({}, {limit: 2}));
}

function countStage() {
    assert.eq([{n: 3}], coll.aggregate([{$match: {a: {$exists: true}}}, {$count: "n"}]).toArray());
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$count: ""}], cursor: {}}), 40157);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$count: "$x"}], cursor: {}}),
        40158);
}

runScenarios(setUp, countDocumentsHelper, countStage);
