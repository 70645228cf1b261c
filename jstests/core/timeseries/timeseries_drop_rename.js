/**
 * drop of a time-series collection removes the view and the buckets collection, from
 * either name (spec §2.4); renameCollection of a time-series collection, or of another
 * collection onto a buckets namespace, is refused with IllegalOperation (§2.3).
 */
const name = jsTestName();
const bucketsName = "system.buckets." + name;

function createTs() {
    db[name].drop();
    db[bucketsName].drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t"}}));
}

function names() {
    return db.getCollectionInfos({name: {$in: [name, bucketsName]}}).map(c => c.name).sort();
}

function dropViaView() {
    createTs();
    assert.eq([name, bucketsName].sort(), names());
    assert.commandWorked(db.runCommand({drop: name}));
    assert.eq([], names());
}

function dropViaBuckets() {
    createTs();
    assert.commandWorked(db.runCommand({drop: bucketsName}));
    assert.eq([], names());
}

function dropMissingSucceeds() {
    assert.commandWorked(db.runCommand({drop: name}));
}

function normalCollectionAndBuckets() {
    createTs();
    assert.commandWorked(db.runCommand({drop: name}));
    assert.commandWorked(db.runCommand({create: bucketsName, timeseries: {timeField: "t"}}));
    assert.commandWorked(db.runCommand({create: name}));
    assert.commandWorked(db.runCommand({drop: name}));
    assert.eq([bucketsName], names());
    assert.commandWorked(db.runCommand({drop: bucketsName}));
}

function bucketsWithoutViewDroppedByEitherName() {
    for (const target of [name, bucketsName]) {
        db[name].drop();
        assert.commandWorked(db.runCommand({create: bucketsName, timeseries: {timeField: "t"}}));
        assert.eq([bucketsName], names());
        assert.commandWorked(db.runCommand({drop: target}));
        assert.eq([], names(), "drop of " + target);
    }
}

function renameRefused() {
    createTs();
    assert.commandFailedWithCode(
        db.adminCommand({renameCollection: db.getName() + "." + name,
                         to: db.getName() + "." + name + "_new"}),
        ErrorCodes.IllegalOperation);
    assert.commandFailedWithCode(
        db.adminCommand({renameCollection: db.getName() + "." + bucketsName,
                         to: db.getName() + "." + name + "_new"}),
        ErrorCodes.IllegalOperation);
    // The view as target, and a normal collection onto it, are refused too.
    assert.commandWorked(db[name + "_plain"].insert({}));
    assert.commandFailedWithCode(
        db.adminCommand({renameCollection: db.getName() + "." + name + "_plain",
                         to: db.getName() + "." + name, dropTarget: true}),
        ErrorCodes.IllegalOperation);
    assert.eq(1, db[name + "_plain"].countDocuments({}));
    db[name + "_plain"].drop();
    db[name].drop();
}

// A collection that is not a buckets one cannot become one by rename (8.0 makes no buckets
// collection without time-series options), within a database or across two.
function renameOntoBucketsNamespaceRefused() {
    const plain = db[name + "_plain"];
    plain.drop();
    assert.commandWorked(plain.insert({_id: 1}));
    for (const targetDb of [db.getName(), db.getName() + "_other"]) {
        assert.commandFailedWithCode(
            db.adminCommand({renameCollection: plain.getFullName(),
                             to: targetDb + ".system.buckets." + name + "_new"}),
            ErrorCodes.IllegalOperation);
    }
    assert.eq(1, plain.countDocuments({}));
    plain.drop();
    // A buckets collection still moves to another buckets namespace.
    createTs();
    assert.commandWorked(
        db.adminCommand({renameCollection: db.getName() + "." + bucketsName,
                         to: db.getName() + ".system.buckets." + name + "_new"}));
    db[name].drop();
    db["system.buckets." + name + "_new"].drop();
}

runScenarios(dropViaView, dropViaBuckets, dropMissingSucceeds, normalCollectionAndBuckets,
             bucketsWithoutViewDroppedByEitherName, renameRefused,
             renameOntoBucketsNamespaceRefused);
