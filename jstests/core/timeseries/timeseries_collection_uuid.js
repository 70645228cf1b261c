/**
 * `collectionUUID` on insert (spec §3.9): a time-series view has no UUID, so an insert into it
 * with any collectionUUID fails with CollectionUUIDMismatch (361), naming the collection that
 * has the UUID (its buckets collection, or null); regular collections check their own UUID.
 */
const name = jsTestName();

function uuidOf(coll) {
    return db.getCollectionInfos({name: coll})[0].info.uuid;
}

function timeseriesViewHasNoUuid() {
    db[name].drop();
    assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t"}}));
    const bucketsUuid = uuidOf("system.buckets." + name);
    let res = db.runCommand({insert: name, documents: [{t: new Date()}], collectionUUID: bucketsUuid});
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch);
    assert.eq(db.getName(), res.db, tojson(res));
    assert.eq(name, res.expectedCollection, tojson(res));
    assert.eq("system.buckets." + name, res.actualCollection, tojson(res));
    res = db.runCommand({insert: name, documents: [{t: new Date()}], collectionUUID: UUID()});
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch);
    assert.eq(null, res.actualCollection, tojson(res));
    assert.eq(0, db[name].countDocuments({}));
}

function regularCollections() {
    db.plain.drop();
    db.other.drop();
    assert.commandWorked(db.createCollection("plain"));
    assert.commandWorked(db.createCollection("other"));
    assert.commandWorked(db.runCommand({insert: "plain", documents: [{a: 1}], collectionUUID: uuidOf("plain")}));
    const res = db.runCommand({insert: "plain", documents: [{a: 2}], collectionUUID: uuidOf("other")});
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch);
    assert.eq("other", res.actualCollection, tojson(res));
    assert.eq(1, db.plain.countDocuments({}));
    assert.commandFailedWithCode(db.runCommand({insert: "plain", documents: [{a: 3}], collectionUUID: "x"}),
                                 ErrorCodes.TypeMismatch);
}

runScenarios(timeseriesViewHasNoUuid, regularCollections);
