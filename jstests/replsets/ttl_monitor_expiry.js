/**
 * The TTL monitor (ttlMonitorSleepSecs=1 in this suite) deletes documents whose
 * TTL-indexed date is older than expireAfterSeconds; for an array of dates the
 * earliest counts; non-date values and documents without the field never expire.
 */
const coll = db[jsTestName()];

function waitForCount(n) {
    assert.soon(() => coll.countDocuments({}) === n,
                () => "expected " + n + " documents, have " + tojson(coll.find().toArray()),
                20 * 1000, 200);
}

function expiredDocumentsAreDeleted() {
    coll.drop();
    assert.commandWorked(coll.createIndex({t: 1}, {expireAfterSeconds: 5}));
    const old = new Date(Date.now() - 60 * 1000);
    const fresh = new Date(Date.now() + 60 * 60 * 1000);
    assert.commandWorked(coll.insertMany([
        {_id: "old", t: old},
        {_id: "fresh", t: fresh},
        {_id: "arrayWithOldDate", t: [fresh, old]},
        {_id: "notADate", t: "yesterday"},
        {_id: "noField"},
    ]));
    waitForCount(3);
    assert.eq(["fresh", "noField", "notADate"], coll.find().sort({_id: 1}).toArray().map((d) => d._id));
}

function monitorCanBeDisabled() {
    coll.drop();
    assert.commandWorked(db.adminCommand({setParameter: 1, ttlMonitorEnabled: false}));
    assert.commandWorked(coll.createIndex({t: 1}, {expireAfterSeconds: 0}));
    assert.commandWorked(coll.insertOne({_id: 1, t: new Date(Date.now() - 1000)}));
    sleep(2500);
    assert.eq(1, coll.countDocuments({}));
    assert.commandWorked(db.adminCommand({setParameter: 1, ttlMonitorEnabled: true}));
    waitForCount(0);
}

runScenarios(expiredDocumentsAreDeleted, monitorCanBeDisabled);
