/**
 * collMod on a time-series collection (spec §1.7): granularity only coarser, span and
 * rounding only together, equal and not decreasing, expireAfterSeconds set/"off",
 * rejected options, and InvalidNamespace on the buckets collection.
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

runScenarios(granularityTransitions, spanAndRounding, expireAfterSeconds, rejectedOptions,
             hideIndexByUserKey);
