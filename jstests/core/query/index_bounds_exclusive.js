/**
 * Range bounds on a leading field of a compound index: an exclusive bound must exclude the
 * keys equal to it whatever the unbounded fields after it hold (no extra documents fetched),
 * for ascending and descending key fields; inclusive bounds keep them.
 */
const coll = db[jsTestName()];

function setUp(keyPattern) {
    coll.drop();
    const docs = [];
    for (let a = 1; a <= 5; a++)
        for (let b = 0; b < 4; b++)
            docs.push({a: a, b: b});
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(coll.createIndex(keyPattern));
}

function check(filter, expectedAs) {
    const docs = coll.find(filter).toArray();
    assert.eq(expectedAs.length * 4, docs.length, tojson(filter));
    assert.eq(expectedAs, [...new Set(docs.map(d => d.a))].sort(), tojson(filter));
    const stats = coll.find(filter).explain("executionStats").executionStats;
    assert.eq(docs.length, stats.totalDocsExamined, tojson(filter) + " " + tojson(stats));
}

function boundsOn(keyPattern) {
    return function() {
        setUp(keyPattern);
        check({a: {$gt: 2, $lt: 4}}, [3]);
        check({a: {$gte: 2, $lt: 4}}, [2, 3]);
        check({a: {$gt: 2, $lte: 4}}, [3, 4]);
        check({a: {$gte: 2, $lte: 4}}, [2, 3, 4]);
        check({a: {$gt: 4}}, [5]);
        check({a: {$lt: 2}}, [1]);
    };
}

runScenarios(boundsOn({a: 1, b: 1}), boundsOn({a: -1, b: 1}), boundsOn({a: 1, b: -1}));
