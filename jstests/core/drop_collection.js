/**
 * drop removes a collection with its indexes and reports nIndexesWas and ns;
 * dropping a missing collection succeeds (MongoDB 7.0+).
 */
const coll = db[jsTestName()];

function dropExistingCollection() {
    coll.drop();
    assert.commandWorked(coll.insertOne({a: 1}));
    assert.commandWorked(coll.createIndex({a: 1}));
    const res = assert.commandWorked(db.runCommand({drop: coll.getName()}));
    assert.eq(2, res.nIndexesWas);
    assert.eq(coll.getFullName(), res.ns);
    assert.eq(0, coll.countDocuments({}));
    assert(!db.getCollectionNames().includes(coll.getName()));
}

function dropMissingCollectionSucceeds() {
    assert.commandWorked(db.runCommand({drop: coll.getName()}));
}

function dataIsGoneAfterRecreate() {
    assert.commandWorked(coll.insertOne({b: 1}));
    assert.eq([{b: 1}], coll.find({}, {_id: 0}).toArray());
    assert.eq(["_id_"], coll.getIndexes().map((ix) => ix.name));
}

runScenarios(
    dropExistingCollection,
    dropMissingCollectionSucceeds,
    dataIsGoneAfterRecreate,
);
coll.drop();
