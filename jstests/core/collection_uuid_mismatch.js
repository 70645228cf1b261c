/**
 * collectionUUID on insert, update, delete, findAndModify, createIndexes, dropIndexes, collMod,
 * aggregate, find, count and distinct: the right UUID runs the command; another gives CollectionUUIDMismatch
 * (361) with db, collectionUUID, expectedCollection and actualCollection (the collection that
 * has it, else null); a UUID of the wrong type is a TypeMismatch.
 */
const coll = db[jsTestName()];
const other = db[jsTestName() + "_other"];
coll.drop();
other.drop();
assert.commandWorked(coll.insert({_id: 1, a: 1}));
assert.commandWorked(other.insert({_id: 1}));
const uuidOf = c => db.getCollectionInfos({name: c.getName()})[0].info.uuid;
const uuid = uuidOf(coll);
const otherUuid = uuidOf(other);

const commands = [
    u => ({insert: coll.getName(), documents: [{_id: 2}], collectionUUID: u}),
    u => ({update: coll.getName(), updates: [{q: {_id: 1}, u: {$set: {b: 1}}}], collectionUUID: u}),
    u => ({delete: coll.getName(), deletes: [{q: {_id: 2}, limit: 1}], collectionUUID: u}),
    u => ({findAndModify: coll.getName(), query: {_id: 1}, update: {$inc: {a: 1}}, collectionUUID: u}),
    u => ({createIndexes: coll.getName(), indexes: [{key: {a: 1}, name: "a_1"}], collectionUUID: u}),
    u => ({dropIndexes: coll.getName(), index: "a_1", collectionUUID: u}),
    u => ({collMod: coll.getName(), collectionUUID: u}),
    u => ({aggregate: coll.getName(), pipeline: [{$match: {}}], cursor: {}, collectionUUID: u}),
    u => ({find: coll.getName(), filter: {}, collectionUUID: u}),
    u => ({count: coll.getName(), collectionUUID: u}),
    u => ({distinct: coll.getName(), key: "a", collectionUUID: u}),
];
for (const make of commands) {
    assert.commandWorked(db.runCommand(make(uuid)), tojson(make(uuid)));
    let res = db.runCommand(make(otherUuid));
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch, tojson(make(otherUuid)));
    if (res.writeErrors)
        res = res.writeErrors[0];
    assert.eq(db.getName(), res.db, tojson(res));
    assert.eq(otherUuid, res.collectionUUID, tojson(res));
    assert.eq(coll.getName(), res.expectedCollection, tojson(res));
    assert.eq(other.getName(), res.actualCollection, tojson(res));
    res = db.runCommand(make(UUID()));
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch);
    if (res.writeErrors)
        res = res.writeErrors[0];
    assert.eq(null, res.actualCollection, tojson(res));
    assert.commandFailedWithCode(db.runCommand(make("not a uuid")), ErrorCodes.TypeMismatch);
}

// aggregate takes no collectionUUID on a change stream (4928900) or without a collection (4928901).
assert.commandFailedWithCode(db.runCommand({aggregate: coll.getName(), collectionUUID: uuid,
                                            pipeline: [{$changeStream: {}}], cursor: {}}),
                             4928900);
assert.commandFailedWithCode(db.adminCommand({aggregate: 1, collectionUUID: uuid,
                                              pipeline: [{$currentOp: {}}], cursor: {}}),
                             4928901);
