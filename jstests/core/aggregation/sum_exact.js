/**
 * $sum and $avg add ints, longs and doubles exactly and round once (as upstream's
 * double-double sum does for such inputs): the result does not depend on the order of the
 * inputs, an int64 total that leaves the range on the way and comes back stays a long, and a
 * time-series $group (the block path over buckets) gives the bits a plain collection gives
 * for the same values inserted in another order.
 */
load("jstests/libs/query_helpers.js");
const coll = db[jsTestName()];
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];

function sumOf(values) {
    coll.drop();
    assert.commandWorked(coll.insertMany(values.map((v, i) => ({_id: i, v: v}))));
    const res = coll.aggregate([
        {$sort: {_id: 1}},
        {$group: {_id: null, s: {$sum: "$v"}, a: {$avg: "$v"}}}
    ]).toArray();
    assert.eq(1, res.length, tojson(res));
    return res[0];
}

function roundsOnce() {
    // Ten 0.1 are 1.0000000000000000555 exactly: 1 (a running double sum: 0.9999999999999999).
    const r = sumOf(Array(10).fill(0.1));
    assert(r.s === 1, tojson(r));
    assert(r.a === 0.1, tojson(r));
    assert(sumOf([1e16, 0.5, -1e16]).s === 0.5);
    assert(sumOf([1e300, 1e-300, -1e300]).s === 1e-300);
    assert(sumOf([0.1, 0.2, 0.3]).s === 0.6);
    assert(Number.isNaN(sumOf([Infinity, -Infinity]).s));
    assert(sumOf([Infinity, 0.5]).s === Infinity);
}

function integerTypes() {
    const max = NumberLong("9223372036854775807");
    let r = sumOf([max, NumberLong(1), NumberLong(-1)]);
    assert.eq(tojson(max), tojson(r.s), "back in range: a long");
    r = sumOf([max, NumberLong(1)]);
    assert.eq("number", typeof r.s, "beyond int64: a double " + tojson(r));
    assert.eq(9223372036854775808, r.s);
    r = sumOf([NumberInt(2147483647), NumberInt(1)]);
    assert.eq(tojson(NumberLong(2147483648)), tojson(r.s), "ints beyond int32: a long");
    r = sumOf([NumberInt(2), NumberLong(3)]);
    assert.eq(tojson(NumberLong(5)), tojson(r.s));
    r = sumOf([NumberInt(2), 0.5]);
    assert(r.s === 2.5, tojson(r));
}

function blockPathAnyOrder() {
    ts.drop();
    plain.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const rand = seededRandom(2026).int;
    const base = ISODate("2024-05-01T00:00:00Z").getTime();
    const docs = [];
    for (let i = 0; i < 4000; i++) {
        // Two-decimal doubles of several magnitudes: their double sums depend on the order.
        const scale = [1, 100, 10000][i % 3];
        docs.push({
            t: new Date(base + i * 10000),
            m: "h" + (i % 4),
            v: (rand(100000) + 0.01 * (1 + rand(99))) / scale,
        });
    }
    assert.commandWorked(ts.insertMany(docs));
    const shuffled = docs.slice();
    for (let i = shuffled.length - 1; i > 0; i--) {
        const j = rand(i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    assert.commandWorked(plain.insertMany(shuffled));
    const spec = [
        {$group: {_id: "$m", s: {$sum: "$v"}, a: {$avg: "$v"}}},
        {$sort: {_id: 1}}
    ];
    const fromBuckets = ts.aggregate(spec).toArray();
    const fromPlain = plain.aggregate(spec).toArray();
    assert.eq(4, fromBuckets.length);
    for (let i = 0; i < 4; i++) {
        assert(fromBuckets[i].s === fromPlain[i].s, tojson([fromBuckets[i], fromPlain[i]]));
        assert(fromBuckets[i].a === fromPlain[i].a, tojson([fromBuckets[i], fromPlain[i]]));
    }
}

runScenarios(roundsOnce, integerTypes, blockPathAnyOrder);
