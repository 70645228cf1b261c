/**
 * explain and collated indexes: a query of the index's collation (given, or the collection
 * default) plans an IXSCAN for string predicates; a query of another collation plans a
 * COLLSCAN for strings but still an IXSCAN for numbers; only a query of the index's
 * collation gets its sort from the index (no SORT stage).
 */
const coll = db[jsTestName()];
const en2 = {locale: "en", strength: 2};

function stages(plan) {
    const out = [];
    (function walk(p) {
        if (!p || typeof p !== "object") return;
        if (p.stage) out.push(p.stage);
        walk(p.inputStage);
        (p.inputStages || []).forEach(walk);
    })(plan);
    return out;
}

function winning(explain) {
    return stages(explain.queryPlanner.winningPlan);
}

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({
        insert: coll.getName(),
        documents: [{_id: 1, a: "foo"}, {_id: 2, a: "FOO"}, {_id: 3, a: "x"}, {_id: 4, a: 7}]
    }));
}

function matchingCollationScansTheIndex() {
    assert.commandWorked(coll.createIndex({a: 1}, {collation: en2}));
    const res = coll.find({a: "foo"}).collation(en2).explain("executionStats");
    assert.includes(winning(res), "IXSCAN");
    assert.eq(2, res.executionStats.nReturned);
    assert.eq(2, res.executionStats.totalKeysExamined);
}

function collectionDefaultCollationIsTheQueryCollation() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: coll.getName(), collation: en2}));
    assert.commandWorked(coll.insertMany([{_id: 1, a: "foo"}, {_id: 2, a: "FOO"}]));
    assert.commandWorked(coll.createIndex({a: 1}));
    assert.includes(winning(coll.find({a: "Foo"}).explain()), "IXSCAN");
}

function otherCollationScansTheCollectionForStrings() {
    assert.commandWorked(coll.createIndex({a: 1}, {collation: en2}));
    assert.includes(winning(coll.find({a: "foo"}).explain()), "COLLSCAN");
    assert.includes(winning(coll.find({a: 7}).explain()), "IXSCAN");
}

function sortComesFromTheIndexOnlyUnderItsCollation() {
    assert.commandWorked(coll.createIndex({a: 1}, {collation: en2}));
    const own = winning(coll.find({a: {$gt: 0}}).sort({a: 1}).collation(en2).explain());
    assert(!own.includes("SORT"), tojson(own));
    const other = winning(coll.find({a: {$gt: 0}}).sort({a: 1}).explain());
    assert.includes(other, "SORT");
}

for (const t of [matchingCollationScansTheIndex, collectionDefaultCollationIsTheQueryCollation,
                 otherCollationScansTheCollectionForStrings,
                 sortComesFromTheIndexOnlyUnderItsCollation]) {
    setUp();
    t();
}
