/**
 * Sorting uses the smallest array element ascending and the largest
 * descending, puts null and missing together before numbers, numbers before
 * strings, and supports several keys.
 */
const coll = db[jsTestName()];

function sortedIds(sort) {
    return coll.find().sort(sort).toArray().map((d) => d._id);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: [1, 5], b: 1},
        {_id: 2, a: 3, b: 2},
        {_id: 3, a: null, b: 1},
        {_id: 4, b: 2},
        {_id: 5, a: [0, 10], b: 1},
        {_id: 6, a: "s", b: 2},
    ]));
}

function ascendingUsesMinimumElement() {
    assert.eq([3, 4, 5, 1, 2, 6], sortedIds({a: 1, _id: 1}));
}

function descendingUsesMaximumElement() {
    assert.eq([6, 5, 1, 2, 3, 4], sortedIds({a: -1, _id: 1}));
}

function severalKeys() {
    assert.eq([5, 3, 1, 6, 4, 2], sortedIds({b: 1, _id: -1}));
    assert.eq([2, 4, 6, 1, 3, 5], sortedIds({b: -1, _id: 1}));
}

function sortWithFilterAndLimit() {
    const got = coll.find({b: 1}).sort({a: -1}).limit(2).toArray().map((d) => d._id);
    assert.eq([5, 1], got);
}

function invalidSortOrderFails() {
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), sort: {a: 2}}), 15975);
}

runScenarios(setUp, ascendingUsesMinimumElement, descendingUsesMaximumElement, severalKeys, sortWithFilterAndLimit,
             invalidSortOrderFails);
