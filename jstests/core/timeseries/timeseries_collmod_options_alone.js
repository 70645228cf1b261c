/**
 * collMod of a time-series collection: the bucketing parameters (`timeseries`) and
 * timeseriesBucketsMayHaveMixedSchemaData go alone; combined with any other option
 * (expireAfterSeconds, index, validator...) the command fails with InvalidOptions and
 * changes nothing.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(
        db.createCollection(coll.getName(), {timeseries: {timeField: "t", granularity: "seconds"}}));
    assert.commandWorked(coll.createIndex({a: 1}));
}

function eachAloneWorks() {
    for (const opt of [{timeseries: {granularity: "minutes"}},
                       {timeseriesBucketsMayHaveMixedSchemaData: true},
                       {expireAfterSeconds: 60},
                       {index: {keyPattern: {a: 1}, hidden: true}}]) {
        setUp();
        assert.commandWorked(db.runCommand(Object.assign({collMod: coll.getName()}, opt)));
    }
}

function combinationsRefused() {
    setUp();
    for (const tsOpt of [{timeseries: {granularity: "minutes"}},
                         {timeseriesBucketsMayHaveMixedSchemaData: true}]) {
        for (const other of [{expireAfterSeconds: 60},
                             {index: {keyPattern: {a: 1}, hidden: true}},
                             {validator: {t: {$exists: true}}}]) {
            assert.commandFailedWithCode(
                db.runCommand(Object.assign({collMod: coll.getName()}, tsOpt, other)),
                ErrorCodes.InvalidOptions);
        }
    }
    const info = db.getCollectionInfos({name: coll.getName()})[0];
    assert.eq("seconds", info.options.timeseries.granularity, tojson(info));
    assert(!info.options.hasOwnProperty("expireAfterSeconds"), tojson(info));
}

eachAloneWorks();
combinationsRefused();
