/**
 * A range on an array field may be met by two different elements ({a: [1, 10]} matches
 * {a: {$gt: 5, $lt: 3}}): on a multikey index the planner must not intersect the two bounds.
 * Results through the index equal a collection scan's.
 */
const coll = db[jsTestName()];

function sameAsScan() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: [1, 10]}, {_id: 2, a: [4]}, {_id: 3, a: 7}, {_id: 4, a: [2, 3]},
        {_id: 5, a: []}, {_id: 6, a: [NumberDecimal("0.1"), 5]}, {_id: 7, a: 0.2},
    ]));
    assert.commandWorked(coll.createIndex({a: 1}));
    const filters = [
        {a: {$gt: 5, $lt: 3}}, {a: {$gte: 2, $lte: 6}}, {a: {$gt: 0.1, $lt: 0.3}},
        {a: {$gt: 1, $lt: 4}}, {a: {$gte: 10}}, {a: {$lt: 2}},
    ];
    for (const f of filters) {
        const viaIndex = coll.find(f).hint({a: 1}).toArray().map(d => d._id).sort();
        const viaScan = coll.find(f).hint({$natural: 1}).toArray().map(d => d._id).sort();
        assert.eq(viaScan, viaIndex, tojson(f));
    }
    assert.eq([1], coll.find({a: {$gt: 5, $lt: 3}}).toArray().map(d => d._id));
}

runScenarios(sameAsScan);
