/**
 * serverStatus().metrics.queryExecutor counts the index keys (scanned) and documents
 * (scannedObjects) every plan examined, as upstream: a $lookup in a $facet scans the foreign
 * collection once per local document.
 */
const testDB = db.getSiblingDB(jsTestName());
assert.commandWorked(testDB.dropDatabase());
const local = testDB.local, foreign = testDB.foreign;
assert.commandWorked(local.insert([{_id: 1}, {_id: 2}, {_id: 3}]));
assert.commandWorked(foreign.insert([{_id: 0, k: 1}, {_id: 1, k: 2}, {_id: 2, k: 3}]));

function counters() {
    const qe = assert.commandWorked(testDB.adminCommand({serverStatus: 1})).metrics.queryExecutor;
    assert(qe.hasOwnProperty("scanned") && qe.hasOwnProperty("scannedObjects"), tojson(qe));
    return {scanned: Number(qe.scanned), scannedObjects: Number(qe.scannedObjects)};
}

let before = counters();
const lookup = {$lookup: {from: foreign.getName(), let: {id: "$_id"}, pipeline: [{$match: {$expr: {$eq: ["$$id", "$k"]}}}], as: "j"}};
assert.eq(1, local.aggregate([{$facet: {nested: [lookup]}}]).itcount());
let after = counters();
assert.eq(3 + 3 * 3, after.scannedObjects - before.scannedObjects);
assert.eq(0, after.scanned - before.scanned);

before = counters();
assert.eq(2, local.find({_id: {$gte: 2}}).itcount());
after = counters();
assert.eq(2, after.scanned - before.scanned);
assert.eq(2, after.scannedObjects - before.scannedObjects);
