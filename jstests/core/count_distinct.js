/**
 * The count command honours query, skip and limit and replies {n, ok};
 * distinct returns the unique values of a field (array elements unwound).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: 1, tags: ["x", "y"]},
        {_id: 2, a: 1, tags: ["y"]},
        {_id: 3, a: 2, tags: "z"},
        {_id: 4, a: 3},
        {_id: 5, b: 1},
    ]));
}

function countAll() {
    const res = assert.commandWorked(db.runCommand({count: coll.getName()}));
    assert.eq(5, res.n);
}

function countWithQuerySkipLimit() {
    assert.eq(2, db.runCommand({count: coll.getName(), query: {a: 1}}).n);
    assert.eq(4, db.runCommand({count: coll.getName(), query: {a: {$gte: 1}}}).n);
    assert.eq(2, db.runCommand({count: coll.getName(), skip: 3}).n);
    assert.eq(2, db.runCommand({count: coll.getName(), limit: 2}).n);
    assert.eq(1, db.runCommand({count: coll.getName(), query: {a: {$gte: 1}}, skip: 1, limit: 1}).n);
}

function countMissingCollectionIsZero() {
    const res = assert.commandWorked(db.runCommand({count: "count_distinct_no_such_coll"}));
    assert.eq(0, res.n);
}

function distinctScalarField() {
    const res = assert.commandWorked(db.runCommand({distinct: coll.getName(), key: "a"}));
    assert.sameMembers([1, 2, 3], res.values);
    assert.sameMembers([1, 2, 3], coll.distinct("a"));
}

function distinctUnwindsArrays() {
    const res = assert.commandWorked(db.runCommand({distinct: coll.getName(), key: "tags"}));
    assert.sameMembers(["x", "y", "z"], res.values);
}

function distinctWithQuery() {
    const res = assert.commandWorked(db.runCommand({distinct: coll.getName(), key: "a", query: {a: {$gt: 1}}}));
    assert.sameMembers([2, 3], res.values);
}

function distinctMissingCollectionIsEmpty() {
    const res = assert.commandWorked(db.runCommand({distinct: "count_distinct_no_such_coll", key: "a"}));
    assert.eq([], res.values);
}

function countHintByKeyPatternOfAnyNumberType() {
    // The legacy shell sends numbers as doubles: {_id: 1.0} names the {_id: 1} index.
    for (const hint of [{_id: 1}, {_id: Double(1)}, {_id: NumberLong("1")}, "_id_"]) {
        const res = assert.commandWorked(
            db.runCommand({count: coll.getName(), query: {a: 1}, hint: hint}), tojson(hint));
        assert.eq(2, res.n);
    }
    assert.commandFailedWithCode(db.runCommand({count: coll.getName(), hint: {_id: -1}}),
                                 ErrorCodes.BadValue);
}

runScenarios(
    setUp,
    countAll,
    countHintByKeyPatternOfAnyNumberType,
    countWithQuerySkipLimit,
    countMissingCollectionIsZero,
    distinctScalarField,
    distinctUnwindsArrays,
    distinctWithQuery,
    distinctMissingCollectionIsEmpty,
);
