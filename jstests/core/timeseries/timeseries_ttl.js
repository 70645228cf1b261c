/**
 * TTL of a time-series collection (spec §7): whole buckets are deleted once their start
 * plus bucketMaxSpanSeconds is older than expireAfterSeconds; recent buckets stay.
 * The suite runs mongod with ttlMonitorSleepSecs=1.
 */
const name = jsTestName();
const coll = db[name];
const now = Date.now();

function collectionLevelTTL() {
    coll.drop();
    assert.commandWorked(db.runCommand(
        {create: name, timeseries: {timeField: "t", metaField: "m"}, expireAfterSeconds: 3600}));
    assert.commandWorked(coll.insertMany([
        {t: new Date(now - 10 * 24 * 3600 * 1000), m: "old"},
        {t: new Date(now - 10 * 24 * 3600 * 1000 + 1000), m: "old"},
        {t: new Date(now), m: "new"},
    ]));
    assert.eq(3, coll.countDocuments({}));
    assert.soon(() => coll.countDocuments({}) === 1, "old bucket not expired", 30 * 1000);
    assert.eq("new", coll.findOne().m);
    assert.eq(1, db["system.buckets." + name].countDocuments({}));
}

function partialTTLIndexOnMeta() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(db.runCommand({createIndexes: name, indexes: [
        {key: {t: 1}, name: "ttl", expireAfterSeconds: 60, partialFilterExpression: {m: "temp"}}]}));
    assert.commandWorked(coll.insertMany([
        {t: new Date(now - 10 * 24 * 3600 * 1000), m: "temp"},
        {t: new Date(now - 10 * 24 * 3600 * 1000), m: "keep"},
    ]));
    assert.soon(() => coll.countDocuments({}) === 1, "partial TTL did not run", 30 * 1000);
    assert.eq("keep", coll.findOne().m);
}

function insertsContinueAfterExpiry() {
    collectionLevelTTL();
    assert.commandWorked(coll.insertOne({t: new Date(now - 10 * 24 * 3600 * 1000), m: "old"}));
    assert.commandWorked(coll.insertOne({t: new Date(now + 1), m: "new"}));
    assert.soon(() => coll.countDocuments({}) === 2, "old bucket not expired again", 30 * 1000);
}

runScenarios(collectionLevelTTL, partialTTLIndexOnMeta, insertsContinueAfterExpiry);
