/**
 * $add with a date: the numbers before the date are summed and rounded once when the date is
 * met, each number after it is rounded on its own (upstream's order-dependent rounding); a sum
 * past the range of a date is Overflow.
 */
const coll = db[jsTestName()];
coll.drop();
const date = ISODate("2019-01-30T07:30:10.137Z");
assert.commandWorked(coll.insert({
    _id: 0,
    date: date,
    dec: NumberDecimal("0.6"),
    dbl: 0.6,
    lng: NumberLong(1),
    big: NumberLong("9223372036854775807"),
    inf: Infinity,
    huge: NumberDecimal("1e5000"),
}));

function add(args) {
    return coll.aggregate([{$project: {_id: 0, r: {$add: args}}}]).toArray()[0].r;
}
const plus = (ms) => new Date(date.getTime() + ms);

// Each number after the date is rounded: 0.6 -> 1, twice.
assert.eq(plus(2), add(["$date", "$dbl", "$dbl"]));
assert.eq(plus(3), add(["$date", "$dec", "$dbl", "$lng"]));
// Numbers before the date are summed first: 0.6 + 0.6 = 1.2 -> 1.
assert.eq(plus(1), add(["$dbl", "$dbl", "$date"]));
assert.eq(plus(2), add(["$dec", "$dbl", "$lng", "$date"]));
// Mixed: 0.6 before (-> 1), then 0.6 after (-> 1).
assert.eq(plus(2), add(["$dbl", "$date", "$dec"]));
// Without a date nothing is rounded.
assert.eq(1.2, add(["$dbl", "$dbl"]));

for (const args of [["$date", "$big"], ["$big", "$date"], ["$date", "$inf"], ["$inf", "$date"],
                    ["$date", "$huge"], ["$date", "$lng", "$inf"]]) {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: {$add: args}}}],
                       cursor: {}}),
        ErrorCodes.Overflow, tojson(args));
}
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: {$add: ["$date", "$date"]}}}],
                   cursor: {}}),
    16612);
