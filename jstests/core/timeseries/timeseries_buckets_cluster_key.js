/**
 * The cluster key of a time-series buckets collection: create of system.buckets.* with
 * `timeseries` takes only the legacy {clusteredIndex: true} (a sub-document: its parse errors,
 * then 5979703; false: InvalidOptions); createIndex({_id: 1}) on the buckets names the
 * clustered index that exists (no new index); `clustered: true` needs `unique: true`
 * (CannotCreateIndex), and no other key may be clustered.
 */
const name = jsTestName();
const bucketsName = "system.buckets." + name;
const options = {timeseries: {timeField: "t"}, expireAfterSeconds: 10};

function createBuckets(clusteredIndex) {
    db.getCollection(bucketsName).drop();
    return db.runCommand(Object.assign({create: bucketsName, clusteredIndex}, options));
}

function bucketsCreateTakesLegacyClusteredIndexOnly() {
    assert.commandWorked(createBuckets(true));
    assert.commandFailedWithCode(createBuckets({}), ErrorCodes.IDLFailedToParse);
    assert.commandFailedWithCode(createBuckets("a"), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(createBuckets(false), ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(createBuckets({key: {_id: 1}, unique: true}), 5979703);
}

function clusterKeyIndexIsTheClusteredIndex() {
    db.getCollection(name).drop();
    assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t"}}));
    const buckets = db.getCollection(bucketsName);
    const before = buckets.getIndexes().length;
    let res = assert.commandWorked(buckets.createIndex({_id: 1}));
    assert.eq("all indexes already exist", res.note, tojson(res));
    assert.commandWorked(buckets.createIndex({_id: 1}, {clustered: true, unique: true}));
    assert.eq(before, buckets.getIndexes().length);
    assert.commandFailedWithCode(buckets.createIndex({_id: 1}, {clustered: true}),
                                 ErrorCodes.CannotCreateIndex);
    assert.commandFailedWithCode(buckets.createIndex({meta: 1}, {clustered: true, unique: true}),
                                 ErrorCodes.CannotCreateIndex);
}

bucketsCreateTakesLegacyClusteredIndexOnly();
clusterKeyIndexIsTheClusteredIndex();
