/**
 * create with `timeseries`: validation order and error codes, and the options that are
 * persisted (defaults filled from the granularity presets).
 */
const name = jsTestName();

function setUp() {
    db[name].drop();
}

function create(extra) {
    return db.runCommand(Object.assign({create: name}, extra));
}

function rejectsIncompatibleOptions() {
    setUp();
    for (const opt of [{capped: true, size: 1000}, {validator: {a: 1}}, {viewOn: "x"},
                       {clusteredIndex: true}, {validationLevel: "off"}, {idIndex: {key: {_id: 1}, name: "_id_"}}]) {
        assert.commandFailedWithCode(create(Object.assign({timeseries: {timeField: "t"}}, opt)),
                                     ErrorCodes.InvalidOptions, tojson(opt));
    }
    // capped: false is tolerated.
    assert.commandWorked(create({timeseries: {timeField: "t"}, capped: false}));
}

function rejectsBadFields() {
    setUp();
    assert.commandFailedWithCode(create({timeseries: {timeField: "a.b"}}), ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(create({timeseries: {timeField: "t", metaField: "_id"}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(create({timeseries: {timeField: "t", metaField: "t"}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(create({timeseries: {timeField: "t", metaField: "m.x"}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(create({timeseries: {metaField: "m"}}), ErrorCodes.IDLFailedToParse);
    assert.commandFailedWithCode(create({timeseries: {timeField: "t", foo: 1}}),
                                 ErrorCodes.IDLUnknownField);
    assert.commandFailedWithCode(create({timeseries: {timeField: 1}}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(create({timeseries: {timeField: "t", granularity: "days"}}),
                                 ErrorCodes.BadValue);
}

function rejectsBadBucketingParameters() {
    setUp();
    assert.commandFailedWithCode(
        create({timeseries: {timeField: "t", granularity: "seconds", bucketMaxSpanSeconds: 100}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        create({timeseries: {timeField: "t", granularity: "seconds", bucketRoundingSeconds: 60}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(create({timeseries: {timeField: "t", bucketMaxSpanSeconds: 100}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        create({timeseries: {timeField: "t", bucketMaxSpanSeconds: 100, bucketRoundingSeconds: 50}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        create({timeseries: {timeField: "t", bucketMaxSpanSeconds: 0, bucketRoundingSeconds: 0}}),
        ErrorCodes.BadValue);
}

function expireAfterSecondsRules() {
    setUp();
    assert.commandFailedWithCode(create({expireAfterSeconds: 10}), ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(create({timeseries: {timeField: "t"}, expireAfterSeconds: -1}),
                                 ErrorCodes.InvalidOptions);
    assert.commandWorked(create({timeseries: {timeField: "t"}, expireAfterSeconds: 100}));
    const info = db.getCollectionInfos({name: name})[0];
    assert.eq(100, info.options.expireAfterSeconds, tojson(info));
}

function storedDefaults() {
    setUp();
    const cases = [
        [{timeField: "t"}, {timeField: "t", granularity: "seconds", bucketMaxSpanSeconds: 3600}],
        [{timeField: "t", metaField: "m", granularity: "minutes"},
         {timeField: "t", metaField: "m", granularity: "minutes", bucketMaxSpanSeconds: 86400}],
        [{timeField: "t", granularity: "hours", bucketMaxSpanSeconds: 2592000},
         {timeField: "t", granularity: "hours", bucketMaxSpanSeconds: 2592000}],
        [{timeField: "t", bucketMaxSpanSeconds: 500, bucketRoundingSeconds: 500},
         {timeField: "t", bucketRoundingSeconds: 500, bucketMaxSpanSeconds: 500}],
    ];
    for (const [req, stored] of cases) {
        db[name].drop();
        assert.commandWorked(create({timeseries: req}));
        const info = db.getCollectionInfos({name: name})[0];
        assert.docEq(stored, info.options.timeseries, tojson(req));
    }
}

runScenarios(setUp, rejectsIncompatibleOptions, rejectsBadFields, rejectsBadBucketingParameters,
             expireAfterSecondsRules, storedDefaults);
