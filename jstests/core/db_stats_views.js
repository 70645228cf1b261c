/**
 * dbStats counts views, time-series views included (upstream counts the view catalog).
 */
const testDB = db.getSiblingDB(jsTestName());

function viewsCounted() {
    assert.commandWorked(testDB.dropDatabase());
    assert.commandWorked(testDB.createCollection("c"));
    let s = assert.commandWorked(testDB.runCommand({dbStats: 1}));
    assert.eq(0, s.views, tojson(s));
    assert.commandWorked(testDB.runCommand({create: "v", viewOn: "c", pipeline: []}));
    assert.commandWorked(testDB.runCommand({create: "ts", timeseries: {timeField: "t"}}));
    s = assert.commandWorked(testDB.runCommand({dbStats: 1}));
    assert.eq(2, s.views, tojson(s));
    assert.commandWorked(testDB.runCommand({drop: "v"}));
    assert.eq(1, assert.commandWorked(testDB.runCommand({dbStats: 1})).views);
    assert.commandWorked(testDB.dropDatabase());
}

runScenarios(viewsCounted);
