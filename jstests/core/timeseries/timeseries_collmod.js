/**
 * collMod on a time-series collection (spec §1.7): granularity only coarser, span and
 * rounding only together, equal and not decreasing, expireAfterSeconds set/"off",
 * rejected options, and InvalidNamespace on the buckets collection; index options other than
 * hidden are refused, validation happens before any change, collectionUUID is checked and the
 * new bucketing parameters are used for new buckets only.
 */
const name = jsTestName();

function create(ts) {
    db[name].drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: ts}));
}

function tsOptions() {
    return db.getCollectionInfos({name: name})[0].options.timeseries;
}

function granularityTransitions() {
    create({timeField: "t", metaField: "m"});
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {granularity: "seconds"}}));
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {granularity: "minutes"}}));
    assert.docEq({timeField: "t", metaField: "m", granularity: "minutes", bucketMaxSpanSeconds: 86400},
                 tsOptions());
    assert.commandFailedWithCode(db.runCommand({collMod: name, timeseries: {granularity: "seconds"}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {granularity: "hours"}}));
    assert.eq(2592000, tsOptions().bucketMaxSpanSeconds);
    // The view pipeline follows the new span.
    const view = db.system.views.findOne({_id: db.getName() + "." + name});
    assert.eq(2592000, view.pipeline[0].$_internalUnpackBucket.bucketMaxSpanSeconds);
}

function spanAndRounding() {
    create({timeField: "t", bucketMaxSpanSeconds: 100, bucketRoundingSeconds: 100});
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseries: {bucketMaxSpanSeconds: 200}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseries: {bucketMaxSpanSeconds: 200, bucketRoundingSeconds: 100}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseries: {bucketMaxSpanSeconds: 50, bucketRoundingSeconds: 50}}),
        ErrorCodes.InvalidOptions);
    assert.commandWorked(
        db.runCommand({collMod: name, timeseries: {bucketMaxSpanSeconds: 200, bucketRoundingSeconds: 200}}));
    assert.docEq({timeField: "t", bucketRoundingSeconds: 200, bucketMaxSpanSeconds: 200}, tsOptions());
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {}}));
}

function expireAfterSeconds() {
    create({timeField: "t"});
    assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: 60}));
    assert.eq(60, db.getCollectionInfos({name: name})[0].options.expireAfterSeconds);
    assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: "off"}));
    assert.eq(undefined, db.getCollectionInfos({name: name})[0].options.expireAfterSeconds);
    assert.commandFailedWithCode(db.runCommand({collMod: name, expireAfterSeconds: -5}),
                                 ErrorCodes.InvalidOptions);
}

function rejectedOptions() {
    create({timeField: "t"});
    assert.commandFailedWithCode(db.runCommand({collMod: name, validator: {a: 1}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: name, validationLevel: "off"}),
                                 ErrorCodes.InvalidOptions);
    // recordPreImages (removed in 6.0) is refused on time-series and plain collections alike.
    assert.commandFailedWithCode(db.runCommand({collMod: name, recordPreImages: true}),
                                 ErrorCodes.InvalidOptions);
    db.plain_collmod.drop();
    assert.commandWorked(db.createCollection("plain_collmod"));
    assert.commandFailedWithCode(db.runCommand({collMod: "plain_collmod", recordPreImages: true}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: "system.buckets." + name, expireAfterSeconds: 5}),
                                 ErrorCodes.InvalidNamespace);
}

function hideIndexByUserKey() {
    create({timeField: "t", metaField: "m"});
    const res = assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {m: 1, t: 1}, hidden: true}}));
    assert.eq(false, res.hidden_old);
    assert.eq(true, res.hidden_new);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {x: "text"}, hidden: true}}),
        ErrorCodes.IndexNotFound);
}

function expireAfterSecondsErrors() {
    create({timeField: "t"});
    assert.commandFailedWithCode(db.runCommand({collMod: name, expireAfterSeconds: "on"}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: name, expireAfterSeconds: true}),
                                 ErrorCodes.TypeMismatch);
    // "off" on a collection without TTL is a no-op.
    assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: "off"}));
    const res = assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: 100}));
    assert.eq(undefined, res.expireAfterSeconds_new);  // collection-level: no _old/_new
    assert.eq(NumberLong(100), db.getCollectionInfos({name: name})[0].options.expireAfterSeconds);
}

function indexOptionsOtherThanHidden() {
    create({timeField: "t", metaField: "m"});
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {m: 1, t: 1}, expireAfterSeconds: 10}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {m: 1, t: 1}, prepareUnique: true}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {m: 1, t: 1}, unique: true}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, changeStreamPreAndPostImages: {enabled: true}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: name, cappedSize: 1000}),
                                 ErrorCodes.InvalidOptions);
    const res = assert.commandWorked(
        db.runCommand({collMod: name, index: {name: "m_1_t_1", hidden: true}}));
    assert.eq(true, res.hidden_new);
}

function nothingChangesWhenOneOptionIsBad() {
    create({timeField: "t", metaField: "m"});
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseries: {granularity: "minutes"}, expireAfterSeconds: -1}),
        ErrorCodes.InvalidOptions);
    assert.eq("seconds", tsOptions().granularity);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, expireAfterSeconds: 10, index: {name: "nope", hidden: true}}),
        ErrorCodes.IndexNotFound);
    assert.eq(undefined, db.getCollectionInfos({name: name})[0].options.expireAfterSeconds);
}

function collectionUUIDOnTheView() {
    create({timeField: "t"});
    const bucketsUuid = db.getCollectionInfos({name: "system.buckets." + name})[0].info.uuid;
    const res = db.runCommand({collMod: name, expireAfterSeconds: 5, collectionUUID: bucketsUuid});
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch);
    assert.eq(name, res.expectedCollection);
    assert.eq("system.buckets." + name, res.actualCollection);
    // collMod keeps the buckets collection's UUID.
    assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: 5}));
    assert.eq(bucketsUuid, db.getCollectionInfos({name: "system.buckets." + name})[0].info.uuid);
}

function newBucketsUseNewParameters() {
    create({timeField: "t", metaField: "m"});
    const t0 = ISODate("2024-01-01T05:30:00Z");
    assert.commandWorked(db[name].insert({t: t0, m: 1}));
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {granularity: "hours"}}));
    // Earlier than the existing bucket: a new bucket, rounded to the day (the old rounding
    // would give 03:30); the existing bucket keeps its start.
    assert.commandWorked(db[name].insert({t: new Date(t0.getTime() - 2 * 3600 * 1000), m: 1}));
    assert.commandWorked(db[name].insert({t: new Date(t0.getTime() - 1 * 3600 * 1000), m: 1}));
    const buckets = db["system.buckets." + name].find().sort({"control.min.t": 1}).toArray();
    assert.eq(2, buckets.length, tojson(buckets));
    assert.eq(ISODate("2024-01-01T00:00:00Z"), buckets[0].control.min.t);
    assert.eq(ISODate("2024-01-01T05:30:00Z"), buckets[1].control.min.t);
    assert.eq(3, db[name].find().itcount());
    assert.eq(3, db[name].find({t: {$lte: t0}}).itcount());
}

function openBucketGrowsToNewSpan() {
    // seconds: a bucket spans an hour; after collMod to minutes the open bucket keeps its start
    // and takes measurements up to a day after it.
    create({timeField: "t", granularity: "seconds"});
    const bucketsColl = db["system.buckets." + name];
    assert.commandWorked(db[name].insert({t: ISODate("2024-03-01T10:00:00Z")}));
    assert.commandWorked(db[name].insert({t: ISODate("2024-03-01T11:00:00Z")}));
    assert.eq(2, bucketsColl.find().itcount());
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {granularity: "minutes"}}));
    assert.commandWorked(db[name].insert({t: ISODate("2024-03-02T10:59:59.999Z")}));
    assert.eq(2, bucketsColl.find().itcount());
    assert.commandWorked(db[name].insert({t: ISODate("2024-03-02T11:00:00Z")}));
    assert.eq(3, bucketsColl.find().itcount());
    assert.eq(4, db[name].find().itcount());
}

runScenarios(granularityTransitions, spanAndRounding, expireAfterSeconds, rejectedOptions,
             hideIndexByUserKey, expireAfterSecondsErrors, indexOptionsOtherThanHidden,
             nothingChangesWhenOneOptionIsBad, collectionUUIDOnTheView, newBucketsUseNewParameters,
             openBucketGrowsToNewSpan);

// The buckets' clustered _id index is not an index of the time-series collection.
(function clusteredIdIndexIsNotAnIndexOfTheCollection() {
    const c = db.ts_collmod_id_index;
    c.drop();
    assert.commandWorked(db.createCollection(c.getName(), {timeseries: {timeField: "t"}}));
    assert.commandFailedWithCode(db.runCommand({collMod: c.getName(), index: {name: "_id_", hidden: true}}),
                                 ErrorCodes.IndexNotFound);
    assert.commandWorked(c.createIndex({a: 1}));
    assert.commandWorked(db.runCommand({collMod: c.getName(), index: {keyPattern: {a: 1}, hidden: true}}));
})();
