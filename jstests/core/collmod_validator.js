/**
 * collMod validator / validationLevel / validationAction: the new rules apply to future writes
 * only (existing documents stay), moderate lets updates of invalid documents through, warn and
 * off let everything through, and the options show in listCollections.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(db.createCollection(coll.getName()));
    assert.commandWorked(coll.insert([{_id: 1, a: 1}, {_id: 2, a: "x"}]));
}

function options() {
    return db.getCollectionInfos({name: coll.getName()})[0].options;
}

function validatorAppliesToFutureWritesOnly() {
    setUp();
    const res = assert.commandWorked(
        db.runCommand({collMod: coll.getName(), validator: {a: {$type: "number"}}}));
    assert.eq(undefined, res.hidden_old);
    assert.docEq({a: {$type: "number"}}, options().validator);
    // The existing invalid document stays.
    assert.eq(2, coll.find().itcount());
    assert.commandFailedWithCode(coll.insert({_id: 3, a: "y"}), ErrorCodes.DocumentValidationFailure);
    assert.commandWorked(coll.insert({_id: 3, a: 3}));
    // Strict (the default): updating the invalid document must make it valid.
    assert.commandFailedWithCode(coll.update({_id: 2}, {$set: {b: 1}}),
                                 ErrorCodes.DocumentValidationFailure);
}

function moderateLetsInvalidDocumentsBeUpdated() {
    setUp();
    assert.commandWorked(db.runCommand(
        {collMod: coll.getName(), validator: {a: {$type: "number"}}, validationLevel: "moderate"}));
    assert.eq("moderate", options().validationLevel);
    assert.commandWorked(coll.update({_id: 2}, {$set: {b: 1}}));
    // A valid document may not become invalid.
    assert.commandFailedWithCode(coll.update({_id: 1}, {$set: {a: "z"}}),
                                 ErrorCodes.DocumentValidationFailure);
}

function warnAndOffLetWritesThrough() {
    setUp();
    assert.commandWorked(db.runCommand(
        {collMod: coll.getName(), validator: {a: {$type: "number"}}, validationAction: "warn"}));
    assert.eq("warn", options().validationAction);
    assert.commandWorked(coll.insert({_id: 4, a: "w"}));
    assert.commandWorked(db.runCommand(
        {collMod: coll.getName(), validationAction: "error", validationLevel: "off"}));
    assert.commandWorked(coll.insert({_id: 5, a: "o"}));
    assert.commandWorked(db.runCommand({collMod: coll.getName(), validationLevel: "strict"}));
    assert.commandFailedWithCode(coll.insert({_id: 6, a: "s"}), ErrorCodes.DocumentValidationFailure);
    // An empty validator removes the rule.
    assert.commandWorked(db.runCommand({collMod: coll.getName(), validator: {}}));
    assert.commandWorked(coll.insert({_id: 6, a: "s"}));
}

function badValuesAreRefused() {
    setUp();
    assert.commandFailedWithCode(
        db.runCommand({collMod: coll.getName(), validator: {a: {$notAnOperator: 1}}}),
        ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({collMod: coll.getName(), validationLevel: "bad"}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({collMod: coll.getName(), validationAction: "bad"}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({collMod: coll.getName(), NotARealOption: 1}),
                                 ErrorCodes.IDLUnknownField);
    assert.commandFailedWithCode(
        db.runCommand({collMod: coll.getName(), viewOn: "x", pipeline: []}), ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: coll.getName(), timeseries: {granularity: "hours"}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: coll.getName(), changeStreamPreAndPostImages: {enabled: true}}),
        ErrorCodes.CommandNotSupported);
    assert.commandFailedWithCode(db.runCommand({collMod: coll.getName(), expireAfterSeconds: 10}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: coll.getName(), cappedSize: 4096}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: coll.getName() + "_missing", validator: {}}),
                                 ErrorCodes.NamespaceNotFound);
    // Nothing changed.
    assert.eq(undefined, options().validator);
}

function uuidIsKept() {
    setUp();
    const before = db.getCollectionInfos({name: coll.getName()})[0].info.uuid;
    assert.commandWorked(db.runCommand({collMod: coll.getName(), validator: {a: {$exists: true}}}));
    assert.eq(before, db.getCollectionInfos({name: coll.getName()})[0].info.uuid);
    assert.commandWorked(db.runCommand({collMod: coll.getName(), collectionUUID: before}));
}

runScenarios(validatorAppliesToFutureWritesOnly, moderateLetsInvalidDocumentsBeUpdated,
             warnAndOffLetWritesThrough, badValuesAreRefused, uuidIsKept);
