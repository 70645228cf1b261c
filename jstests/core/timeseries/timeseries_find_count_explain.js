/**
 * explain of find and count on a time-series view shows the aggregate they run as: a
 * $cursor over system.buckets.<coll> (bucket-level filter, IXSCAN on the {meta, time} index
 * for meta predicates) followed by $_internalUnpackBucket with the event filter, not an
 * empty plan of the view namespace. The same holds for a plain view.
 */
const ts = db[jsTestName()];
ts.drop();
assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
const t0 = ISODate("2024-01-01T00:00:00Z");
assert.commandWorked(ts.insertMany([{t: t0, m: 1, x: 1}, {t: t0, m: 2, x: 5}, {t: t0, m: 2, x: 7}]));

function cursorStage(e) {
    assert(Array.isArray(e.stages), tojson(e));
    assert(e.stages[0].$cursor, tojson(e));
    return e.stages[0].$cursor;
}
function unpackStage(e) {
    const s = e.stages.find(st => st.$_internalUnpackBucket);
    assert(s, tojson(e));
    return s.$_internalUnpackBucket;
}

// A measurement predicate: bucket-level filter on control.max.x, event filter on x.
let e = ts.find({x: {$gt: 2}}).explain();
let c = cursorStage(e);
assert.eq(c.queryPlanner.namespace, db.getName() + ".system.buckets." + ts.getName());
assert(tojson(c.queryPlanner.parsedQuery).includes("control.max.x"), tojson(c));
assert.docEq({x: {$gt: 2}}, unpackStage(e).eventFilter);

// A meta predicate: served by the default index.
e = ts.find({m: 2}).explain("executionStats");
c = cursorStage(e);
assert.eq(c.queryPlanner.winningPlan.inputStage.stage, "IXSCAN", tojson(c));
assert.eq(c.queryPlanner.winningPlan.inputStage.indexName, "m_1_t_1");
assert.eq(ts.find({m: 2}).itcount(), 2);

// count explains the same way, ending in the counting stages.
e = ts.explain().count({m: 2});
c = cursorStage(e);
assert.eq(c.queryPlanner.winningPlan.inputStage.stage, "IXSCAN", tojson(c));
assert.eq(ts.count({m: 2}), 2);

// A plain view on a collection.
const base = db[jsTestName() + "_base"];
base.drop();
assert.commandWorked(base.insertMany([{a: 1}, {a: 2}]));
db[jsTestName() + "_view"].drop();
assert.commandWorked(db.createView(jsTestName() + "_view", base.getName(), [{$match: {a: {$gte: 1}}}]));
// (The whole pipeline goes to the query layer: a single queryPlanner, as upstream shows.)
e = db[jsTestName() + "_view"].find({a: 2}).explain();
assert.eq(e.queryPlanner.namespace, base.getFullName(), tojson(e));
assert.eq(e.queryPlanner.winningPlan.stage, "COLLSCAN", tojson(e));
assert.eq(db[jsTestName() + "_view"].find({a: 2}).itcount(), 1);
