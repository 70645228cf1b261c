/**
 * listDatabases lists databases that hold collections, with sizeOnDisk and
 * empty per entry plus totalSize/totalSizeMb; nameOnly returns names only.
 */
const dbName = jsTestName();
const testDB = db.getSiblingDB(dbName);

function setUp() {
    assert.commandWorked(testDB.dropDatabase());
}

function databaseWithoutCollectionsIsNotListed() {
    const res = assert.commandWorked(db.adminCommand({listDatabases: 1}));
    assert(!res.databases.some((d) => d.name === dbName), tojson(res));
}

function databaseAppearsAfterFirstWrite() {
    assert.commandWorked(testDB.c.insertOne({a: 1}));
    const res = assert.commandWorked(db.adminCommand({listDatabases: 1}));
    const entry = res.databases.find((d) => d.name === dbName);
    assert(entry, tojson(res));
    assert.eq(false, entry.empty);
    assert(isNumberLikeSize(entry.sizeOnDisk), tojson(entry));
    assert(isNumberLikeSize(res.totalSize), tojson(res));
    assert(isNumberLikeSize(res.totalSizeMb), tojson(res));
}

function nameOnly() {
    const res = assert.commandWorked(db.adminCommand({listDatabases: 1, nameOnly: true}));
    const entry = res.databases.find((d) => d.name === dbName);
    assert.docEq({name: dbName}, entry);
    assert.eq(undefined, res.totalSize);
}

function filterByName() {
    const res = assert.commandWorked(db.adminCommand({listDatabases: 1, filter: {name: dbName}}));
    assert.eq([dbName], res.databases.map((d) => d.name));
}

function mustRunOnAdmin() {
    assert.commandFailedWithCode(testDB.runCommand({listDatabases: 1}), ErrorCodes.Unauthorized);
}

function isNumberLikeSize(x) {
    return typeof x === "number" || (x && (x._bsontype === "Long" || x._bsontype === "Double" ||
                                           x._bsontype === "Int32"));
}

runScenarios(
    setUp,
    databaseWithoutCollectionsIsNotListed,
    databaseAppearsAfterFirstWrite,
    nameOnly,
    filterByName,
    mustRunOnAdmin,
);
assert.commandWorked(testDB.dropDatabase());
