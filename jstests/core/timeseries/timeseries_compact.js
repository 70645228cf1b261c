/**
 * compact on a time-series collection compacts its buckets collection (table and indexes)
 * and replies {bytesFreed}; on a plain view CommandNotSupportedOnView; options WiredTiger 3.2
 * cannot honour are refused with CommandNotSupported.
 */
const name = jsTestName();
const coll = db[name];
const t0 = ISODate("2024-01-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    db[name + "_view"].drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t"}}));
    const docs = [];
    for (let i = 0; i < 500; i++)
        docs.push({t: new Date(t0 + i * 3600 * 1000), x: i, pad: "p".repeat(200)});
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(coll.deleteMany({x: {$lt: 400}}));
}

function compactView() {
    setUp();
    const res = assert.commandWorked(db.runCommand({compact: name}));
    assert(res.hasOwnProperty("bytesFreed") && !isNaN(Number(res.bytesFreed)), tojson(res));
    assert.eq(100, coll.find().itcount());
    const raw = assert.commandWorked(db.runCommand({compact: "system.buckets." + name, force: true}));
    assert(raw.hasOwnProperty("bytesFreed") && !isNaN(Number(raw.bytesFreed)), tojson(raw));
    assert(assert.commandWorked(coll.validate({full: true})).valid);
}

function compactErrors() {
    setUp();
    assert.commandWorked(db.runCommand({create: name + "_view", viewOn: name, pipeline: []}));
    assert.commandFailedWithCode(db.runCommand({compact: name + "_view"}),
                                 ErrorCodes.CommandNotSupportedOnView);
    assert.commandFailedWithCode(db.runCommand({compact: name + "_missing"}),
                                 ErrorCodes.NamespaceNotFound);
    assert.commandFailedWithCode(db.runCommand({compact: name, dryRun: true}),
                                 ErrorCodes.CommandNotSupported);
    assert.commandFailedWithCode(db.runCommand({compact: name, freeSpaceTargetMB: 10}),
                                 ErrorCodes.CommandNotSupported);
    assert.commandFailedWithCode(db.runCommand({compact: name, foo: 1}),
                                 ErrorCodes.IDLUnknownField);
}

runScenarios(compactView, compactErrors);
