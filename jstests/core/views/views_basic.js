/**
 * A view is created with viewOn and pipeline, stored in <db>.system.views, listed by
 * listCollections with type "view", and read with find/aggregate/count/distinct.
 */
const coll = db[jsTestName() + "_src"];
const viewName = jsTestName() + "_view";

function setUp() {
    db[viewName].drop();
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: 1, tag: "x"},
        {_id: 2, a: 2, tag: "y"},
        {_id: 3, a: 3, tag: "x"},
        {_id: 4, a: 4, tag: "z"},
    ]));
    assert.commandWorked(db.runCommand(
        {create: viewName, viewOn: coll.getName(), pipeline: [{$match: {a: {$gte: 2}}}]}));
}

function storedInSystemViews() {
    const doc = db.system.views.findOne({_id: db.getName() + "." + viewName});
    assert.neq(null, doc);
    assert.eq(coll.getName(), doc.viewOn);
    assert.eq([{$match: {a: {$gte: 2}}}], doc.pipeline);
}

function listedAsView() {
    const res = assert.commandWorked(
        db.runCommand({listCollections: 1, filter: {name: viewName}}));
    assert.eq(1, res.cursor.firstBatch.length);
    const info = res.cursor.firstBatch[0];
    assert.eq("view", info.type);
    assert.eq(coll.getName(), info.options.viewOn);
    assert.eq(true, info.info.readOnly);
}

function findOnView() {
    assert.eq([2, 3, 4], db[viewName].find({}, {_id: 1}).sort({_id: 1}).toArray().map(d => d._id));
    assert.eq([{_id: 3}], db[viewName].find({tag: "x"}, {_id: 1}).toArray());
    assert.eq([4], db[viewName].find().sort({a: -1}).limit(1).toArray().map(d => d._id));
    const res = assert.commandWorked(db.runCommand({find: viewName, batchSize: 1}));
    assert.eq(1, res.cursor.firstBatch.length);
    assert.eq(db.getName() + "." + viewName, res.cursor.ns);
}

function aggregateOnView() {
    assert.eq([{_id: "x", n: 1}, {_id: "y", n: 1}, {_id: "z", n: 1}],
              db[viewName].aggregate([{$group: {_id: "$tag", n: {$sum: 1}}}, {$sort: {_id: 1}}])
                  .toArray());
}

function countAndDistinctOnView() {
    assert.eq(3, db[viewName].count());
    assert.eq(2, db[viewName].countDocuments({a: {$gte: 3}}));
    assert.eq(3, assert.commandWorked(db.runCommand({count: viewName})).n);
    assert.sameMembers(["x", "y", "z"], db[viewName].distinct("tag"));
}

function dropView() {
    assert(db[viewName].drop());
    assert.eq(0, db.runCommand({listCollections: 1, filter: {name: viewName}}).cursor.firstBatch.length);
    assert.eq(null, db.system.views.findOne({_id: db.getName() + "." + viewName}));
}

runScenarios(setUp, storedInSystemViews, listedAsView, findOnView, aggregateOnView,
             countAndDistinctOnView, dropView);
