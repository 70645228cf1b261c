/**
 * distinct on an indexed field whose filter the index bounds exactly is covered:
 * PROJECTION_COVERED over a DISTINCT_SCAN that stays inside the bounds, one key examined per
 * distinct value and no document read. As upstream's covered distinct, a document without the
 * field then contributes null (SERVER-14832). explain shows the plan the command runs.
 */
const coll = db[jsTestName()];
coll.drop();

const docs = [];
for (let i = 0; i < 500; i++)
    docs.push({_id: i, a: i % 10, b: i % 7, s: "v" + (i % 4)});
docs.push({_id: 1000, a: "str"}, {_id: 1001, a: {o: 1}}, {_id: 1002, a: null});
assert.commandWorked(coll.insertMany(docs));

function stats(key, query) {
    const explain = coll.explain("executionStats").distinct(key, query);
    return explain;
}

function stageNames(plan) {
    const names = [];
    for (let s = plan; s; s = s.inputStage)
        names.push(s.stage);
    return names;
}

// Without an index: a collection scan reads everything.
let e = stats("a", {a: {$gt: 5.5}});
assert.eq(0, e.executionStats.totalKeysExamined);
assert.eq(docs.length, e.executionStats.totalDocsExamined);
assert.eq([6, 7, 8, 9], coll.distinct("a", {a: {$gt: 5.5}}));

assert.commandWorked(coll.createIndex({a: 1}));

// Type-bracketed bounds, covered: four keys, no document.
e = stats("a", {a: {$gt: 5.5}});
assert.eq(["PROJECTION_COVERED", "DISTINCT_SCAN"], stageNames(e.queryPlanner.winningPlan), e);
assert.eq(["(5.5, inf.0]"], e.queryPlanner.winningPlan.inputStage.indexBounds.a);
assert.eq({_id: 0, a: 1}, e.queryPlanner.winningPlan.transformBy);
assert.eq(4, e.executionStats.nReturned);
assert.eq(4, e.executionStats.totalKeysExamined);
assert.eq(0, e.executionStats.totalDocsExamined);
assert.eq([6, 7, 8, 9], coll.distinct("a", {a: {$gt: 5.5}}));
assert.eq([0, 1, 2], coll.distinct("a", {a: {$gte: 0, $lte: 2}}));
assert.eq(["str"], coll.distinct("a", {a: {$gte: "a"}}));
assert.eq([3], coll.distinct("a", {a: 3}));

// No filter: every distinct value once, null included.
e = stats("a", {});
assert.eq(13, e.executionStats.nReturned);
assert.eq(0, e.executionStats.totalDocsExamined);
assert.eq([null, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "str", {o: 1}], coll.distinct("a"));

// A filter the bounds do not decide exactly is re-checked on fetched documents.
e = stats("a", {a: {$gt: 5.5, $lt: "z"}});
assert.eq(["FETCH", "DISTINCT_SCAN"], stageNames(e.queryPlanner.winningPlan), e);
assert.eq([], coll.distinct("a", {a: {$gt: 5.5, $lt: "z"}}));
e = stats("a", {a: {$ne: 3}});
assert.eq(["FETCH", "DISTINCT_SCAN"], stageNames(e.queryPlanner.winningPlan), e);
assert.eq([null, 0, 1, 2, 4, 5, 6, 7, 8, 9, "str", {o: 1}], coll.distinct("a", {a: {$ne: 3}}));

// A filter on another field: no DISTINCT_SCAN.
e = stats("a", {b: 2});
assert(!stageNames(e.queryPlanner.winningPlan).includes("DISTINCT_SCAN"), e);

// The covered plan reports null for documents without the field, as upstream does.
const missing = db[jsTestName() + "_missing"];
missing.drop();
assert.commandWorked(missing.insertMany([{_id: 1}, {_id: 2, a: 1}]));
assert.eq([1], missing.distinct("a"));
assert.commandWorked(missing.createIndex({a: 1}));
assert.eq([null, 1], missing.distinct("a"));

// An index with a collation holds comparison keys: never covered.
const collated = db[jsTestName() + "_collated"];
collated.drop();
assert.commandWorked(collated.insertMany([{a: "x"}, {a: "X"}, {a: "y"}]));
assert.commandWorked(collated.createIndex({a: 1}, {collation: {locale: "en", strength: 2}}));
e = collated.explain("executionStats").distinct("a", {}, {collation: {locale: "en", strength: 2}});
assert.eq(["FETCH", "DISTINCT_SCAN"], stageNames(e.queryPlanner.winningPlan), e);
assert.eq(2, collated.distinct("a", {}, {collation: {locale: "en", strength: 2}}).length);

// The _id index is there whatever name the request gives it.
assert.commandWorked(coll.createIndex({_id: 1}));
assert.eq(2, coll.getIndexes().length);
