/**
 * {$meta: "sortKey"} in find projections and aggregation: an array of the document's values
 * under the sort, the same whether the $sort runs in the find layer or in the pipeline; a
 * $meta-only find projection keeps the other fields; findAndModify refuses it (BadValue);
 * bad $meta arguments are 17307/17308; textScore without $text is 40218.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{_id: 1, a: 2, b: 1}, {_id: 2, a: 1, b: [5, 3]}, {_id: 3, b: 0}]));
}

function findProjection() {
    setUp();
    assert.eq([{_id: 3, b: 0, k: [null]}, {_id: 2, a: 1, b: [5, 3], k: [1]}, {_id: 1, a: 2, b: 1, k: [2]}],
              coll.find({}, {k: {$meta: "sortKey"}}).sort({a: 1}).toArray());
    // Ascending on an array uses its smallest element; the key has one value per sort part.
    assert.eq([{_id: 3, k: [0, 3]}, {_id: 1, k: [1, 1]}, {_id: 2, k: [3, 2]}],
              coll.find({}, {_id: 1, k: {$meta: "sortKey"}}).sort({b: 1, _id: 1}).toArray());
    // With an index providing the sort.
    assert.commandWorked(coll.createIndex({a: 1}));
    assert.eq([{_id: 2, k: [1]}, {_id: 1, k: [2]}],
              coll.find({a: {$gte: 1}}, {_id: 1, k: {$meta: "sortKey"}}).sort({a: 1}).toArray());
    // $meta makes a find projection neither inclusion nor exclusion: with _id: 0 alone it
    // keeps every other field.
    assert.eq([{a: 1, b: [5, 3], k: [1]}, {a: 2, b: 1, k: [2]}],
              coll.find({a: {$gte: 1}}, {_id: 0, k: {$meta: "sortKey"}}).sort({a: 1}).toArray());
}

function aggregation() {
    setUp();
    const pushed = coll.aggregate([{$sort: {a: -1}}, {$project: {_id: 0, m: {$meta: "sortKey"}}}]).toArray();
    const notPushed = coll.aggregate([{$sort: {a: -1}}, {$_internalInhibitOptimization: {}},
                                      {$project: {_id: 0, m: {$meta: "sortKey"}}}]).toArray();
    assert.eq([{m: [2]}, {m: [1]}, {m: [null]}], pushed);
    assert.eq(pushed, notPushed);
    assert.eq([{_id: 2, key: [5]}, {_id: 1, key: [1]}, {_id: 3, key: [0]}],
              coll.aggregate([{$match: {}}, {$sort: {b: -1}}, {$limit: 3},
                              {$project: {key: {$meta: "sortKey"}}}]).toArray());
    // After a $group the documents are new: no sort key.
    assert.eq([{_id: null}], coll.aggregate([{$sort: {a: 1}}, {$group: {_id: null}},
                                             {$addFields: {k: {$meta: "sortKey"}}}]).toArray());
}

function timeseriesView() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t"}}));
    const t0 = ISODate("2024-01-01T00:00:00Z");
    assert.commandWorked(ts.insertMany([{t: t0, v: 2}, {t: new Date(t0.getTime() + 1000), v: 1}]));
    assert.eq([{v: 1, k: [1]}, {v: 2, k: [2]}],
              ts.aggregate([{$sort: {v: 1}}, {$project: {_id: 0, v: 1, k: {$meta: "sortKey"}}}]).toArray());
    assert.eq([{v: 1, k: [1]}, {v: 2, k: [2]}],
              ts.find({}, {_id: 0, t: 0, k: {$meta: "sortKey"}}).sort({v: 1}).toArray());
}

function errors() {
    setUp();
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), projection: {s: {$meta: "garbage"}}}), 17308);
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), projection: {s: {$meta: 1}}}), 17307);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {s: {$meta: "nope"}}}], cursor: {}}), 17308);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {s: {$meta: "textScore"}}}], cursor: {}}),
        40218);
    assert.commandFailedWithCode(db.runCommand({findAndModify: coll.getName(), query: {_id: 1}, update: {$set: {b: 1}},
                                                sort: {a: 1}, fields: {c: {$meta: "sortKey"}}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({findAndModify: coll.getName(), query: {_id: 1}, remove: true,
                                                sort: {a: 1}, fields: {c: {$meta: "sortKey"}}}),
                                 ErrorCodes.BadValue);
    assert.eq(3, coll.countDocuments({}));
}

runScenarios(findProjection, aggregation, timeseriesView, errors);
