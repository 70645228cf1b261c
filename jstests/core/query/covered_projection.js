/**
 * Covered find plans: an inclusion projection of key fields of an index that is not multikey
 * on them, with a filter on key fields only, reads no document (IXSCAN -> PROJECTION_COVERED).
 * Dotted key fields nest in the result; a key field the document lacks comes back null, as
 * upstream's covered projections do (SERVER-23229). Among indexes that bound the query
 * equally, the covering one is chosen.
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.createIndex({a: 1, "b.c": 1, "b.d": 1, c: 1}));
assert.commandWorked(coll.insertMany([
    {_id: 1, a: 1, b: {c: 1, d: 2, e: 3}, c: 4, e: 5},
    {_id: 2, a: 2, b: {c: 6, d: 7}, c: 8},
    {_id: 3, a: 3},
]));

function plan(filter, projection) {
    return coll.find(filter, projection).explain("executionStats");
}

function stages(explain) {
    const names = [];
    for (let s = explain.queryPlanner.winningPlan; s; s = s.inputStage)
        names.push(s.stage);
    return names;
}

// Covered: no FETCH and no document examined.
let e = plan({a: 1}, {_id: 0, a: 1, "b.c": 1, "b.d": 1, c: 1});
assert.eq(["PROJECTION_COVERED", "IXSCAN"], stages(e), e);
assert.eq(0, e.executionStats.totalDocsExamined);
assert.eq({_id: 0, a: 1, "b.c": 1, "b.d": 1, c: 1}, e.queryPlanner.winningPlan.transformBy);
assert.eq([{a: 1, b: {c: 1, d: 2}, c: 4}],
          coll.find({a: 1}, {_id: 0, a: 1, "b.c": 1, "b.d": 1, c: 1}).toArray());
assert.eq([{b: {c: 6}, c: 8}], coll.find({a: 2}, {_id: 0, "b.c": 1, c: 1}).toArray());

// Missing key fields are null in a covered result.
assert.eq([{b: {c: null}, c: null}], coll.find({a: 3}, {_id: 0, "b.c": 1, c: 1}).toArray());

// A predicate past the bounds is checked on the keys: still no document read.
e = plan({a: {$gte: 1}, c: 8}, {_id: 0, a: 1});
assert.eq(["PROJECTION_COVERED", "IXSCAN"], stages(e), e);
assert(e.queryPlanner.winningPlan.inputStage.filter, e);
assert.eq(0, e.executionStats.totalDocsExamined);
assert.eq([{a: 2}], coll.find({a: {$gte: 1}, c: 8}, {_id: 0, a: 1}).toArray());
assert.eq([{a: 1}, {a: 2}], coll.find({a: {$in: [1, 2]}, "b.d": {$ne: 9}}, {_id: 0, a: 1}).toArray());

// Not covered: _id not in the index, a field outside it, a filter outside it, $exists.
assert.eq("FETCH", stages(plan({a: 1}, {a: 1}))[1]);
assert.eq("FETCH", stages(plan({a: 1}, {_id: 0, a: 1, e: 1}))[1]);
assert.eq("FETCH", stages(plan({a: 1, e: 5}, {_id: 0, a: 1}))[1]);
assert.eq("FETCH", stages(plan({a: 1, c: {$exists: true}}, {_id: 0, a: 1}))[1]);
assert.eq([{a: 1, e: 5}], coll.find({a: 1}, {_id: 0, a: 1, e: 1}).toArray());

// A multikey path cannot be covered; the other key fields still can.
assert.commandWorked(coll.insert({_id: 4, a: 4, b: {c: 1, d: [1, 2]}}));
assert.eq("FETCH", stages(plan({a: 4}, {_id: 0, "b.c": 1, "b.d": 1}))[1]);
assert.eq([{b: {c: 1, d: [1, 2]}}], coll.find({a: 4}, {_id: 0, "b.c": 1, "b.d": 1}).toArray());
e = plan({a: 4}, {_id: 0, "b.c": 1});
assert.eq(["PROJECTION_COVERED", "IXSCAN"], stages(e), e);
assert.eq([{b: {c: 1}}], coll.find({a: 4}, {_id: 0, "b.c": 1}).toArray());

// The covering index wins among indexes bounding as much.
assert.commandWorked(coll.createIndex({a: 1, x: 1}));
assert.commandWorked(coll.insert({_id: 5, a: 5, x: "y"}));
e = plan({a: 5}, {_id: 0, x: 1});
assert.eq(["PROJECTION_COVERED", "IXSCAN"], stages(e), e);
assert.eq({a: 1, x: 1}, e.queryPlanner.winningPlan.inputStage.keyPattern);
assert.eq([{x: "y"}], coll.find({a: 5}, {_id: 0, x: 1}).toArray());

// _id in the index: covered with _id.
const withId = db[jsTestName() + "_id"];
withId.drop();
assert.commandWorked(withId.insertMany([{_id: 1, a: 1}, {_id: 2, a: 1}]));
assert.commandWorked(withId.createIndex({a: 1, _id: 1}));
e = withId.find({a: 1}, {_id: 1, a: 1}).explain();
assert.eq("PROJECTION_COVERED", e.queryPlanner.winningPlan.stage, e);
assert.eq([{_id: 1, a: 1}, {_id: 2, a: 1}], withId.find({a: 1}, {_id: 1, a: 1}).sort({a: 1, _id: 1}).toArray());

// An index with a collation holds comparison keys: never covered.
const collated = db[jsTestName() + "_collated"];
collated.drop();
assert.commandWorked(collated.insert({a: "Hello"}));
assert.commandWorked(collated.createIndex({a: 1}, {collation: {locale: "en", strength: 2}}));
e = collated.find({a: "hello"}, {_id: 0, a: 1}).collation({locale: "en", strength: 2}).explain();
assert.neq("PROJECTION_COVERED", e.queryPlanner.winningPlan.stage, e);
assert.eq([{a: "Hello"}], collated.find({a: "hello"}, {_id: 0, a: 1}).collation({locale: "en", strength: 2}).toArray());
