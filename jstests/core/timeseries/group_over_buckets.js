/**
 * $group directly over a time-series view (the block path of group_over_buckets.h for
 * eligible specs, the generic path for the others) returns the same groups as the same
 * $group over a plain collection holding the same measurements: several series, a series
 * without meta, missing fields, int/long/double values, strings, out-of-order inserts
 * (v3 buckets). Values are multiples of 0.25 so that sums are exact in any order.
 */
load("jstests/libs/query_helpers.js");
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];
const base = ISODate("2024-03-01T00:00:00Z").getTime();

const rand = seededRandom(777).int;  // same data on every run

function canon(v) {
    if (v instanceof Array)
        return v.map(canon);
    if (v !== null && typeof v === "object" && v.constructor === Object) {
        const out = {};
        for (const k of Object.keys(v).sort())
            out[k] = canon(v[k]);
        return out;
    }
    return v;
}
const sorted = (docs) => docs.map((d) => tojson(canon(d))).sort();

function setUp() {
    ts.drop();
    plain.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(db.createCollection(plain.getName()));
    const docs = [];
    for (let i = 0; i < 3000; i++) {
        const d = {t: new Date(base + i * 37 * 1000 + rand(30) * 1000)};
        const s = rand(7);
        if (s < 5)
            d.m = {host: "h" + s, rack: s % 2};
        else if (s == 5)
            d.m = "solo";
        if (rand(6) != 0)
            d.a = rand(400) / 4;
        if (rand(5) != 0)
            d.b = s == 3 && rand(4) == 0 ? NumberLong(String(rand(100))) : NumberInt(rand(2000) - 1000);
        if (rand(3) != 0)
            d.c = NumberLong(String(rand(100000)));
        if (s == 4 && rand(3) == 0)
            d.str = "x" + rand(10);
        docs.push(d);
    }
    for (let i = docs.length - 1; i > 0; i--) {  // some out-of-order batches
        if (rand(4) != 0)
            continue;
        const j = Math.max(0, i - 1 - rand(300));
        const tmp = docs[i];
        docs[i] = docs[j];
        docs[j] = tmp;
    }
    for (let i = 0; i < docs.length; i += 200) {
        assert.commandWorked(ts.insertMany(docs.slice(i, i + 200), {ordered: false}));
        assert.commandWorked(plain.insertMany(docs.slice(i, i + 200)));
    }
}

const hour = {$dateTrunc: {date: "$t", unit: "hour"}};
const eligible = [
    {_id: {host: "$m.host", hour: hour}, avg: {$avg: "$a"}},
    {_id: "$m.host", s: {$sum: "$b"}, mn: {$min: "$a"}, mx: {$max: "$c"}, n: {$count: {}}},
    {_id: {$dateTrunc: {date: "$t", unit: "minute", binSize: 45}}, s: {$sum: "$c"},
     a: {$avg: "$b"}, last: {$max: "$t"}, first: {$min: "$t"}},
    {_id: null, s: {$sum: "$a"}, n: {$sum: 1}, m: {$max: "$str"}, two: {$sum: 2}},
    {_id: {m: "$m", d: {$dateTrunc: {date: "$t", unit: "day", timezone: "UTC"}}},
     avg: {$avg: "$c"}, min: {$min: "$b"}},
    {_id: "$m", missing: {$avg: "$nope"}, missingMin: {$min: "$nope"}},
    // A one-field object _id groups a missing value as null ({x: null}, not {}); with two
    // fields a missing one stays missing.
    {_id: {x: "$m.nope"}, s: {$sum: "$a"}},
    {_id: {x: "$m.nope", h: "$m.host"}, s: {$sum: "$a"}},
];
const ineligible = [
    {_id: "$str", n: {$sum: 1}},
    {_id: {$dateTrunc: {date: "$t", unit: "month"}}, s: {$sum: "$a"}},
    {_id: "$m.host", big: {$sum: {$cond: [{$gt: ["$a", 50]}, 1, 0]}}},
    {_id: null, s: {$sum: {$multiply: ["$a", 2]}}},
];

function checkSame(group, prefix = []) {
    const pipeline = prefix.concat([{$group: group}]);
    const fromTs = ts.aggregate(pipeline).toArray();
    const fromPlain = plain.aggregate(pipeline).toArray();
    assert.eq(sorted(fromTs), sorted(fromPlain), tojson(pipeline));
    assert.gt(fromTs.length, 0, tojson(pipeline));
}

function testEligibleSpecs() {
    eligible.forEach((g) => checkSame(g));
}

function testIneligibleSpecs() {
    ineligible.forEach((g) => checkSame(g));
}

function testAfterMatch() {
    // The $match becomes an eventFilter: the generic path runs.
    checkSame(eligible[0], [{$match: {t: {$gte: new Date(base + 3600 * 1000 * 5)}}}]);
    checkSame(eligible[1], [{$match: {"m.host": "h2"}}]);
}

function testExplainUnchanged() {
    const res = ts.explain().aggregate([{$group: eligible[0]}]);
    assert.commandWorked(res);
    assert(tojson(res).includes("$_internalUnpackBucket"), tojson(res));
}

function testOneOrTwoThreads() {
    // With two threads (a helper takes the buckets of part of the series, from the 65th
    // bucket on) the groups and their order are those of one thread.
    const kParam = "internalQueryBlockGroupThreads";
    const original = assert.commandWorked(db.adminCommand({getParameter: 1, [kParam]: 1}))[kParam];
    try {
        eligible.forEach((g) => {
            assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 1}));
            const one = ts.aggregate([{$group: g}]).toArray();
            assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 2}));
            const two = ts.aggregate([{$group: g}]).toArray();
            assert.eq(tojson(two), tojson(one), tojson(g));
        });
        assert.commandFailedWithCode(db.adminCommand({setParameter: 1, [kParam]: 3}),
                                     ErrorCodes.BadValue);
    } finally {
        assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: original}));
    }
    assert.gt(db.getCollection("system.buckets." + ts.getName()).countDocuments({}), 64);
}

setUp();
testEligibleSpecs();
testOneOrTwoThreads();
testIneligibleSpecs();
testAfterMatch();
testExplainUnchanged();
