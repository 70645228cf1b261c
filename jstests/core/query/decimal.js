/**
 * Decimal128 values in queries, sorts and updates: exact comparison with other number
 * types, mixed-type sort order, $mod, and exact $inc/$mul/$min/$max on decimals.
 */
const coll = db[jsTestName()];

function assertDec(str, v, msg) {
    assert.eq("Decimal128", v && v._bsontype, "expected a decimal, got " + tojson(v) + " " + (msg || ""));
    assert.eq(str, v.toString(), msg);
}

function ids(cursor) {
    return cursor.toArray().map(d => d._id);
}

function queries() {
    coll.drop();
    assert.commandWorked(coll.insert([
        {_id: 1, a: NumberDecimal("0.1")},
        {_id: 2, a: 0.1},
        {_id: 3, a: NumberDecimal("1.00")},
        {_id: 4, a: NumberInt(1)},
        {_id: 5, a: NumberDecimal("-Infinity")},
        {_id: 6, a: NumberDecimal("NaN")},
        {_id: 7, a: NumberLong(2)},
        {_id: 8, a: NumberDecimal("1.5")},
        {_id: 9, a: NumberDecimal("9223372036854775807")},
    ]));
    assert.eq([1], ids(coll.find({a: NumberDecimal("0.1")}).sort({_id: 1})));
    assert.eq([2], ids(coll.find({a: 0.1}).sort({_id: 1})));
    assert.eq([3, 4], ids(coll.find({a: 1}).sort({_id: 1})));
    assert.eq([3, 4], ids(coll.find({a: NumberDecimal("1")}).sort({_id: 1})));
    assert.eq([6], ids(coll.find({a: NaN}).sort({_id: 1})));
    assert.eq([1], ids(coll.find({a: {$gt: 0, $lt: 0.1}}).sort({_id: 1})));
    assert.eq([8, 7], ids(coll.find({a: {$gt: 1, $lt: 3}}).sort({a: 1})));
    assert.eq([9], ids(coll.find({a: NumberLong("9223372036854775807")})));
    assert.eq([], ids(coll.find({a: NumberLong("9223372036854775806")})));
    // Sort mixes types by value: NaN first, then -Infinity, 0.1 (decimal) < 0.1 (double).
    assert.eq([6, 5, 1, 2, 3, 4, 8, 7, 9], ids(coll.find().sort({a: 1, _id: 1})));
    assert.eq([9, 7, 8, 3, 4, 2, 1, 5, 6], ids(coll.find().sort({a: -1, _id: 1})));
    // $mod truncates decimals toward zero.
    assert.eq([1, 2, 7], ids(coll.find({a: {$mod: [2, 0]}}).sort({_id: 1})));
    assert.eq([3, 4, 8, 9], ids(coll.find({a: {$mod: [NumberDecimal("2"), 1]}}).sort({_id: 1})));
}

function updates() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, d: NumberDecimal("0.1"), i: NumberInt(1), x: 10}));
    assert.commandWorked(coll.update({_id: 1}, {$inc: {d: NumberDecimal("0.2")}}));
    assertDec("0.3", coll.findOne().d);
    assert.eq(1, coll.find({d: NumberDecimal("0.3")}).itcount());
    assert.commandWorked(coll.update({_id: 1}, {$inc: {i: NumberDecimal("0.5")}}));
    assertDec("1.5", coll.findOne().i);
    assert.commandWorked(coll.update({_id: 1}, {$mul: {d: NumberDecimal("3")}}));
    assertDec("0.9", coll.findOne().d);
    assert.commandWorked(coll.update({_id: 1}, {$inc: {n: NumberDecimal("2.50")}}));
    assertDec("2.50", coll.findOne().n);
    assert.commandWorked(coll.update({_id: 1}, {$mul: {m: NumberDecimal("1.5")}}));
    assertDec("0.0", coll.findOne().m);
    // $min/$max compare exactly: decimal 0.1 is below double 0.1.
    assert.commandWorked(coll.update({_id: 1}, {$set: {y: 0.1}}));
    assert.commandWorked(coll.update({_id: 1}, {$min: {y: NumberDecimal("0.1")}}));
    assertDec("0.1", coll.findOne().y);
    assert.commandWorked(coll.update({_id: 1}, {$max: {y: 0.1}}));
    assert.eq(0.1, coll.findOne().y);
    assert.commandWorked(coll.update({_id: 1}, {$max: {x: NumberDecimal("10.0")}}));
    assert.eq(10, coll.findOne().x);
}

function grouping() {
    coll.drop();
    assert.commandWorked(coll.insert([
        {_id: 1, a: NumberDecimal("1.0")},
        {_id: 2, a: 1},
        {_id: 3, a: NumberDecimal("1.00")},
        {_id: 4, a: NumberDecimal("0.1")},
        {_id: 5, a: 0.1},
    ]));
    // Equal numbers of any type share a group; 0.1 (decimal) and 0.1 (double) do not.
    const res = coll.aggregate([{$group: {_id: "$a", n: {$sum: 1}}}, {$sort: {_id: 1}}]).toArray();
    assert.eq(3, res.length, tojson(res));
    assert.eq([1, 1, 3], res.map(r => r.n));
    assert.eq(3, coll.distinct("a").length);
}

queries();
updates();
grouping();
