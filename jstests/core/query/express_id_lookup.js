/**
 * A find of one _id value takes the express path, as in upstream 8.0: EXPRESS_IXSCAN (keyPattern
 * as a string, the _id index), one key and one document examined; a projection applies above it.
 * Other shapes keep the usual plans.
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.insertMany([{_id: 1, a: 1, b: {c: 2, d: 3}}, {_id: 2, a: 2}, {_id: "x", a: 3}]));

let e = coll.find({_id: 1}).explain("executionStats");
assert.eq("EXPRESS_IXSCAN", e.queryPlanner.winningPlan.stage, e);
assert.eq("{ _id: 1 }", e.queryPlanner.winningPlan.keyPattern);
assert.eq("_id_", e.queryPlanner.winningPlan.indexName);
assert.eq(1, e.executionStats.nReturned);
assert.eq(1, e.executionStats.totalKeysExamined);
assert.eq(1, e.executionStats.totalDocsExamined);

e = coll.find({_id: {$eq: "x"}}, {_id: 0, a: 1}).explain();
assert.eq("EXPRESS_IXSCAN", e.queryPlanner.winningPlan.inputStage.stage, e);
assert.eq([{a: 3}], coll.find({_id: {$eq: "x"}}, {_id: 0, a: 1}).toArray());
assert.eq([{b: {c: 2}}], coll.find({_id: 1}, {_id: 0, "b.c": 1}).toArray());
assert.eq([], coll.find({_id: 7}).toArray());
assert.eq(1, coll.find({_id: 1.0}).itcount());

// Not express: a range, a second predicate, a sort, a hint, an object value, count.
const stage = (f, opts) => {
    let c = coll.find(f);
    if (opts && opts.sort) c = c.sort(opts.sort);
    if (opts && opts.hint) c = c.hint(opts.hint);
    return c.explain().queryPlanner.winningPlan.stage;
};
assert.neq("EXPRESS_IXSCAN", stage({_id: {$gt: 1}}));
assert.neq("EXPRESS_IXSCAN", stage({_id: 1, a: 1}));
assert.neq("EXPRESS_IXSCAN", stage({_id: 1}, {sort: {a: 1}}));
assert.neq("EXPRESS_IXSCAN", stage({_id: 1}, {hint: {$natural: 1}}));
assert.neq("EXPRESS_IXSCAN", stage({_id: {a: 1}}));
const count = db.runCommand({explain: {count: coll.getName(), query: {_id: 1}}});
assert.commandWorked(count);
assert.eq(-1, tojson(count.queryPlanner.winningPlan).indexOf("EXPRESS"), count);
assert.eq(1, coll.countDocuments({_id: 1}));
