/**
 * Direct writes to system.buckets.<coll> (spec §2.5): the buckets collection's validator is
 * applied first (DocumentValidationFailure 121, also for a bucket that would be mixed-schema),
 * then the mixed-schema rule (CannotInsertTimeseriesBucketsWithMixedSchema 408);
 * bypassDocumentValidation skips only the validator. Direct updates follow the same rules.
 */
const name = jsTestName();
const buckets = () => db["system.buckets." + name];
const t = ISODate("2024-01-16T20:48:39.448Z");

function create() {
    db[name].drop();
    assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t", metaField: "m"}}));
}

function mixedBucket(extra) {
    return Object.assign({
        _id: ObjectId("65a6eba7e6d2e848e08c3750"),
        control: {version: 1, min: {t: t, a: 1}, max: {t: t, a: "a"}},
        meta: 0,
        data: {t: {0: t, 1: t}, a: {0: 1, 1: "a"}},
    }, extra);
}

function validatorComesFirst() {
    create();
    // Mixed schema AND an unknown top-level field: the validator's error wins.
    let res = db.runCommand({insert: buckets().getName(), documents: [mixedBucket({junk: 1})]});
    assert.commandFailedWithCode(res, ErrorCodes.DocumentValidationFailure);
    assert(res.writeErrors[0].errInfo, tojson(res));
    // Mixed schema alone: 408.
    res = db.runCommand({insert: buckets().getName(), documents: [mixedBucket({})]});
    assert.commandFailedWithCode(res, ErrorCodes.CannotInsertTimeseriesBucketsWithMixedSchema);
    // bypassDocumentValidation skips the validator, not the mixed-schema rule.
    res = db.runCommand({
        insert: buckets().getName(),
        documents: [mixedBucket({junk: 1})],
        bypassDocumentValidation: true
    });
    assert.commandFailedWithCode(res, ErrorCodes.CannotInsertTimeseriesBucketsWithMixedSchema);
    assert.eq(0, buckets().countDocuments({}));
}

function validBucketsAreAccepted() {
    create();
    const ok = {
        _id: ObjectId("65a6eba7e6d2e848e08c3751"),
        control: {version: 1, min: {t: t, a: 1}, max: {t: t, a: 2}},
        meta: 0,
        data: {t: {0: t, 1: t}, a: {0: 1, 1: 2}},
    };
    assert.commandWorked(db.runCommand({insert: buckets().getName(), documents: [ok]}));
    assert.eq(2, db[name].find().itcount());
    // A bucket missing its time bounds is refused by the validator.
    const bad = {_id: ObjectId(), control: {version: 1, min: {}, max: {}}, data: {}};
    assert.commandFailedWithCode(db.runCommand({insert: buckets().getName(), documents: [bad]}),
                                 ErrorCodes.DocumentValidationFailure);
}

function updatesFollowTheSameRules() {
    validBucketsAreAccepted();
    const id = ObjectId("65a6eba7e6d2e848e08c3751");
    // Mixed schema: 408; unless the collection allows it.
    const mix = {$set: {"control.max.a": "x", "data.a.1": "x"}};
    assert.commandFailedWithCode(buckets().update({_id: id}, mix),
                                 ErrorCodes.CannotInsertTimeseriesBucketsWithMixedSchema);
    // Invalid and mixed: the validator first.
    assert.commandFailedWithCode(
        buckets().update({_id: id}, {$set: {"control.max.a": "x", "data.a.1": "x", junk: 1}}),
        ErrorCodes.DocumentValidationFailure);
    assert.commandWorked(
        db.runCommand({collMod: name, timeseriesBucketsMayHaveMixedSchemaData: true}));
    assert.commandWorked(buckets().update({_id: id}, mix));
    assert.eq(1, db[name].find({a: "x"}).itcount());
}

runScenarios(validatorComesFirst, validBucketsAreAccepted, updatesFollowTheSameRules);
