/**
 * renameCollection (admin command) moves documents and indexes to the new
 * name; errors: missing source -> NamespaceNotFound, existing target without
 * dropTarget -> NamespaceExists, not on admin -> Unauthorized, a view as source ->
 * CommandNotSupportedOnView, a view as target -> NamespaceExists.
 */
const testDB = db.getSiblingDB(jsTestName());

function setUp() {
    assert.commandWorked(testDB.dropDatabase());
    assert.commandWorked(testDB.src.insertMany([{_id: 1}, {_id: 2}]));
    assert.commandWorked(testDB.src.createIndex({a: 1}));
}

function renameMovesDataAndIndexes() {
    assert.commandWorked(db.adminCommand(
        {renameCollection: testDB.src.getFullName(), to: testDB.dst.getFullName()}));
    assert.sameMembers(["dst"], testDB.getCollectionNames());
    assert.eq(2, testDB.dst.countDocuments({}));
    assert.sameMembers(["_id_", "a_1"], testDB.dst.getIndexes().map((ix) => ix.name));
}

function missingSourceFails() {
    assert.commandFailedWithCode(
        db.adminCommand({renameCollection: testDB.src.getFullName(), to: testDB.other.getFullName()}),
        ErrorCodes.NamespaceNotFound);
}

function existingTargetNeedsDropTarget() {
    assert.commandWorked(testDB.src.insertOne({_id: 3}));
    assert.commandFailedWithCode(
        db.adminCommand({renameCollection: testDB.src.getFullName(), to: testDB.dst.getFullName()}),
        ErrorCodes.NamespaceExists);
    assert.commandWorked(db.adminCommand(
        {renameCollection: testDB.src.getFullName(), to: testDB.dst.getFullName(), dropTarget: true}));
    assert.eq([{_id: 3}], testDB.dst.find().toArray());
}

function mustRunOnAdmin() {
    assert.commandFailedWithCode(
        testDB.runCommand({renameCollection: testDB.dst.getFullName(), to: testDB.x.getFullName()}),
        ErrorCodes.Unauthorized);
}

function viewsAreNotRenamed() {
    assert.commandWorked(testDB.createView("v", "dst", []));
    assert.commandFailedWithCode(
        db.adminCommand({renameCollection: testDB.v.getFullName(), to: testDB.w.getFullName()}),
        ErrorCodes.CommandNotSupportedOnView);
    assert.commandFailedWithCode(
        db.adminCommand({renameCollection: testDB.dst.getFullName(), to: testDB.v.getFullName()}),
        ErrorCodes.NamespaceExists);
    assert.commandFailedWithCode(db.adminCommand({
        renameCollection: testDB.dst.getFullName(),
        to: testDB.v.getFullName(),
        dropTarget: true
    }),
                                 ErrorCodes.NamespaceExists);
    assert.eq(1, testDB.dst.countDocuments({}));
}

runScenarios(
    setUp,
    renameMovesDataAndIndexes,
    missingSourceFails,
    existingTargetNeedsDropTarget,
    mustRunOnAdmin,
    viewsAreNotRenamed,
);
assert.commandWorked(testDB.dropDatabase());
