/**
 * Writes to system.buckets.<coll> by any path (insert/update/delete commands, findAndModify,
 * applyOps, TTL, deletes and updates of measurements through the view) reach the bucket
 * catalog through one op observer: the next measurement of the same series never lands in
 * a stale in-memory copy of a bucket that was written, and what the write did stays.
 * The suite runs mongod with ttlMonitorSleepSecs=1.
 */
const name = jsTestName();
const coll = db[name];
const buckets = db["system.buckets." + name];
const base = ISODate("2024-05-01T00:00:00Z").getTime();

function setUp(options = {}) {
    coll.drop();
    assert.commandWorked(db.runCommand(
        Object.assign({create: name, timeseries: {timeField: "t", metaField: "m"}}, options)));
}

/** The x values of series `m`, in time order. */
function xs(m) {
    return coll.find({m: m}).sort({t: 1}).toArray().map((d) => d.x);
}

/** One open bucket of series "a" holding x: 1 at `base`; returns its document. */
function openBucketOfA(time = base) {
    assert.commandWorked(coll.insertOne({t: new Date(time), m: "a", x: 1}));
    const b = buckets.findOne({meta: "a"});
    assert(b, "no bucket for series a");
    return b;
}

/** After the bucket of "a" was moved to series "z", x: 2 of "a" goes to a new bucket. */
function assertMovedToZThenNewBucket() {
    assert.commandWorked(coll.insertOne({t: new Date(base + 1000), m: "a", x: 2}));
    assert.eq([1], xs("z"));
    assert.eq([2], xs("a"));
    assert.eq(2, buckets.countDocuments({}));
    assert.eq(1, buckets.findOne({meta: "z"}).control.count, tojson(buckets.findOne({meta: "z"})));
}

/** After the bucket of "a" was deleted, x: 2 of "a" is alone in a new bucket. */
function assertDeletedThenNewBucket() {
    assert.commandWorked(coll.insertOne({t: new Date(base + 1000), m: "a", x: 2}));
    assert.eq([2], xs("a"));
    assert.eq(1, buckets.countDocuments({}));
    assert.eq(1, buckets.findOne().control.count);
}

function updateCommand() {
    setUp();
    openBucketOfA();
    assert.commandWorked(db.runCommand(
        {update: buckets.getName(), updates: [{q: {meta: "a"}, u: {$set: {meta: "z"}}}]}));
    assertMovedToZThenNewBucket();
}

function updateCommandClosingTheBucket() {
    setUp();
    openBucketOfA();
    assert.commandWorked(db.runCommand({
        update: buckets.getName(),
        updates: [{q: {meta: "a"}, u: {$set: {"control.closed": true}}}]
    }));
    assert.commandWorked(coll.insertOne({t: new Date(base + 1000), m: "a", x: 2}));
    assert.eq([1, 2], xs("a"));
    assert.eq(2, buckets.countDocuments({meta: "a"}));
    assert.eq(1, buckets.findOne({"control.closed": true}).control.count);
}

function deleteCommand() {
    setUp();
    openBucketOfA();
    assert.commandWorked(db.runCommand({delete: buckets.getName(), deletes: [{q: {meta: "a"}, limit: 0}]}));
    assertDeletedThenNewBucket();
}

function insertCommandAfterDelete() {
    setUp();
    const b = openBucketOfA();
    // The bucket is replaced by a raw copy of another series under the same _id.
    assert.commandWorked(db.runCommand({delete: buckets.getName(), deletes: [{q: {_id: b._id}, limit: 1}]}));
    assert.commandWorked(
        db.runCommand({insert: buckets.getName(), documents: [Object.assign({}, b, {meta: "z"})]}));
    assertMovedToZThenNewBucket();
}

function findAndModifyUpdate() {
    setUp();
    openBucketOfA();
    assert.commandWorked(db.runCommand(
        {findAndModify: buckets.getName(), query: {meta: "a"}, update: {$set: {meta: "z"}}}));
    assertMovedToZThenNewBucket();
}

function findAndModifyRemove() {
    setUp();
    openBucketOfA();
    const res = assert.commandWorked(
        db.runCommand({findAndModify: buckets.getName(), query: {meta: "a"}, remove: true}));
    assert.eq("a", res.value.meta, tojson(res));
    assertDeletedThenNewBucket();
}

function applyOpsUpdate() {
    setUp();
    const b = openBucketOfA();
    assert.commandWorked(db.adminCommand({
        applyOps: [{
            op: "u",
            ns: buckets.getFullName(),
            o2: {_id: b._id},
            o: {$v: 2, diff: {u: {meta: "z"}}}
        }]
    }));
    assertMovedToZThenNewBucket();
}

function applyOpsDeleteAndInsert() {
    setUp();
    const b = openBucketOfA();
    assert.commandWorked(
        db.adminCommand({applyOps: [{op: "d", ns: buckets.getFullName(), o: {_id: b._id}}]}));
    assertDeletedThenNewBucket();
    // An insert entry for an existing _id replaces the document.
    const again = buckets.findOne({meta: "a"});
    assert.commandWorked(db.adminCommand({
        applyOps: [{op: "i", ns: buckets.getFullName(), o: Object.assign({}, again, {meta: "z"})}]
    }));
    assert.commandWorked(coll.insertOne({t: new Date(base + 2000), m: "a", x: 3}));
    assert.eq([2], xs("z"));
    assert.eq([3], xs("a"));
}

function ttlDeletion() {
    const old = Date.now() - 10 * 24 * 3600 * 1000;
    setUp({expireAfterSeconds: 3600});
    // The monitor (every second) may remove the bucket before it can be looked at.
    assert.commandWorked(coll.insertOne({t: new Date(old), m: "a", x: 1}));
    assert.soon(() => buckets.countDocuments({}) === 0, "bucket not expired", 30 * 1000);
    // Stop the monitor to look at the next bucket before it expires too.
    assert.commandWorked(db.adminCommand({setParameter: 1, ttlMonitorEnabled: false}));
    try {
        sleep(1500);  // a pass that started before the switch has ended
        assert.commandWorked(coll.insertOne({t: new Date(old + 1000), m: "a", x: 2}));
        assert.eq([2], xs("a"));
        assert.eq(1, buckets.countDocuments({}));
        assert.eq(1, buckets.findOne().control.count);
    } finally {
        assert.commandWorked(db.adminCommand({setParameter: 1, ttlMonitorEnabled: true}));
    }
}

function deleteThroughView() {
    setUp();
    openBucketOfA();
    assert.commandWorked(coll.insertOne({t: new Date(base + 500), m: "a", x: 5}));
    assert.eq(1, buckets.countDocuments({}));
    assert.commandWorked(coll.deleteOne({x: 1}));
    assert.commandWorked(coll.insertOne({t: new Date(base + 1000), m: "a", x: 2}));
    assert.eq([5, 2], xs("a"));
    const counts = buckets.find().toArray().map((b) => b.control.count);
    assert.eq(2, counts.reduce((s, c) => s + c, 0), tojson(buckets.find().toArray()));
}

function updateThroughView() {
    setUp();
    openBucketOfA();
    assert.commandWorked(coll.insertOne({t: new Date(base + 500), m: "a", x: 5}));
    assert.commandWorked(coll.updateOne({x: 1}, {$set: {x: 10}}));
    assert.commandWorked(coll.insertOne({t: new Date(base + 1000), m: "a", x: 2}));
    assert.eq([10, 5, 2], xs("a"));
    const counts = buckets.find().toArray().map((b) => b.control.count);
    assert.eq(3, counts.reduce((s, c) => s + c, 0), tojson(buckets.find().toArray()));
}

runScenarios(updateCommand, updateCommandClosingTheBucket, deleteCommand, insertCommandAfterDelete,
             findAndModifyUpdate, findAndModifyRemove, applyOpsUpdate, applyOpsDeleteAndInsert,
             ttlDeletion, deleteThroughView, updateThroughView);
