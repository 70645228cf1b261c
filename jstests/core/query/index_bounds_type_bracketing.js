/**
 * One-sided comparisons are bracketed by type in index bounds, as upstream's planner does:
 * {$gt: 5.5} scans (5.5, inf.0], {$lt: "m"} scans ["", "m"), so a field holding values of many
 * types examines only the keys of the compared type.
 */
const coll = db[jsTestName()];
coll.drop();

const values = [-Infinity, -3, 0, 2.5, 7, NumberLong("9"), NumberDecimal("11"), Infinity, "", "a", "m",
                "z", {}, {x: 1}, BinData(0, ""), BinData(0, "AQ=="), ObjectId("000000000000000000000001"),
                ObjectId("ffffffffffffffffffffff00"), false, true, new Date(-5), new Date(5),
                Timestamp(1, 1), Timestamp(5, 0), null, MinKey, MaxKey];
assert.commandWorked(coll.insert(values.map((v, i) => ({_id: i, a: v}))));
assert.commandWorked(coll.createIndex({a: 1}));

function check(filter, bounds) {
    const explain = coll.find(filter).explain("executionStats");
    const ixscan = (function find(stage) {
        if (stage.stage === "IXSCAN") return stage;
        return stage.inputStage ? find(stage.inputStage) : null;
    })(explain.queryPlanner.winningPlan);
    assert(ixscan, explain);
    assert.eq(bounds, ixscan.indexBounds.a, tojson(filter));
    const n = coll.find(filter).hint({$natural: 1}).itcount();
    assert.eq(n, explain.executionStats.nReturned, tojson(filter));
    // The bounds hold exactly the matching keys.
    assert.eq(n, explain.executionStats.totalKeysExamined, tojson(filter));
    return n;
}

assert.eq(4, check({a: {$gt: 5.5}}, ["(5.5, inf.0]"]));
assert.eq(4, check({a: {$lte: 2.5}}, ["[-inf.0, 2.5]"]));
assert.eq(8, check({a: {$gte: -Infinity}}, ["[-inf.0, inf.0]"]));
assert.eq(2, check({a: {$gt: "a"}}, ["(\"a\", {})"]));
assert.eq(2, check({a: {$lt: "m"}}, ["[\"\", \"m\")"]));
assert.eq(1, check({a: {$gt: ObjectId("000000000000000000000001")}},
                   ["(ObjectId('000000000000000000000001'), ObjectId('ffffffffffffffffffffffff')]"]));
assert.eq(2, check({a: {$gte: false}}, ["[false, true]"]));
assert.eq(1, check({a: {$gt: new Date(0)}}, ["(new Date(0), new Date(9223372036854775807)]"]));
assert.eq(2, check({a: {$lt: new Date(10)}}, ["[new Date(-9223372036854775808), new Date(10))"]));
assert.eq(1, check({a: {$gt: Timestamp(1, 1)}},
                   ["(Timestamp(1, 1), Timestamp(4294967295, 4294967295)]"]));

// Both ends given: no bracket needed.
assert.eq(2, check({a: {$gt: 0.5, $lt: 8.5}}, ["(0.5, 8.5)"]));

// A descending index scans the bracket from its other end.
assert.commandWorked(coll.dropIndexes());
assert.commandWorked(coll.createIndex({a: -1}));
assert.eq(4, check({a: {$gt: 5.5}}, ["[inf.0, 5.5)"]));

// A multikey index keeps one side of a range; the other is bracketed.
assert.commandWorked(coll.insert({_id: 100, a: [1, 10]}));
const explain = coll.find({a: {$gt: 5.5, $lt: 3}}).explain();
const stage = explain.queryPlanner.winningPlan.inputStage;
assert.eq("IXSCAN", stage.stage, explain);
assert.eq(["[inf.0, 5.5)"], stage.indexBounds.a);
assert.eq([100], coll.find({a: {$gt: 5.5, $lt: 3}}).toArray().map(d => d._id));
