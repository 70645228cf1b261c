/**
 * collMod cappedSize / cappedMax: only on capped collections (InvalidOptions otherwise), range
 * checks with BadValue, new limits enforced on the next inserts.
 */
const coll = db[jsTestName()];
const name = coll.getName();

function options() {
    return db.getCollectionInfos({name: name})[0].options;
}

function resizes() {
    coll.drop();
    assert.commandWorked(db.createCollection(name, {capped: true, size: 1024 * 1024}));
    for (let i = 0; i < 10; ++i)
        assert.commandWorked(coll.insert({_id: i}));
    assert.commandWorked(db.runCommand({collMod: name, cappedMax: 5}));
    assert.eq(5, options().max);
    assert.eq(10, coll.find().itcount());  // existing documents stay until the next insert
    assert.commandWorked(coll.insert({_id: 10}));
    assert.eq([6, 7, 8, 9, 10], coll.find().sort({$natural: 1}).toArray().map((d) => d._id));
    assert.commandWorked(db.runCommand({collMod: name, cappedSize: 5000}));
    assert.eq(5120, options().size);  // whole 256-byte units
    assert.commandWorked(db.runCommand({collMod: name, cappedMax: 0}));
    assert.eq(undefined, options().max);
}

function errors() {
    coll.drop();
    assert.commandWorked(db.createCollection(name, {capped: true, size: 4096}));
    assert.commandFailedWithCode(db.runCommand({collMod: name, cappedSize: -1}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({collMod: name, cappedSize: 2 * 1024 * 1024 * 1024 * 1024 * 1024}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({collMod: name, cappedMax: Math.pow(2, 31)}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({collMod: name, cappedSize: "x"}), ErrorCodes.TypeMismatch);
    assert.eq(4096, options().size);
    db.notCapped.drop();
    assert.commandWorked(db.createCollection("notCapped"));
    assert.commandFailedWithCode(db.runCommand({collMod: "notCapped", cappedSize: 4096}),
                                 ErrorCodes.InvalidOptions);
    // TTL indexes are not supported on capped collections.
    assert.commandWorked(coll.createIndex({t: 1}));
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {t: 1}, expireAfterSeconds: 10}}),
        ErrorCodes.InvalidOptions);
}

runScenarios(resizes, errors);
