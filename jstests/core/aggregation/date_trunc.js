/**
 * $dateTrunc with units, binSize, timezone (Olson names and offsets) and
 * startOfWeek, including the downsampling shape $group by $dateTrunc with $avg.
 */
const coll = db[jsTestName()];
const d = ISODate("2021-03-14T10:37:12.345Z");

function trunc(spec) {
    return coll.aggregate([{$project: {_id: 0, r: {$dateTrunc: Object.assign({date: "$d"}, spec)}}}])
        .toArray()[0].r;
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, d: d}));
}

function units() {
    assert.eq(ISODate("2021-03-14T10:37:12.345Z"), trunc({unit: "millisecond"}));
    assert.eq(ISODate("2021-03-14T10:37:12Z"), trunc({unit: "second"}));
    assert.eq(ISODate("2021-03-14T10:37:00Z"), trunc({unit: "minute"}));
    assert.eq(ISODate("2021-03-14T10:00:00Z"), trunc({unit: "hour"}));
    assert.eq(ISODate("2021-03-14T00:00:00Z"), trunc({unit: "day"}));
    assert.eq(ISODate("2021-03-14T00:00:00Z"), trunc({unit: "week"}));
    assert.eq(ISODate("2021-03-08T00:00:00Z"), trunc({unit: "week", startOfWeek: "monday"}));
    assert.eq(ISODate("2021-03-01T00:00:00Z"), trunc({unit: "month"}));
    assert.eq(ISODate("2021-01-01T00:00:00Z"), trunc({unit: "quarter"}));
    assert.eq(ISODate("2021-01-01T00:00:00Z"), trunc({unit: "year"}));
}

function binSizes() {
    assert.eq(ISODate("2021-03-14T10:30:00Z"), trunc({unit: "minute", binSize: 15}));
    assert.eq(ISODate("2021-03-14T08:00:00Z"), trunc({unit: "hour", binSize: 4}));
    assert.eq(ISODate("2021-01-01T00:00:00Z"), trunc({unit: "month", binSize: 6}));
}

function timezones() {
    assert.eq(ISODate("2021-03-14T05:00:00Z"), trunc({unit: "day", timezone: "America/New_York"}));
    assert.eq(ISODate("2021-03-13T22:30:00Z"), trunc({unit: "day", timezone: "+01:30"}));
    assert.eq(ISODate("2021-03-14T10:30:00Z"), trunc({unit: "hour", timezone: "Asia/Kolkata"}));
}

function nullsAndErrors() {
    assert.eq(null, trunc({unit: null}));
    const run = (spec) => db.runCommand({aggregate: coll.getName(), cursor: {},
        pipeline: [{$project: {r: {$dateTrunc: Object.assign({date: "$d"}, spec)}}}]});
    assert.commandFailedWithCode(run({unit: "fortnight"}), 5439014);
    assert.commandFailedWithCode(run({unit: "hour", binSize: 0}), 5439018);
    assert.commandFailedWithCode(run({unit: "hour", timezone: "Mars/Olympus"}), 40485);
    assert.commandFailedWithCode(run({unit: "hour", date: "x"}), 5439012);
    assert.commandFailedWithCode(run({}), 5439010);
}

function downsampling() {
    coll.drop();
    const docs = [];
    const base = ISODate("2021-01-01T00:00:00Z").getTime();
    for (let i = 0; i < 120; i++) {
        docs.push({t: new Date(base + i * 60 * 1000), v: i});
    }
    assert.commandWorked(coll.insertMany(docs));
    const res = coll.aggregate([
        {$match: {t: {$gte: new Date(base), $lt: new Date(base + 2 * 3600 * 1000)}}},
        {$group: {_id: {$dateTrunc: {date: "$t", unit: "hour"}}, avg: {$avg: "$v"}, max: {$max: "$v"}}},
        {$sort: {_id: 1}}
    ]).toArray();
    assert.eq([{_id: new Date(base), avg: 29.5, max: 59},
               {_id: new Date(base + 3600 * 1000), avg: 89.5, max: 119}], res);
}

runScenarios(setUp, units, binSizes, timezones, nullsAndErrors, downsampling);
