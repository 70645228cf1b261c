/**
 * The time-series catalog flags of a buckets collection (spec §2.2, §2.5): mixed-schema data
 * (direct inserts refused with 408 until collMod allows them, and collMod cannot turn the flag
 * off while a mixed-schema bucket is left (InvalidOptions); the unpack stage's
 * assumeNoMixedSchemaData), extended-range times (usesExtendedRange), and fixed buckets
 * (rounding equal to span, bucketing parameters never changed).
 */
const name = jsTestName();
const buckets = () => db.getCollection("system.buckets." + name);

function create(ts) {
    db[name].drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: ts}));
}

function unpackSpec() {
    const explain = db[name].explain("queryPlanner").aggregate([{$match: {}}]);
    const stage = explain.stages.find(s => s.$_internalUnpackBucket);
    assert(stage, tojson(explain));
    return stage.$_internalUnpackBucket;
}

const t0 = ISODate("2024-01-01T00:00:00Z");

// A bucket whose control.min.a is a number and control.max.a a string: mixed schema.
function mixedBucket() {
    return {
        _id: ObjectId("65920080aaaaaaaaaaaaaaaa"),
        control: {
            version: NumberInt(1),
            min: {_id: 1, t: t0, a: 1},
            max: {_id: 2, t: ISODate("2024-01-01T00:00:10Z"), a: "x"},
        },
        meta: "s",
        data: {_id: {"0": 1, "1": 2}, t: {"0": t0, "1": ISODate("2024-01-01T00:00:10Z")},
               a: {"0": 1, "1": "x"}},
    };
}

function newCollectionsAssumeNoMixedSchema() {
    create({timeField: "t", metaField: "m"});
    assert.eq(true, unpackSpec().assumeNoMixedSchemaData);
    assert.eq(undefined, unpackSpec().usesExtendedRange);
    assert.eq(undefined, unpackSpec().fixedBuckets);
}

function mixedSchemaBucketsNeedTheFlag() {
    create({timeField: "t", metaField: "m"});
    const res = buckets().insert(mixedBucket());
    assert.commandFailedWithCode(res, ErrorCodes.CannotInsertTimeseriesBucketsWithMixedSchema);
    assert.eq(0, buckets().countDocuments({}));

    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseriesBucketsMayHaveMixedSchemaData: "yes"}),
        ErrorCodes.TypeMismatch);
    assert.commandWorked(db.runCommand({collMod: name, timeseriesBucketsMayHaveMixedSchemaData: true}));
    assert.eq(undefined, unpackSpec().assumeNoMixedSchemaData);
    assert.commandWorked(buckets().insert(mixedBucket()));
    // Both measurements are found by predicates on either type.
    assert.eq(1, db[name].find({a: {$gte: 0}}).itcount());
    assert.eq(1, db[name].find({a: {$gte: "a"}}).itcount());
    assert.eq(2, db[name].find({}).itcount());

    // The flag goes back to false only once no mixed-schema bucket is left.
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseriesBucketsMayHaveMixedSchemaData: false}),
        ErrorCodes.InvalidOptions);
    assert.eq(undefined, unpackSpec().assumeNoMixedSchemaData);
    assert.commandWorked(buckets().deleteOne({_id: mixedBucket()._id}));
    assert.commandWorked(db.runCommand({collMod: name, timeseriesBucketsMayHaveMixedSchemaData: false}));
    assert.eq(true, unpackSpec().assumeNoMixedSchemaData);
    assert.commandFailedWithCode(
        buckets().insert(Object.assign(mixedBucket(), {_id: ObjectId("65920080bbbbbbbbbbbbbbbb")})),
        ErrorCodes.CannotInsertTimeseriesBucketsWithMixedSchema);
}

function flagOnlyOnTimeseriesCollections() {
    db.plain.drop();
    assert.commandWorked(db.createCollection("plain"));
    assert.commandFailedWithCode(
        db.runCommand({collMod: "plain", timeseriesBucketsMayHaveMixedSchemaData: true}),
        ErrorCodes.InvalidOptions);
}

function extendedRangeTimes() {
    create({timeField: "t", metaField: "m"});
    assert.commandWorked(db[name].insert({t: t0, m: 1, v: 1}));
    assert.eq(undefined, unpackSpec().usesExtendedRange);
    const old = ISODate("1969-07-20T20:17:00Z");
    assert.commandWorked(db[name].insert({t: old, m: 1, v: 2}));
    assert.eq(true, unpackSpec().usesExtendedRange);
    assert.eq([2], db[name].find({t: {$lt: ISODate("1970-01-01T00:00:00Z")}}).toArray().map(d => d.v));
    assert.eq([1, 2], db[name].find({t: {$gte: ISODate("1900-01-01T00:00:00Z")}}, {v: 1, _id: 0})
                          .sort({v: 1}).toArray().map(d => d.v));
    // The flag is durable: a later (ordered) insert after the time range stays visible.
    const late = ISODate("2200-01-01T00:00:00Z");
    assert.commandWorked(db[name].insert([{t: late, m: 1, v: 3}], {ordered: true}));
    assert.eq([3], db[name].find({t: {$gt: ISODate("2106-03-01T00:00:00Z")}}).toArray().map(d => d.v));
    assert.eq(true, unpackSpec().usesExtendedRange);
}

function fixedBuckets() {
    create({timeField: "t", bucketMaxSpanSeconds: 3600, bucketRoundingSeconds: 3600});
    assert.eq(true, unpackSpec().fixedBuckets);
    assert.commandWorked(db.runCommand(
        {collMod: name, timeseries: {bucketMaxSpanSeconds: 7200, bucketRoundingSeconds: 7200}}));
    // Buckets made before the change may not follow the new boundaries.
    assert.eq(undefined, unpackSpec().fixedBuckets);
    create({timeField: "t", granularity: "minutes"});
    assert.eq(undefined, unpackSpec().fixedBuckets);
}

runScenarios(newCollectionsAssumeNoMixedSchema, mixedSchemaBucketsNeedTheFlag,
             flagOnlyOnTimeseriesCollections, extendedRangeTimes, fixedBuckets);
