/**
 * Dropping <db>.system.views removes the database's views; dropDatabase removes
 * them too.
 */
const src = db[jsTestName() + "_src"];
const viewName = jsTestName() + "_view";

function setUp() {
    db[viewName].drop();
    src.drop();
    assert.commandWorked(src.insert({_id: 1}));
    assert.commandWorked(db.createView(viewName, src.getName(), []));
    assert.eq(1, db[viewName].find().itcount());
}

function dropSystemViews() {
    assert(db.system.views.drop());
    assert.eq(0, db.runCommand({listCollections: 1, filter: {name: viewName}}).cursor.firstBatch.length);
    assert.commandWorked(db.runCommand({insert: viewName, documents: [{_id: 5}]}));
    db[viewName].drop();
}

function dropDatabaseRemovesViews() {
    const other = db.getSiblingDB(jsTestName() + "_db");
    assert.commandWorked(other.src.insert({a: 1}));
    assert.commandWorked(other.createView("v", "src", []));
    assert.commandWorked(other.dropDatabase());
    assert.commandWorked(other.src.insert({a: 1}));
    assert.eq(0, other.runCommand({listCollections: 1, filter: {name: "v"}}).cursor.firstBatch.length);
    assert.commandWorked(other.dropDatabase());
}

runScenarios(setUp, dropSystemViews, dropDatabaseRemovesViews);
