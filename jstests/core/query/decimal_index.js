/**
 * Index keys order decimals exactly among ints, longs and doubles: with an index on
 * {a: 1} (or {a: -1}), range, equality and sorted queries return what a $natural
 * collection scan returns (e.g. NumberDecimal("0.1") < 0.1 is found by {$lt: 0.1}).
 */
const coll = db[jsTestName()];

const values = [
    0.1, NumberDecimal("0.1"), NumberDecimal("0.10"), NumberDecimal("-0.1"), -0.1,
    1, NumberLong("1"), 1.0, NumberDecimal("1.0"), NumberDecimal("1.000000000000000000000000000000001"),
    NumberDecimal("0.9999999999999999999999999999999999"), 0.3, NumberDecimal("0.3"),
    NumberDecimal("0.30000000000000001"), NumberDecimal("1E+400"), NumberDecimal("-1E+400"),
    Infinity, -Infinity, NumberDecimal("Infinity"), NumberDecimal("-Infinity"), NaN,
    NumberDecimal("NaN"), 0, -0.0, NumberDecimal("-0"), NumberDecimal("1E-400"),
    NumberDecimal("-1E-400"), 5e-324, NumberLong("9223372036854775807"),
    NumberDecimal("9223372036854775807"), NumberDecimal("9223372036854775807.5"),
    9223372036854775807, NumberDecimal("18446744073709551615.5"), 18446744073709551616,
    NumberDecimal("18446744073709551616"), NumberDecimal("2.5"), 2.5,
    NumberDecimal("2.50000000000000000000000000001"), [NumberDecimal("0.1"), 0.3],
];

function setUp(direction) {
    coll.drop();
    const docs = values.map((v, i) => ({_id: i, a: v}));
    assert.commandWorked(coll.insert(docs));
    assert.commandWorked(coll.createIndex({a: direction}));
}

function ids(filter, sort, hint) {
    return coll.find(filter).sort(sort).hint(hint).toArray().map(d => d._id);
}

function sameAsCollectionScan(filter) {
    const viaIndex = ids(filter, {_id: 1}, {a: direction});
    const viaScan = ids(filter, {_id: 1}, {$natural: 1});
    assert.eq(viaScan, viaIndex, tojson(filter));
}

let direction = 1;

function rangesAndEqualities() {
    const bounds = [0.1, NumberDecimal("0.1"), 1, NumberDecimal("1.0"), 0.3, NumberDecimal("0.3"),
                    NumberDecimal("1E+400"), Infinity, NumberDecimal("-0.1"), -0.1, 0,
                    NumberDecimal("2.5"), 18446744073709551616,
                    NumberDecimal("9223372036854775807.5"), NaN, NumberDecimal("1E-400")];
    for (const b of bounds) {
        for (const op of ["$lt", "$lte", "$gt", "$gte", "$eq"])
            sameAsCollectionScan({a: {[op]: b}});
    }
    sameAsCollectionScan({a: {$gt: 0, $lt: 0.1}});
    sameAsCollectionScan({a: {$in: [NumberDecimal("0.1"), 1, 2.5]}});
}

function decimalBelowDoubleIsFound() {
    const res = coll.find({a: {$lt: 0.1, $gt: 0}}).hint({a: direction}).toArray();
    const found = res.map(d => d._id);
    assert(found.includes(1) && found.includes(2) && !found.includes(0), tojson(res));
}

function sortedScanMatchesBlockingSort() {
    const filter = {a: {$type: "number"}, _id: {$ne: values.length - 1}};  // not the array
    const byIndex = coll.find(filter, {_id: 0, a: 1}).sort({a: direction}).hint({a: direction})
                        .toArray();
    const bySort = coll.find(filter, {_id: 0, a: 1}).sort({a: direction}).hint({$natural: 1})
                       .toArray();
    // Equal values may come in different order; compare each position by value.
    assert.eq(bySort.length, byIndex.length);
    for (let i = 0; i < bySort.length; ++i) {
        const cmp = coll.aggregate([{$limit: 1}, {$project: {c: {$cmp: [{$literal: bySort[i].a},
                                                                        {$literal: byIndex[i].a}]}}}])
                        .toArray()[0].c;
        assert.eq(0, cmp, "position " + i + ": " + tojson(bySort[i]) + " vs " + tojson(byIndex[i]));
    }
}

for (const dir of [1, -1]) {
    direction = dir;
    for (const test of [rangesAndEqualities, decimalBelowDoubleIsFound,
                        sortedScanMatchesBlockingSort]) {
        setUp(dir);
        test();
    }
}
