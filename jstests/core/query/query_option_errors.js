/**
 * Query options upstream refuses, and internalQueryFindCommandBatchSize: $natural in a sort or
 * hint only alone and with 1 or -1, no $natural sort with an index hint, no $expr inside an
 * $elemMatch, no embedded null byte in a distinct key; a find without batchSize returns
 * internalQueryFindCommandBatchSize documents in its first batch.
 */
const coll = db[jsTestName()];
coll.drop();
const docs = [];
for (let i = 0; i < 150; i++)
    docs.push({_id: i, a: i % 3, arr: [{x: i}]});
assert.commandWorked(coll.insertMany(docs));
assert.commandWorked(coll.createIndex({a: 1}));

function findFails(cmd, code) {
    assert.commandFailedWithCode(db.runCommand(Object.assign({find: coll.getName()}, cmd)), code,
                                 tojson(cmd));
}
findFails({hint: {a: 1, $natural: 1}}, ErrorCodes.BadValue);
findFails({hint: {$natural: 2}}, ErrorCodes.BadValue);
findFails({sort: {$natural: 1, a: 1}}, ErrorCodes.BadValue);
findFails({sort: {$natural: 1}, hint: {a: 1}}, ErrorCodes.BadValue);
assert.eq(150, coll.find().hint({$natural: 1}).sort({a: 1}).itcount());
assert.eq(150, coll.find().sort({$natural: -1}).hint({$natural: 1}).itcount());

findFails({filter: {arr: {$elemMatch: {$expr: {$eq: ["$x", 1]}}}}}, ErrorCodes.BadValue);
assert.eq(1, coll.find({$expr: {$eq: ["$_id", 1]}}).itcount());

assert.commandFailedWithCode(db.runCommand({distinct: coll.getName(), key: "a\0b"}), 31032);

const was = assert.commandWorked(
    db.adminCommand({getParameter: 1, internalQueryFindCommandBatchSize: 1}));
assert.eq(101, was.internalQueryFindCommandBatchSize);
try {
    assert.commandWorked(db.adminCommand({setParameter: 1, internalQueryFindCommandBatchSize: 7}));
    const res = assert.commandWorked(db.runCommand({find: coll.getName()}));
    assert.eq(7, res.cursor.firstBatch.length);
    assert.commandFailed(db.adminCommand({setParameter: 1, internalQueryFindCommandBatchSize: 0}));
} finally {
    assert.commandWorked(db.adminCommand(
        {setParameter: 1, internalQueryFindCommandBatchSize: was.internalQueryFindCommandBatchSize}));
}
