/**
 * validate on a time-series collection validates its buckets collection (ns and uuid are the
 * buckets'), and checks every bucket against the time-series rules: a bucket whose control
 * fields disagree with its data is non-compliant (nNonCompliantDocuments, one warning), the
 * collection stays valid. db.ts.validate() works from mongosh.
 */
const name = jsTestName();
const coll = db[name];
const buckets = db["system.buckets." + name];
const bucketsNs = db.getName() + ".system.buckets." + name;
const t0 = ISODate("2024-01-01T00:00:00Z").getTime();
const kTimeseriesWarning =
    "Detected one or more documents in this collection incompatible with time-series " +
    "specifications. For more info, see logs with log id 6698300.";

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(coll.createIndex({x: 1}));
    const docs = [];
    for (let i = 0; i < 30; i++)
        docs.push({t: new Date(t0 + i * 60 * 1000), m: i % 3, x: i, s: "v" + i});
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(coll.insertOne({t: new Date(t0 + 100000), m: 0, x: 100}));  // an update
}

function validBuckets() {
    setUp();
    for (const full of [false, true]) {
        const res = assert.commandWorked(db.runCommand({validate: name, full: full}));
        assert.eq(bucketsNs, res.ns, tojson(res));
        assert(res.uuid, tojson(res));
        assert(res.valid, tojson(res));
        assert.eq(false, res.repaired);
        assert.eq(3, res.nrecords, tojson(res));
        assert.eq(0, res.nInvalidDocuments);
        assert.eq(0, res.nNonCompliantDocuments, tojson(res));
        assert.eq(2, res.nIndexes, tojson(res));
        assert.eq(3, res.keysPerIndex["m_1_t_1"], tojson(res));
        assert.eq(3, res.keysPerIndex["x_1"], tojson(res));
        assert.docEq({valid: true}, res.indexDetails["x_1"]);
        assert.eq([], res.errors);
        assert.eq([], res.warnings);
        assert.eq([], res.extraIndexEntries);
        assert.eq([], res.missingIndexEntries);
        assert.eq([], res.corruptRecords);
    }
    const shell = coll.validate();
    assert(shell.valid, tojson(shell));
    assert.eq(bucketsNs, shell.ns);
    assert(coll.validate(true).valid);
}

function compliantAfterWrites() {
    setUp();
    assert.commandWorked(coll.deleteMany({x: {$lt: 4}}));        // rewrites keep the start
    assert.commandWorked(coll.updateMany({x: {$gt: 20}}, {$set: {y: 1}}));
    assert.commandWorked(coll.insertOne({t: new Date(t0 + 500), m: 0, x: -1}));  // unsorted
    assert.commandWorked(coll.deleteMany({x: {$gt: 25, $lt: 28}}));
    const res = assert.commandWorked(db.runCommand({validate: name, full: true}));
    assert(res.valid, tojson(res));
    assert.eq(0, res.nNonCompliantDocuments, tojson(res));
    assert.eq([], res.warnings, tojson(res));
}

function controlMaxDisagreesWithData() {
    setUp();
    assert.commandWorked(buckets.updateOne({meta: 1}, {$set: {"control.max.x": 1000}}));
    const res = assert.commandWorked(db.runCommand({validate: name}));
    assert(res.valid, tojson(res));
    assert.eq(1, res.nNonCompliantDocuments, tojson(res));
    assert.eq([kTimeseriesWarning], res.warnings, tojson(res));
}

function controlCountDisagrees() {
    setUp();
    assert.commandWorked(buckets.updateOne({meta: 2}, {$set: {"control.count": 7}}));
    assert.commandWorked(buckets.updateOne({meta: 1}, {$set: {"control.count": 8}}));
    const res = assert.commandWorked(db.runCommand({validate: name}));
    assert.eq(2, res.nNonCompliantDocuments, tojson(res));
    assert.eq([kTimeseriesWarning], res.warnings, "warned once: " + tojson(res));
}

function corruptColumn() {
    setUp();
    // A BSONColumn that ends in the middle of an element does not decode.
    const bad = BinData(7, "AQ==");
    assert.commandWorked(buckets.updateOne({meta: 2}, {$set: {"data.x": bad}},
                                           {bypassDocumentValidation: true}));
    const res = assert.commandWorked(db.runCommand({validate: name}));
    assert.eq(1, res.nNonCompliantDocuments, tojson(res));
    assert.eq([kTimeseriesWarning], res.warnings, tojson(res));
}

function badVersion() {
    setUp();
    assert.commandWorked(buckets.updateOne({meta: 0}, {$set: {"control.version": 7}},
                                           {bypassDocumentValidation: true}));
    const res = assert.commandWorked(db.runCommand({validate: name}));
    assert.eq(1, res.nNonCompliantDocuments, tojson(res));
}

function errors() {
    setUp();
    db[name + "_view"].drop();
    assert.commandWorked(db.runCommand({create: name + "_view", viewOn: name, pipeline: []}));
    assert.commandFailedWithCode(db.runCommand({validate: name + "_view"}),
                                 ErrorCodes.CommandNotSupportedOnView);
    assert.commandFailedWithCode(db.runCommand({validate: name + "_missing"}),
                                 ErrorCodes.NamespaceNotFound);
    assert.commandFailedWithCode(db.runCommand({validate: name, repair: true}),
                                 ErrorCodes.CommandNotSupported);
    assert.commandFailedWithCode(db.runCommand({validate: name, background: true, full: true}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({validate: name, bogus: 1}),
                                 ErrorCodes.IDLUnknownField);
    db[name + "_view"].drop();
}

runScenarios(validBuckets, compliantAfterWrites, controlMaxDisagreesWithData, controlCountDisagrees, corruptColumn,
             badVersion, errors);
