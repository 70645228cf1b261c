/**
 * Hashed indexes: created on one field (alone or in a compound key), refused when unique
 * (16764), with two hashed fields (31303) or on an array value (16766); equality queries use
 * the index with the value's digest as the bound, ranges scan it whole; every result is the
 * one a collection scan gives (numbers truncated before hashing: 2, 2.0 and 2.7 share a key).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 50; i++)
        docs.push({_id: i, a: i % 10, s: "v" + (i % 5), o: {x: i % 3}});
    docs.push({_id: 100, a: 2.7}, {_id: 101, a: NumberLong(2)}, {_id: 102, a: null}, {_id: 103});
    assert.commandWorked(coll.insertMany(docs));
}

function ids(cursor) {
    return cursor.toArray().map(d => d._id).sort((x, y) => x - y);
}

function specValidation() {
    setUp();
    assert.commandWorked(coll.createIndex({a: "hashed"}));
    assert.commandWorked(coll.createIndex({s: 1, a: "hashed"}));
    assert.commandFailedWithCode(coll.createIndex({b: "hashed"}, {unique: true}), 16764);
    assert.commandFailedWithCode(coll.createIndex({b: "hashed", c: "hashed"}), 31303);
    const names = coll.getIndexes().map(i => i.name).sort();
    assert.eq(["_id_", "a_hashed", "s_1_a_hashed"], names);
}

function arraysRefused() {
    setUp();
    assert.commandWorked(coll.createIndex({"o.x": "hashed"}));
    assert.commandFailedWithCode(coll.insert({_id: 200, o: {x: [1, 2]}}), 16766);
    assert.commandFailedWithCode(coll.insert({_id: 201, o: [{x: 1}]}), 16766);
    assert.eq(0, coll.find({_id: {$in: [200, 201]}}).itcount());
    // An index build over an existing array fails the same way and leaves no index.
    assert.commandWorked(coll.insert({_id: 202, b: [1]}));
    assert.commandFailedWithCode(coll.createIndex({b: "hashed"}), 16766);
    assert.eq(undefined, coll.getIndexes().find(i => i.name === "b_hashed"));
}

function equalityUsesTheIndex() {
    setUp();
    assert.commandWorked(coll.createIndex({a: "hashed"}));
    for (const v of [2, 2.0, NumberInt(2), null, 7, 11]) {
        const expected = ids(coll.find({a: v}).hint({$natural: 1}));
        assert.eq(expected, ids(coll.find({a: v})), tojson(v));
        assert.eq(expected, ids(coll.find({a: v}).hint("a_hashed")), tojson(v));
    }
    assert.eq([2, 12, 22, 32, 42, 101], ids(coll.find({a: 2})));
    const plan = coll.find({a: 2}).explain().queryPlanner.winningPlan;
    assert.eq("FETCH", plan.stage, tojson(plan));
    assert.eq("IXSCAN", plan.inputStage.stage, tojson(plan));
    assert.eq("a_hashed", plan.inputStage.indexName, tojson(plan));
}

function rangesAreRechecked() {
    setUp();
    assert.commandWorked(coll.createIndex({a: "hashed"}));
    const expected = ids(coll.find({a: {$gt: 2, $lte: 5}}).hint({$natural: 1}));
    assert.eq(expected, ids(coll.find({a: {$gt: 2, $lte: 5}}).hint("a_hashed")));
    assert.eq([3, 4, 5, 13, 14, 15, 23, 24, 25, 33, 34, 35, 43, 44, 45, 100], expected);
    // Sorting by a hashed field needs a blocking sort: results stay in value order.
    const sorted = coll.find({a: {$gte: 8}}).sort({a: 1}).hint("a_hashed").toArray().map(d => d.a);
    assert.eq([8, 8, 8, 8, 8, 9, 9, 9, 9, 9], sorted);
}

function compoundAndCollation() {
    setUp();
    assert.commandWorked(
        coll.createIndex({s: "hashed", a: 1}, {collation: {locale: "en", strength: 2}}));
    const q = {s: "V3", a: 3};
    const expected = ids(coll.find(q).collation({locale: "en", strength: 2}).hint({$natural: 1}));
    assert.eq([3, 13, 23, 33, 43].filter(i => i % 5 === 3), expected);
    assert.eq(expected, ids(coll.find(q).collation({locale: "en", strength: 2})));
    assert.eq(expected,
              ids(coll.find(q).collation({locale: "en", strength: 2}).hint("s_hashed_a_1")));
    // Without the index's collation the string cannot be bounded: still the right answer.
    assert.eq([], ids(coll.find(q).hint("s_hashed_a_1")));
}

function distinctAndGroupStayCorrect() {
    setUp();
    assert.commandWorked(coll.createIndex({a: "hashed"}));
    const vals = coll.distinct("a").filter(v => v !== null).sort((x, y) => x - y);
    assert.eq([0, 1, 2, 2.7, 3, 4, 5, 6, 7, 8, 9], vals);
    const groups = coll.aggregate([{$sort: {a: 1}}, {$group: {_id: "$a"}}, {$sort: {_id: 1}}])
                       .toArray().map(g => g._id);
    assert.eq([null, 0, 1, 2, 2.7, 3, 4, 5, 6, 7, 8, 9], groups);
}

runScenarios(specValidation, arraysRefused, equalityUsesTheIndex, rangesAreRechecked,
             compoundAndCollation, distinctAndGroupStayCorrect);
