/**
 * Index bounds from unions: `$in` values and regexes scan only their intervals (explain shows
 * them, in scan order), and the results are those of a collection scan. A regex anchored with
 * a literal prefix scans [prefix, prefix+1) plus the regex values themselves; the key that ends
 * an interval is examined once.
 */
const coll = db[jsTestName()];
coll.drop();

const docs = [];
for (let i = 0; i < 20; i++)
    docs.push({_id: i, a: i % 5, b: i, s: "s" + i, h: i % 3});
docs.push({_id: 100, a: [1, 6]});
docs.push({_id: 101, s: /^s1/});
docs.push({_id: 102, s: "t"});
assert.commandWorked(coll.insertMany(docs));

function ids(filter, hint) {
    let c = coll.find(filter);
    if (hint)
        c = c.hint(hint);
    return c.toArray().map(d => d._id).sort((x, y) => x - y);
}

function scan(filter) {
    const e = coll.find(filter).explain("executionStats");
    let stage = e.queryPlanner.winningPlan;
    while (stage.inputStage)
        stage = stage.inputStage;
    return {stage, stats: e.executionStats};
}

function checkSame(filter) {
    assert.eq(ids(filter), ids(filter, {$natural: 1}), tojson(filter));
}

// Without an index, a collection scan.
assert.eq("COLLSCAN", scan({s: /^s1/}).stage.stage);
assert.commandWorked(coll.createIndex({s: 1}));
assert.commandWorked(coll.createIndex({a: 1, b: -1}));
assert.commandWorked(coll.createIndex({h: "hashed"}));

// Regex prefix.
let r = scan({s: /^s1/});
assert.eq("IXSCAN", r.stage.stage);
assert.eq({s: ['["s1", "s2")', "[/^s1/, /^s1/]"]}, r.stage.indexBounds);
// s1, s10..s19 and the key past them ("s2"), then the stored regex.
assert.eq(13, r.stats.totalKeysExamined);
assert.eq(12, r.stats.nReturned);
checkSame({s: /^s1/});
checkSame({s: {$regex: "^s1", $options: "i"}});
assert.eq({s: ['["", {})', "[/^s1/i, /^s1/i]"]},
          scan({s: {$regex: "^s1", $options: "i"}}).stage.indexBounds);
checkSame({s: /s1$/});
checkSame({s: /^s|t/});
// With a range on the same field, the intervals are cut to it.
r = scan({s: {$regex: "^s1", $gte: "s15"}});
assert.eq({s: ['["s15", "s2")', "[/^s1/, /^s1/]"]}, r.stage.indexBounds);
checkSame({s: {$regex: "^s1", $gte: "s15"}});

// $in: one point per value, merged with regex intervals.
r = scan({s: {$in: [/^s1/, "s15", "t", "zz"]}});
assert.eq({s: ['["s1", "s2")', '["t", "t"]', '["zz", "zz"]', "[/^s1/, /^s1/]"]},
          r.stage.indexBounds);
checkSame({s: {$in: [/^s1/, "s15", "t", "zz"]}});

// Compound: the product of a $in and the next field's range (descending key field).
r = scan({a: {$in: [3, 1]}, b: {$gt: 10}});
assert.eq({a: ["[1, 1]", "[3, 3]"], b: ["[inf.0, 10)"]}, r.stage.indexBounds);
checkSame({a: {$in: [3, 1]}, b: {$gt: 10}});
// Scanned backward for a sort: intervals in scan order.
const back = coll.find({s: {$in: ["s3", "s15"]}}).sort({s: -1}).explain().queryPlanner.winningPlan;
let ix = back;
while (ix.inputStage)
    ix = ix.inputStage;
assert.eq("backward", ix.direction, tojson(back));
assert.eq({s: ['["s3", "s3"]', '["s15", "s15"]']}, ix.indexBounds, tojson(back));
assert.eq([3, 15], coll.find({s: {$in: ["s3", "s15"]}}).sort({s: -1}).toArray().map(d => d._id));

// Multikey: the union is not cut by a range (different elements may meet each).
assert.eq([100], ids({a: {$in: [1, 6], $gt: 5}}));
checkSame({a: {$in: [1, 6], $gt: 5}});

// Hashed: one digest per value.
r = scan({h: {$in: [1, 2]}});
assert.eq("IXSCAN", r.stage.stage);
assert.eq(2, r.stage.indexBounds.h.length);
checkSame({h: {$in: [1, 2]}});

// Values that cannot bound: an array in $in, an empty $in.
checkSame({a: {$in: [[1, 6], 2]}});
assert.eq([], ids({a: {$in: []}}));

// A union the index cannot bound (strings or objects under another collation than the
// index's): no bounds from it, the same results.
assert.eq([1, 15], coll.find({s: {$in: ["s1", "s15"]}}).collation({locale: "fr"}).toArray().map(
                       d => d._id).sort((x, y) => x - y));
assert.eq([5], coll.find({_id: {$in: [{a: [2, 3]}, 5]}}).collation({locale: "fr"}).toArray().map(
                   d => d._id));

// A $or of equalities on one field bounds like the $in it equals (as upstream rewrites it);
// hashed indexes scan the digests. A $or over two fields does not.
r = scan({$or: [{h: 1}, {h: {$eq: 2}}]});
assert.eq("IXSCAN", r.stage.stage);
assert.eq(2, r.stage.indexBounds.h.length);
checkSame({$or: [{h: 1}, {h: {$eq: 2}}]});
r = scan({$or: [{s: "s3"}, {s: {$in: ["s7", "t"]}}]});
assert.eq({s: ['["s3", "s3"]', '["s7", "s7"]', '["t", "t"]']}, r.stage.indexBounds);
checkSame({$or: [{s: "s3"}, {s: {$in: ["s7", "t"]}}]});
checkSame({$or: [{a: 1}, {a: 6}], b: {$lt: 10}});
assert.eq("COLLSCAN", scan({$or: [{s: "s3"}, {b: 4}]}).stage.stage);
checkSame({$or: [{s: "s3"}, {b: 4}]});
