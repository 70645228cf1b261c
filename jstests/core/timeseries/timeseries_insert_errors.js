/**
 * Per-measurement write errors of inserts into a time-series collection (spec §3.9-§3.10):
 * a missing or non-date time field is BadValue at the measurement's index; ordered inserts
 * stop there (n = index), unordered inserts report every failure and insert the rest.
 */
const name = jsTestName();
const coll = db[name];
const t0 = ISODate("2024-01-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({create: name, timeseries: {timeField: "t", metaField: "m"}}));
}

function docs() {
    return [
        {_id: 0, t: new Date(t0), m: 1},
        {_id: 1, m: 1},                      // no time
        {_id: 2, t: new Date(t0 + 1), m: 2},
        {_id: 3, t: "not a date", m: 1},     // wrong type
        {_id: 4, t: new Date(t0 + 2), m: 1},
    ];
}

function ordered() {
    setUp();
    const res = db.runCommand({insert: name, documents: docs(), ordered: true});
    assert.eq(1, res.ok);
    assert.eq(1, res.n);
    assert.eq(1, res.writeErrors.length, tojson(res));
    assert.eq(1, res.writeErrors[0].index);
    assert.eq(ErrorCodes.BadValue, res.writeErrors[0].code);
    assert.eq([0], coll.find().toArray().map(d => d._id));
}

function unordered() {
    setUp();
    const res = db.runCommand({insert: name, documents: docs(), ordered: false});
    assert.eq(3, res.n, tojson(res));
    assert.eq([1, 3], res.writeErrors.map(e => e.index));
    assert.eq([ErrorCodes.BadValue, ErrorCodes.BadValue], res.writeErrors.map(e => e.code));
    assert.eq([0, 2, 4], coll.find().sort({_id: 1}).toArray().map(d => d._id));
}

function allGood() {
    setUp();
    const res = db.runCommand({insert: name, documents: [{t: new Date(t0)}, {t: new Date(t0)}]});
    assert.eq(2, res.n);
    assert.eq(undefined, res.writeErrors);
}

function rawBucketInsertValidated() {
    setUp();
    assert.commandFailedWithCode(
        db.runCommand({insert: "system.buckets." + name, documents: [{_id: ObjectId(), x: 1}]}),
        ErrorCodes.DocumentValidationFailure);
}

runScenarios(ordered, unordered, allGood, rawBucketInsertValidated);
