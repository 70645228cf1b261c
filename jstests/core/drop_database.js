/**
 * dropDatabase removes every collection of the database and replies
 * {dropped: <name>, ok: 1}; dropping a missing database succeeds.
 */
const dbName = jsTestName();
const testDB = db.getSiblingDB(dbName);

function dropDatabaseWithCollections() {
    assert.commandWorked(testDB.a.insertOne({x: 1}));
    assert.commandWorked(testDB.b.insertOne({x: 1}));
    const res = assert.commandWorked(testDB.runCommand({dropDatabase: 1}));
    assert.eq(dbName, res.dropped);
    assert.eq([], testDB.getCollectionNames());
    const list = assert.commandWorked(db.adminCommand({listDatabases: 1, nameOnly: true}));
    assert(!list.databases.some((d) => d.name === dbName), tojson(list));
}

function dropMissingDatabaseSucceeds() {
    assert.commandWorked(db.getSiblingDB(dbName + "_missing").runCommand({dropDatabase: 1}));
}

runScenarios(
    dropDatabaseWithCollections,
    dropMissingDatabaseSucceeds,
);
