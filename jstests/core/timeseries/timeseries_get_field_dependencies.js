/**
 * $getField names its field as a literal string, and without `input` it reads the whole
 * measurement: the unpacking must not prune the field it names (the meta field included).
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
const t = ISODate("2024-01-01T00:00:00Z");
assert.commandWorked(coll.insert({_id: 1, t: t, m: 2, a: 5, "b.c": 7}));

function one(pipeline) {
    const res = coll.aggregate(pipeline).toArray();
    assert.eq(1, res.length, tojson(res));
    return res[0];
}
assert.docEq({m: 2}, one([{$project: {_id: 0, m: {$getField: "m"}}}]));
assert.docEq({x: 5}, one([{$project: {_id: 0, x: {$getField: "a"}}}]));
assert.docEq({x: 5}, one([{$project: {_id: 0, x: {$getField: {field: "a"}}}}]));
assert.docEq({x: 7}, one([{$project: {_id: 0, x: {$getField: {$literal: "b.c"}}}}]));
assert.docEq({_id: 1, s: 12}, one([{$group: {_id: "$_id", s: {$sum: {$add: [{$getField: "a"}, {$getField: "b.c"}]}}}}]));
// With an input, the input is what it reads.
assert.docEq({x: 2}, one([{$project: {_id: 0, x: {$getField: {field: "m", input: "$$ROOT"}}}}]));
