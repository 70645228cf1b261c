/**
 * listCollections returns a cursor of collection descriptions (name, type,
 * options, info, idIndex), supports filter and nameOnly, and reflects create
 * and drop.
 */
const testDB = db.getSiblingDB(jsTestName());

function setUp() {
    assert.commandWorked(testDB.dropDatabase());
    assert.commandWorked(testDB.createCollection("a"));
    assert.commandWorked(testDB.b.insertOne({x: 1}));
}

function listsEveryCollection() {
    const res = assert.commandWorked(testDB.runCommand({listCollections: 1}));
    assert.eq(testDB.getName() + ".$cmd.listCollections", res.cursor.ns);
    assert.eq(0, res.cursor.id);
    const names = res.cursor.firstBatch.map((c) => c.name);
    assert.sameMembers(["a", "b"], names);
}

function entryShape() {
    const res = assert.commandWorked(testDB.runCommand({listCollections: 1, filter: {name: "a"}}));
    assert.eq(1, res.cursor.firstBatch.length);
    const entry = res.cursor.firstBatch[0];
    assert.eq("a", entry.name);
    assert.eq("collection", entry.type);
    assert.docEq({}, entry.options);
    assert.eq(false, entry.info.readOnly);
    assert.eq(4, entry.info.uuid.sub_type, "info.uuid must be a UUID (BinData subtype 4)");
    assert.docEq({v: 2, key: {_id: 1}, name: "_id_"}, entry.idIndex);
}

function nameOnly() {
    const res = assert.commandWorked(testDB.runCommand({listCollections: 1, nameOnly: true}));
    assert.sameMembers([{name: "a", type: "collection"}, {name: "b", type: "collection"}],
                       res.cursor.firstBatch);
}

function shellHelpers() {
    assert.sameMembers(["a", "b"], testDB.getCollectionNames());
}

function createExistingCollectionFails() {
    assert.commandFailedWithCode(testDB.runCommand({create: "a", capped: true, size: 4096}),
                                 ErrorCodes.NamespaceExists);
}

function dropRemovesCollection() {
    assert.commandWorked(testDB.runCommand({drop: "a"}));
    assert.eq(["b"], testDB.getCollectionNames());
}

runScenarios(
    setUp,
    listsEveryCollection,
    entryShape,
    nameOnly,
    shellHelpers,
    createExistingCollectionFails,
    dropRemovesCollection,
);
assert.commandWorked(testDB.dropDatabase());
