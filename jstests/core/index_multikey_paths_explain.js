/**
 * Multikey paths: an index records which components of each key path met an array, and an
 * IXSCAN's explain shows them (multiKeyPaths: {field: [prefixes]}); 2d indexes keep none. They
 * only grow, and a time-series index on the buckets shows them on its `meta` path
 * (upstream timeseries_special_indexes_metadata.js).
 */
load("jstests/libs/query_helpers.js");
const coll = db[jsTestName()];

function ixscan(c, hint) {
    const explain = assert.commandWorked(c.find().hint(hint).explain());
    const scans = planStages(explain.queryPlanner.winningPlan).filter(s => s.stage === "IXSCAN");
    assert.eq(1, scans.length, tojson(explain));
    return scans[0];
}

function notMultikeyShowsEmptyPaths() {
    coll.drop();
    assert.commandWorked(coll.createIndex({"a.b": 1, c: 1}));
    assert.commandWorked(coll.insertOne({a: {b: 1}, c: 2}));
    const s = ixscan(coll, {"a.b": 1, c: 1});
    assert.eq(false, s.isMultiKey);
    assert.docEq({"a.b": [], c: []}, s.multiKeyPaths);
}

function pathsGrowWithEachArray() {
    coll.drop();
    assert.commandWorked(coll.createIndex({"a.b": 1, c: 1}));
    assert.commandWorked(coll.insertOne({a: [{b: 1}, {b: 2}], c: 1}));
    let s = ixscan(coll, {"a.b": 1, c: 1});
    assert.eq(true, s.isMultiKey);
    assert.docEq({"a.b": ["a"], c: []}, s.multiKeyPaths);
    assert.commandWorked(coll.insertOne({a: {b: [1, 2]}, c: 1}));
    s = ixscan(coll, {"a.b": 1, c: 1});
    assert.docEq({"a.b": ["a", "a.b"], c: []}, s.multiKeyPaths);
    // Removing the documents does not shrink them (as upstream).
    assert.commandWorked(coll.deleteMany({}));
    assert.docEq({"a.b": ["a", "a.b"], c: []}, ixscan(coll, {"a.b": 1, c: 1}).multiKeyPaths);
}

function updateMakesMultikey() {
    coll.drop();
    assert.commandWorked(coll.createIndex({x: 1}));
    assert.commandWorked(coll.insertOne({_id: 1, x: 1}));
    assert.commandWorked(coll.updateOne({_id: 1}, {$set: {x: [1, 2]}}));
    assert.docEq({x: ["x"]}, ixscan(coll, {x: 1}).multiKeyPaths);
}

function indexBuildRecordsPaths() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{p: {q: [1, 2]}}, {p: [{q: 1}]}]));
    assert.commandWorked(coll.createIndex({"p.q": -1}));
    assert.docEq({"p.q": ["p", "p.q"]}, ixscan(coll, {"p.q": -1}).multiKeyPaths);
}

function twoDIndexHasNone() {
    coll.drop();
    assert.commandWorked(coll.createIndex({loc: "2d"}));
    assert.commandWorked(coll.insertOne({loc: [[1, 1], [2, 2]]}));
    const s = ixscan(coll, {loc: "2d"});
    assert(!s.hasOwnProperty("multiKeyPaths"), tojson(s));
}

function timeseriesMetaArray() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(ts.createIndex({"m.a": 1}));
    assert.commandWorked(ts.insertOne({t: new Date(), m: {a: [{zip: 1}, {zip: 2}]}}));
    const s = ixscan(db["system.buckets." + ts.getName()], {"meta.a": 1});
    assert.eq(true, s.isMultiKey);
    assert.docEq({"meta.a": ["meta.a"]}, s.multiKeyPaths);
    ts.drop();
}

runScenarios(notMultikeyShowsEmptyPaths, pathsGrowWithEachArray, updateMakesMultikey,
             indexBuildRecordsPaths, twoDIndexHasNone, timeseriesMetaArray);
