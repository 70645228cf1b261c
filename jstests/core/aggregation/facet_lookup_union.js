/**
 * $facet, $lookup (localField/foreignField and pipeline with let) and $unionWith.
 */
const orders = db[jsTestName() + "_orders"];
const items = db[jsTestName() + "_items"];

function setUp() {
    orders.drop();
    items.drop();
    assert.commandWorked(orders.insertMany([
        {_id: 1, item: "a", qty: 2},
        {_id: 2, item: "b", qty: 1},
        {_id: 3, item: ["a", "c"], qty: 5},
        {_id: 4, qty: 7},
    ]));
    assert.commandWorked(items.insertMany([
        {_id: "a", price: 10},
        {_id: "b", price: 20},
        {_id: "c", price: 30},
        {_id: "d", price: null},
    ]));
}

function facet() {
    const res = orders.aggregate([{$facet: {
        total: [{$group: {_id: null, q: {$sum: "$qty"}}}, {$project: {_id: 0}}],
        big: [{$match: {qty: {$gte: 5}}}, {$count: "n"}],
    }}]).toArray();
    assert.eq([{total: [{q: 15}], big: [{n: 2}]}], res);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: orders.getName(), cursor: {},
                       pipeline: [{$facet: {a: [{$facet: {b: [{$limit: 1}]}}]}}]}),
        40600);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: orders.getName(), cursor: {}, pipeline: [{$facet: {a: []}}]}),
        40171);
}

function lookupLocalForeign() {
    const res = orders.aggregate([
        {$lookup: {from: items.getName(), localField: "item", foreignField: "_id", as: "docs"}},
        {$sort: {_id: 1}}
    ]).toArray();
    assert.eq([{_id: "a", price: 10}], res[0].docs);
    assert.eq([{_id: "a", price: 10}, {_id: "c", price: 30}], res[2].docs);
    assert.eq([], res[3].docs.filter(d => d._id !== "d" && d._id !== undefined && d.price != null));
}

function lookupPipeline() {
    const res = orders.aggregate([
        {$match: {_id: 1}},
        {$lookup: {from: items.getName(), let: {q: "$qty"},
                   pipeline: [{$match: {$expr: {$gt: ["$price", {$multiply: ["$$q", 9]}]}}},
                              {$project: {_id: 1}}],
                   as: "pricey"}}
    ]).toArray();
    assert.eq([{_id: "b"}, {_id: "c"}], res[0].pricey);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: orders.getName(), cursor: {},
                       pipeline: [{$lookup: {from: items.getName(), as: "x"}}]}),
        ErrorCodes.FailedToParse);
}

function unionWith() {
    const res = orders.aggregate([
        {$project: {_id: 1}},
        {$unionWith: {coll: items.getName(), pipeline: [{$project: {_id: 1}}]}},
    ]).toArray();
    assert.eq(8, res.length);
    assert.eq(5, orders.aggregate([{$limit: 1}, {$unionWith: items.getName()}]).itcount());
}

runScenarios(setUp, facet, lookupLocalForeign, lookupPipeline, unionWith);
