/**
 * createIndexes / listIndexes / dropIndexes: reply shapes, unique indexes
 * rejecting duplicates with DuplicateKey (11000), and the usual error codes.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
}

function createIndexOnNewCollectionCreatesIt() {
    const res = assert.commandWorked(
        db.runCommand({createIndexes: coll.getName(), indexes: [{key: {a: 1}, name: "a_1"}]}));
    assert.eq(1, res.numIndexesBefore);
    assert.eq(2, res.numIndexesAfter);
    assert.eq(true, res.createdCollectionAutomatically);
}

function listIndexesShowsIdAndNewIndex() {
    const indexes = coll.getIndexes();
    assert.sameMembers([{v: 2, key: {_id: 1}, name: "_id_"}, {v: 2, key: {a: 1}, name: "a_1"}], indexes);
    const res = assert.commandWorked(db.runCommand({listIndexes: coll.getName()}));
    assert.eq(coll.getFullName(), res.cursor.ns);  // the collection's own namespace, as upstream
    assert.eq(2, res.cursor.firstBatch.length);
}

function recreatingSameIndexIsANoOp() {
    const res = assert.commandWorked(
        db.runCommand({createIndexes: coll.getName(), indexes: [{key: {a: 1}, name: "a_1"}]}));
    assert.eq(2, res.numIndexesBefore);
    assert.eq(2, res.numIndexesAfter);
    assert.eq("all indexes already exist", res.note);
}

function shellHelperDefaultName() {
    assert.commandWorked(coll.createIndex({b: 1, c: -1}));
    assert.contains("b_1_c_-1", coll.getIndexes().map((ix) => ix.name));
}

function uniqueIndexRejectsDuplicates() {
    assert.commandWorked(coll.createIndex({u: 1}, {unique: true}));
    const spec = coll.getIndexes().find((ix) => ix.name === "u_1");
    assert.docEq({v: 2, key: {u: 1}, name: "u_1", unique: true}, spec);
    assert.commandWorked(coll.insertOne({_id: 1, u: 1}));

    const res = db.runCommand({insert: coll.getName(), documents: [{_id: 2, u: 1}]});
    assert.commandFailedWithCode(res, ErrorCodes.DuplicateKey);
    assert.eq(0, res.n);
    assert.eq(0, res.writeErrors[0].index);
    assert.docEq({u: 1}, res.writeErrors[0].keyPattern);
    assert.docEq({u: 1}, res.writeErrors[0].keyValue);

    // The shell helper throws a MongoServerError carrying the same code.
    assert.throwsWithCode(() => coll.insertOne({_id: 3, u: 1}), ErrorCodes.DuplicateKey);
    assert.eq(1, coll.countDocuments({u: 1}));
}

function duplicateIdIsDuplicateKey() {
    assert.commandFailedWithCode(db.runCommand({insert: coll.getName(), documents: [{_id: 1}]}),
                                 ErrorCodes.DuplicateKey);
}

function buildingUniqueIndexOverDuplicatesFails() {
    // Distinct u values: an earlier scenario left a unique index on u.
    assert.commandWorked(coll.insertMany([{_id: 10, d: 1, u: 100}, {_id: 11, d: 1, u: 101}]));
    assert.commandFailedWithCode(
        db.runCommand({createIndexes: coll.getName(), indexes: [{key: {d: 1}, name: "d_1", unique: true}]}),
        ErrorCodes.DuplicateKey);
}

function conflictingIndexSpecs() {
    // Same key pattern under another name.
    assert.commandFailedWithCode(
        db.runCommand({createIndexes: coll.getName(), indexes: [{key: {a: 1}, name: "other_name"}]}),
        ErrorCodes.IndexOptionsConflict);
    // Same name, different key pattern.
    assert.commandFailedWithCode(
        db.runCommand({createIndexes: coll.getName(), indexes: [{key: {z: 1}, name: "a_1"}]}),
        ErrorCodes.IndexKeySpecsConflict);
}

function dropIndexByNameAndKey() {
    let res = assert.commandWorked(db.runCommand({dropIndexes: coll.getName(), index: "a_1"}));
    assert.eq(4, res.nIndexesWas);
    res = assert.commandWorked(db.runCommand({dropIndexes: coll.getName(), index: {b: 1, c: -1}}));
    assert.eq(3, res.nIndexesWas);
    assert.sameMembers(["_id_", "u_1"], coll.getIndexes().map((ix) => ix.name));
}

function dropIndexErrors() {
    assert.commandFailedWithCode(db.runCommand({dropIndexes: coll.getName(), index: "no_such_index"}),
                                 ErrorCodes.IndexNotFound);
    assert.commandFailedWithCode(db.runCommand({dropIndexes: coll.getName(), index: "_id_"}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({dropIndexes: "index_basic_no_such_coll", index: "a_1"}),
                                 ErrorCodes.NamespaceNotFound);
}

function dropAllIndexesKeepsId() {
    assert.commandWorked(db.runCommand({dropIndexes: coll.getName(), index: "*"}));
    assert.eq(["_id_"], coll.getIndexes().map((ix) => ix.name));
}

function unknownOptionsUnlessIgnored() {
    const spec = {key: {u: 1}, name: "u_1", notAnOption: true};
    assert.commandFailedWithCode(db.runCommand({createIndexes: coll.getName(), indexes: [spec]}),
                                 ErrorCodes.InvalidIndexSpecificationOption);
    assert.commandWorked(
        db.runCommand({createIndexes: coll.getName(), indexes: [spec], ignoreUnknownIndexOptions: true}));
    const made = coll.getIndexes().find((ix) => ix.name === "u_1");
    assert(made && !made.hasOwnProperty("notAnOption"), tojson(made));
}

runScenarios(
    setUp,
    createIndexOnNewCollectionCreatesIt,
    listIndexesShowsIdAndNewIndex,
    recreatingSameIndexIsANoOp,
    shellHelperDefaultName,
    uniqueIndexRejectsDuplicates,
    duplicateIdIsDuplicateKey,
    buildingUniqueIndexOverDuplicatesFails,
    conflictingIndexSpecs,
    dropIndexByNameAndKey,
    dropIndexErrors,
    dropAllIndexesKeepsId,
    unknownOptionsUnlessIgnored,
);
