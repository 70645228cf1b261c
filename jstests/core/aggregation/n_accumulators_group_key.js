/**
 * The `n` of $minN/$maxN/$firstN/$lastN/$topN/$bottomN in $group may be an expression of the
 * group key's fields, evaluated once per group; $bucketAuto has no key for it (4544714); n is
 * checked as upstream does: not a number 5787902, not an integral 64-bit value 5787903, not
 * positive 5787908 (when constant, at parse time; else per group).
 */
const coll = db[jsTestName()];
coll.drop();
const docs = [];
for (const state of ["CA", "NY", "TX"])
    for (let i = 1; i <= 12; ++i)
        docs.push({state: state, sales: i * 100});
assert.commandWorked(coll.insert(docs));

const nOfKey = {$cond: {if: {$eq: ["$st", "CA"]}, then: 10, else: 4}};
const specs = {
    $minN: {input: "$sales", n: nOfKey},
    $maxN: {input: "$sales", n: nOfKey},
    $firstN: {input: "$sales", n: nOfKey},
    $lastN: {input: "$sales", n: nOfKey},
    $topN: {output: "$sales", sortBy: {sales: 1}, n: nOfKey},
    $bottomN: {output: "$sales", sortBy: {sales: 1}, n: nOfKey},
};
for (const [op, spec] of Object.entries(specs)) {
    const res =
        coll.aggregate([{$group: {_id: {st: "$state"}, v: {[op]: spec}}}, {$sort: {_id: 1}}])
            .toArray();
    assert.eq(3, res.length, op);
    for (const r of res)
        assert.eq(r._id.st === "CA" ? 10 : 4, r.v.length, op + " " + tojson(r));
}
// $minN keeps the smallest, in order.
let res = coll.aggregate([
                  {$match: {state: "NY"}},
                  {$group: {_id: {st: "$state"}, v: {$minN: {input: "$sales", n: nOfKey}}}}
              ])
              .toArray();
assert.eq([100, 200, 300, 400], res[0].v);

// The same through $group's spilling path.
res = coll.aggregate([{$group: {_id: {st: "$state"}, v: {$maxN: {input: "$sales", n: nOfKey}}}},
                      {$sort: {_id: 1}}],
                     {allowDiskUse: true})
          .toArray();
assert.eq(10, res[0].v.length);

// A scalar key has no fields: the expression sees none.
res = coll.aggregate([
              {$group: {_id: "$state", v: {$firstN: {input: "$sales", n: {$ifNull: ["$x", 2]}}}}},
              {$sort: {_id: 1}}
          ])
          .toArray();
assert.eq([100, 200], res[0].v);

assert.commandFailedWithCode(db.runCommand({
    aggregate: coll.getName(),
    pipeline: [{
        $bucketAuto:
            {groupBy: "$state", buckets: 2, output: {v: {$minN: {input: "$sales", n: nOfKey}}}}
    }],
    cursor: {}
}),
                             4544714);

function groupWithN(n) {
    return db.runCommand({
        aggregate: coll.getName(),
        pipeline: [{$group: {_id: {st: "$state"}, v: {$minN: {input: "$sales", n: n}}}}],
        cursor: {}
    });
}
assert.commandFailedWithCode(groupWithN("string"), 5787902);
assert.commandFailedWithCode(groupWithN(3.2), 5787903);
assert.commandFailedWithCode(groupWithN(NumberDecimal("9223372036854775808")), 5787903);
assert.commandFailedWithCode(groupWithN(-1), 5787908);
assert.commandFailedWithCode(groupWithN(0), 5787908);
assert.commandFailedWithCode(groupWithN("$st"), 5787902);  // per group: a string
assert.commandWorked(groupWithN(NumberDecimal("9223372036854775807")));
