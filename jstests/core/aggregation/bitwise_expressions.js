// $bitAnd, $bitOr, $bitXor, $bitNot: int and long operands only (TypeMismatch otherwise),
// null for a nullish operand, a long result when an operand is a long.
const coll = db.bitwise_expressions;
coll.drop();
assert.commandWorked(coll.insert({_id: 0, a: NumberInt(6), b: NumberInt(3), l: NumberLong(12), c: [1, 2]}));

function evalOne(expr) {
    return coll.aggregate([{$project: {_id: 0, r: expr}}]).toArray()[0].r;
}
assert.eq(2, evalOne({$bitAnd: ["$a", "$b"]}));
assert.eq(7, evalOne({$bitOr: ["$a", "$b"]}));
assert.eq(5, evalOne({$bitXor: ["$a", "$b"]}));
assert.eq(-7, evalOne({$bitNot: "$a"}));
assert.eq(-1, evalOne({$bitAnd: []}));
assert.eq(0, evalOne({$bitOr: []}));
assert.eq(null, evalOne({$bitAnd: ["$a", "$missing"]}));
assert.eq(null, evalOne({$bitNot: null}));
// A long operand gives a long.
const r = coll.aggregate([{$project: {_id: 0, r: {$bitOr: ["$a", "$l"]}, t: {$type: {$bitOr: ["$a", "$l"]}},
                                      u: {$type: {$bitOr: ["$a", "$b"]}}}}]).toArray()[0];
assert.eq(14, r.r);
assert.eq("long", r.t);
assert.eq("int", r.u);
for (const bad of [1.5, NumberDecimal("1"), "$c", "x"]) {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: {$bitAnd: ["$a", bad]}}}], cursor: {}}),
        ErrorCodes.TypeMismatch);
}
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: {$bitNot: 12.5}}}], cursor: {}}),
    ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: {$bitNot: ["$a", "$b"]}}}], cursor: {}}),
    16020);
