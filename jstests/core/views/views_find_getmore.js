/**
 * find on a view continues with getMore across batches; sort, skip, limit and
 * projection apply on top of the view pipeline; aggregate explain on a view shows
 * the resolved pipeline.
 */
const src = db[jsTestName() + "_src"];
const viewName = jsTestName() + "_view";

function setUp() {
    db[viewName].drop();
    src.drop();
    const docs = [];
    for (let i = 0; i < 300; i++) {
        docs.push({_id: i, a: i % 7, b: i});
    }
    assert.commandWorked(src.insertMany(docs));
    assert.commandWorked(db.createView(viewName, src.getName(), [{$match: {a: {$ne: 0}}}]));
}

function getMoreThroughView() {
    let res = assert.commandWorked(db.runCommand({find: viewName, batchSize: 50, sort: {_id: 1}}));
    let seen = res.cursor.firstBatch.length;
    let last = res.cursor.firstBatch[res.cursor.firstBatch.length - 1]._id;
    while (res.cursor.id != 0) {
        res = assert.commandWorked(db.runCommand({getMore: res.cursor.id, collection: viewName}));
        for (const d of res.cursor.nextBatch) {
            assert.gt(d._id, last);
            last = d._id;
        }
        seen += res.cursor.nextBatch.length;
    }
    assert.eq(300 - 43, seen);
}

function sortSkipLimitProjection() {
    const res = db[viewName].find({b: {$lt: 20}}, {_id: 0, b: 1}).sort({b: -1}).skip(2).limit(3).toArray();
    assert.eq([{b: 17}, {b: 16}, {b: 15}], res);
}

function explainOnView() {
    const res = assert.commandWorked(db.runCommand(
        {aggregate: viewName, pipeline: [{$group: {_id: "$a"}}], explain: true}));
    assert.eq(db.getName() + "." + src.getName(),
              res.stages ? res.stages[0].$cursor.queryPlanner.namespace : res.queryPlanner.namespace);
}

runScenarios(setUp, getMoreThroughView, sortSkipLimitProjection, explainOnView);
