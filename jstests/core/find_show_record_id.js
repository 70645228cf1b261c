/**
 * find with showRecordId adds $recordId to every returned document, after any projection: a
 * NumberLong on an ordinary collection, BinData on a clustered one (time-series buckets
 * included). The value is the one a resume token carries, so a find can resume after it. On
 * a view (time-series included) showRecordId is refused with InvalidPipelineOperator, as an
 * aggregate cannot show record ids.
 */
const plain = db[jsTestName() + "_plain"];
const clustered = db[jsTestName() + "_clustered"];
const ts = db[jsTestName() + "_ts"];

function ordinaryCollection() {
    plain.drop();
    assert.commandWorked(plain.insertMany([{_id: 1, a: 1}, {_id: 2, a: 2}]));
    const docs = plain.find().showRecordId().toArray();
    assert.eq(2, docs.length, tojson(docs));
    for (const d of docs)
        assert.eq("Long", d.$recordId._bsontype, tojson(d));
    const projected = assert.commandWorked(
        db.runCommand({find: plain.getName(), projection: {_id: 0}, showRecordId: true}));
    assert.eq(["a", "$recordId"], Object.keys(projected.cursor.firstBatch[0]));
    // Without the option nothing is added.
    assert(!plain.findOne().hasOwnProperty("$recordId"));
}

function clusteredCollectionResumesAfterShownId() {
    clustered.drop();
    assert.commandWorked(
        db.createCollection(clustered.getName(), {clusteredIndex: {key: {_id: 1}, unique: true}}));
    assert.commandWorked(clustered.insertMany([{_id: 1}, {_id: 2}, {_id: 3}]));
    const docs = clustered.find().hint({$natural: 1}).showRecordId().toArray();
    assert.eq(3, docs.length);
    assert.eq("Binary", docs[0].$recordId._bsontype, tojson(docs[0].$recordId));
    const rest = assert.commandWorked(db.runCommand({
        find: clustered.getName(),
        hint: {$natural: 1},
        $_requestResumeToken: true,
        $_resumeAfter: {$recordId: docs[0].$recordId}
    }));
    assert.eq([2, 3], rest.cursor.firstBatch.map(d => d._id));
}

function timeSeriesViewRefusesBucketsShow() {
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t"}}));
    assert.commandWorked(ts.insert({t: ISODate(), x: 1}));
    assert.commandFailedWithCode(db.runCommand({find: ts.getName(), showRecordId: true}),
                                 ErrorCodes.InvalidPipelineOperator);
    const buckets = db.getCollection("system.buckets." + ts.getName());
    const shown = buckets.find().showRecordId().toArray();
    assert.eq(1, shown.length);
    assert.eq("Binary", shown[0].$recordId._bsontype, tojson(shown[0].$recordId));
}

ordinaryCollection();
clusteredCollectionResumesAfterShownId();
timeSeriesViewRefusesBucketsShow();
