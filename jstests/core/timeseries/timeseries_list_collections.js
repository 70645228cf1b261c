/**
 * listCollections shows a time-series collection as type "timeseries" with the buckets
 * options filtered to the user-visible ones, and system.buckets.<coll> as a collection
 * with its validator, clusteredIndex and timeseries options.
 */
function createColl(n, o) {
    return db.runCommand(Object.assign({create: n}, o || {}));
}
const name = jsTestName();

function setUp() {
    db[name].drop();
    assert.commandWorked(createColl(
        name, {timeseries: {timeField: "t", metaField: "m"}, expireAfterSeconds: 3600}));
}

function viewEntry() {
    setUp();
    const res = assert.commandWorked(db.runCommand({listCollections: 1, filter: {name: name}}));
    assert.eq(1, res.cursor.firstBatch.length, tojson(res));
    const e = res.cursor.firstBatch[0];
    assert.eq("timeseries", e.type);
    assert.docEq({timeField: "t", metaField: "m", granularity: "seconds", bucketMaxSpanSeconds: 3600},
                 e.options.timeseries);
    assert.eq(3600, e.options.expireAfterSeconds);
    assert.eq(undefined, e.options.validator);
    assert.eq(undefined, e.options.clusteredIndex);
    assert.eq(false, e.info.readOnly);
    assert.eq(undefined, e.info.uuid);
}

function nameOnly() {
    setUp();
    const res = assert.commandWorked(
        db.runCommand({listCollections: 1, filter: {name: name}, nameOnly: true}));
    assert.docEq({name: name, type: "timeseries"}, res.cursor.firstBatch[0]);
}

function bucketsEntry() {
    setUp();
    const res = assert.commandWorked(
        db.runCommand({listCollections: 1, filter: {name: "system.buckets." + name}}));
    assert.eq(1, res.cursor.firstBatch.length, tojson(res));
    const e = res.cursor.firstBatch[0];
    assert.eq("collection", e.type);
    assert.eq(true, e.options.clusteredIndex);
    assert(e.options.validator.$jsonSchema, tojson(e));
    assert.eq("t", e.options.timeseries.timeField);
    assert(e.info.uuid, tojson(e));
}

function filterByType() {
    setUp();
    const res = assert.commandWorked(
        db.runCommand({listCollections: 1, filter: {type: "timeseries", name: name}}));
    assert.eq(1, res.cursor.firstBatch.length);
}

runScenarios(viewEntry, nameOnly, bucketsEntry, filterByType);
