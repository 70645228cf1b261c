/**
 * A plan whose blocking SORT outgrows internalQueryMaxBlockingSortMemoryUsageBytes before
 * returning anything gives way to a plan over an index that provides the order, as upstream's
 * multi-planner drops such a plan. Without such an index the error stands (292).
 */
const coll = db[jsTestName()];
coll.drop();
const big = "x".repeat(10000);
const docs = [];
for (let i = 0; i < 50; i++)
    docs.push({_id: i, b: null, d: 50 - i, pad: big});
assert.commandWorked(coll.insertMany(docs));
assert.commandWorked(coll.createIndex({b: 1}));

const old = assert.commandWorked(
    db.adminCommand({setParameter: 1, internalQueryMaxBlockingSortMemoryUsageBytes: 100000}));
try {
    // {b: 1} bounds the filter, the _id index gives the order: the sort plan fails, the other runs.
    const res = coll.find({b: null}).sort({_id: 1}).allowDiskUse(false).toArray();
    assert.eq(50, res.length);
    assert.eq(docs.map(d => d._id), res.map(d => d._id));
    // No index gives {d: 1}: the error reaches the client.
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {b: null}, sort: {d: 1}, allowDiskUse: false}),
        ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
} finally {
    assert.commandWorked(db.adminCommand(
        {setParameter: 1, internalQueryMaxBlockingSortMemoryUsageBytes: old.was}));
}
