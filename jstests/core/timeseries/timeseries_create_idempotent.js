/**
 * Re-creating a time-series collection with the same options is a no-op; different
 * options, or a time-series/normal clash, give NamespaceExists (spec §1.5).
 */
function createColl(n, o) {
    return db.runCommand(Object.assign({create: n}, o || {}));
}
const name = jsTestName();
const ts = {timeField: "t", metaField: "m"};

function sameOptionsIsNoop() {
    db[name].drop();
    assert.commandWorked(createColl(name, {timeseries: ts}));
    assert.commandWorked(createColl(name, {timeseries: ts}));
    // Equivalent after defaults are filled in.
    assert.commandWorked(createColl(
        name, {timeseries: {timeField: "t", metaField: "m", granularity: "seconds"}}));
}

function differentOptionsFail() {
    db[name].drop();
    assert.commandWorked(createColl(name, {timeseries: ts}));
    assert.commandFailedWithCode(
        createColl(name, {timeseries: {timeField: "t", metaField: "x"}}),
        ErrorCodes.NamespaceExists);
    assert.commandFailedWithCode(
        createColl(name, {timeseries: ts, expireAfterSeconds: 5}),
        ErrorCodes.NamespaceExists);
    assert.commandFailedWithCode(createColl(name), ErrorCodes.NamespaceExists);
}

function normalCollectionClash() {
    db[name].drop();
    assert.commandWorked(createColl(name));
    assert.commandFailedWithCode(createColl(name, {timeseries: ts}),
                                 ErrorCodes.NamespaceExists);
    db[name].drop();
}

function bucketsNamespace() {
    db[name].drop();
    assert.commandWorked(createColl(name, {timeseries: ts}));
    // Same options on the buckets namespace: ok since 8.0.
    assert.commandWorked(createColl("system.buckets." + name, {timeseries: ts}));
    db[name].drop();
    // Only the buckets collection: creates no view.
    assert.commandWorked(createColl("system.buckets." + name, {timeseries: ts}));
    assert.eq(0, db.getCollectionInfos({name: name}).length);
    // Creating the time-series collection then adds the view.
    assert.commandWorked(createColl(name, {timeseries: ts}));
    assert.eq("timeseries", db.getCollectionInfos({name: name})[0].type);
}

runScenarios(sameOptionsIsNoop, differentOptionsFail, normalCollectionClash, bucketsNamespace);
