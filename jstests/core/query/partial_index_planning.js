/**
 * A partial index is a candidate only when the query filter implies its
 * partialFilterExpression (same predicate, a narrower range on the same path,
 * $exists: true implied by a non-null equality or range, $and conjuncts each implied).
 * Results always equal a $natural scan of the same filter.
 */
load("jstests/libs/query_helpers.js");
const coll = db[jsTestName()];

function winning(filter) {
    return coll.find(filter).explain("queryPlanner").queryPlanner.winningPlan;
}

function ixscan(plan) {
    let p = plan;
    while (p && p.stage !== "IXSCAN") p = p.inputStage;
    return p;
}

function assertSameAsNatural(filter) {
    const ids = (c) => c.toArray().map((d) => d._id);
    assert.sameMembers(ids(coll.find(filter).hint({$natural: 1})), ids(coll.find(filter)),
                       tojson(filter));
}

const randInt = seededRandom(77).int;  // same data on every run

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 400; i++) {
        const d = {_id: i, a: randInt(5), b: randInt(20)};
        if (i % 5 === 0) delete d.b;
        if (i % 3 === 0) d.c = "x" + randInt(3);
        docs.push(d);
    }
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(
        coll.createIndex({a: 1}, {name: "a_partial", partialFilterExpression: {b: {$gt: 5}}}));
}

function impliedRangeUsesThePartialIndex() {
    for (const filter of [{a: 1, b: {$gt: 10}}, {a: 1, b: {$gt: 5}}, {a: 2, b: 6},
                          {a: 3, b: {$gte: 6, $lt: 9}}, {$and: [{a: 1}, {b: {$gt: 7}}]}]) {
        const ix = ixscan(winning(filter));
        assert(ix, "expected IXSCAN for " + tojson(filter));
        assert.eq("a_partial", ix.indexName);
        assert.eq(true, ix.isPartial);
        assertSameAsNatural(filter);
    }
}

function notImpliedFallsBackToCollscan() {
    for (const filter of [{a: 1}, {a: 1, b: {$gt: 4}}, {a: 1, b: 5}, {a: 1, b: {$gte: 5}},
                          {a: 1, b: {$lt: 10}}, {a: 1, $or: [{b: 10}, {b: 12}]},
                          {a: 1, b: "zzz"}]) {
        const plan = winning(filter);
        assert.eq("COLLSCAN", plan.stage, tojson(filter) + " -> " + tojson(plan));
        assertSameAsNatural(filter);
    }
}

function existsIsImpliedByNonNullPredicates() {
    assert.commandWorked(
        coll.createIndex({c: 1}, {name: "c_exists", partialFilterExpression: {c: {$exists: true}}}));
    for (const filter of [{c: "x1"}, {c: {$gte: "x1"}}, {c: "x2", a: {$exists: true}}]) {
        assert.eq("c_exists", ixscan(winning(filter)).indexName, tojson(filter));
        assertSameAsNatural(filter);
    }
    for (const filter of [{c: null}, {c: {$ne: "x1"}}, {c: {$exists: false}}]) {
        assert.eq(undefined, ixscan(winning(filter)), tojson(filter));
        assertSameAsNatural(filter);
    }
}

function everyConjunctMustBeImplied() {
    assert.commandWorked(coll.createIndex(
        {b: 1}, {name: "b_and", partialFilterExpression: {$and: [{a: {$gte: 2}}, {b: {$lt: 15}}]}}));
    let filter = {a: 3, b: {$lt: 10}};
    assert.includes(["a_partial", "b_and"], ixscan(winning({a: 3, b: {$lt: 10}})).indexName);
    assertSameAsNatural(filter);
    filter = {a: {$gte: 1}, b: 4};
    assert.eq(undefined, ixscan(winning(filter)), tojson(winning(filter)));
    assertSameAsNatural(filter);
    filter = {a: 4, b: {$lt: 15}};
    assert.eq("b_and", ixscan(winning(filter)).indexName);
    assertSameAsNatural(filter);
}

function partialIndexProvidesSortWhenImplied() {
    const sorted = coll.find({b: {$gt: 8}}).sort({a: 1}).explain().queryPlanner.winningPlan;
    assert.eq("a_partial", ixscan(sorted).indexName);
    const want = coll.find({b: {$gt: 8}}).hint({$natural: 1}).toArray().map((d) => d.a).sort();
    assert.eq(want, coll.find({b: {$gt: 8}}).sort({a: 1}).toArray().map((d) => d.a));
    const unsorted = coll.find({}).sort({a: 1}).explain().queryPlanner.winningPlan;
    assert.eq(undefined, ixscan(unsorted), tojson(unsorted));
}

function hintingAPartialIndexIsAllowed() {
    // Like upstream (SERVER-26413): the hint is obeyed even when the filter does not
    // imply the partial filter, so documents outside the index are not returned.
    const res = assert.commandWorked(
        db.runCommand({find: coll.getName(), filter: {a: 1}, hint: "a_partial"}));
    for (const d of res.cursor.firstBatch) assert.gt(d.b, 5);
}

runScenarios(setUp, impliedRangeUsesThePartialIndex, notImpliedFallsBackToCollscan,
             existsIsImpliedByNonNullPredicates, everyConjunctMustBeImplied,
             partialIndexProvidesSortWhenImplied, hintingAPartialIndexIsAllowed);
