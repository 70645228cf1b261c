/**
 * distinct's size limits: on a collection the distinct values are capped at 16 MB (17217); on a
 * view distinct runs as an aggregation ending in $addToSet, so a value set just over 16 MB is
 * returned and the set counts against internalQueryMaxAddToSetBytes (146 ExceededMemoryLimit).
 */
const coll = db[jsTestName()];
const viewName = jsTestName() + "_xl";
const plainViewName = jsTestName() + "_plain";
const limit = 16 * 1024 * 1024;

db[viewName].drop();
db[plainViewName].drop();
coll.drop();
assert.commandWorked(coll.insert({_id: 1, x: "a".repeat(limit - 26)}));
assert.commandWorked(coll.insert({_id: 2, x: "b".repeat(1023)}));

// The collection path: 16 MB + 1 KB of values is refused.
assert.commandFailedWithCode(db.runCommand({distinct: coll.getName(), key: "x"}), 17217);

// Through a view whose one document holds both strings in an array: both are returned.
assert.commandWorked(db.createView(
    viewName, coll.getName(), [{$group: {_id: null, xlField: {$addToSet: "$x"}}}]));
let res = assert.commandWorked(db.runCommand({distinct: viewName, key: "xlField"}));
assert.eq(2, res.values.length);

// The $addToSet memory limit applies to a view's distinct, not the 16 MB cap.
const small = db[jsTestName() + "_small"];
small.drop();
const docs = [];
for (let i = 0; i < 200; ++i)
    docs.push({k: i});
assert.commandWorked(small.insertMany(docs));
assert.commandWorked(db.createView(plainViewName, small.getName(), []));
const old = assert.commandWorked(db.adminCommand({getParameter: 1, internalQueryMaxAddToSetBytes: 1}))
                .internalQueryMaxAddToSetBytes;
assert.commandWorked(db.adminCommand({setParameter: 1, internalQueryMaxAddToSetBytes: 1000}));
try {
    assert.commandFailedWithCode(db.runCommand({distinct: plainViewName, key: "k"}),
                                 ErrorCodes.ExceededMemoryLimit);
    // The collection path is not bound by that parameter.
    res = assert.commandWorked(db.runCommand({distinct: small.getName(), key: "k"}));
    assert.eq(200, res.values.length);
} finally {
    assert.commandWorked(db.adminCommand({setParameter: 1, internalQueryMaxAddToSetBytes: old}));
}
res = assert.commandWorked(db.runCommand({distinct: plainViewName, key: "k"}));
assert.eq(200, res.values.length);

db[viewName].drop();
db[plainViewName].drop();
small.drop();
coll.drop();
