/**
 * $mul $min $max $rename $setOnInsert $currentDate and $bit.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, a: 5, lo: 5, hi: 5, n: NumberInt(13), r: {c: 2}}));
}

function doc() {
    return coll.findOne({_id: 1});
}

function mul() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$mul: {a: 2, m: 3}}));
    assert.eq(10, doc().a);
    assert.eq(0, doc().m);  // a missing field is set to 0
}

function minAndMax() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$min: {lo: 3, z: 1}, $max: {hi: 9}}));
    const d = doc();
    assert.eq(3, d.lo);
    assert.eq(9, d.hi);
    assert.eq(1, d.z);
    const res = coll.updateOne({_id: 1}, {$min: {lo: 10}, $max: {hi: 1}});
    assert.eq(1, res.matchedCount);
    assert.eq(0, res.modifiedCount);
}

function rename() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$rename: {a: "aa", "r.c": "d"}}));
    const d = doc();
    assert.eq(undefined, d.a);
    assert.eq(10, d.aa);
    assert.eq(2, d.d);
    assert.docEq({}, d.r);
    const res = coll.updateOne({_id: 1}, {$rename: {nope: "other"}});
    assert.eq(0, res.modifiedCount);
}

function setOnInsertOnlyOnUpsert() {
    assert.commandWorked(coll.updateOne({_id: 2}, {$set: {v: 1}, $setOnInsert: {created: true}}, {upsert: true}));
    assert.docEq({_id: 2, v: 1, created: true}, coll.findOne({_id: 2}));
    assert.commandWorked(coll.updateOne({_id: 2}, {$set: {v: 2}, $setOnInsert: {again: true}}, {upsert: true}));
    assert.docEq({_id: 2, v: 2, created: true}, coll.findOne({_id: 2}));
}

function currentDate() {
    assert.commandWorked(
        coll.updateOne({_id: 1}, {$currentDate: {d: true, d2: {$type: "date"}, t: {$type: "timestamp"}}}));
    const d = doc();
    assert(d.d instanceof Date, tojson(d));
    assert(d.d2 instanceof Date, tojson(d));
    assert.eq(1, coll.countDocuments({_id: 1, t: {$type: "timestamp"}}));
}

function bitwise() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$bit: {n: {and: NumberInt(10)}}}));
    assert.eq(8, doc().n);
    assert.commandWorked(coll.updateOne({_id: 1}, {$bit: {n: {or: NumberInt(5)}}}));
    assert.eq(13, doc().n);
    assert.commandWorked(coll.updateOne({_id: 1}, {$bit: {n: {xor: NumberInt(1)}}}));
    assert.eq(12, doc().n);
}

runScenarios(setUp, mul, minAndMax, rename, setOnInsertOnlyOnUpsert, currentDate, bitwise);
