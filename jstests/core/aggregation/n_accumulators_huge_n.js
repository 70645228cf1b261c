/**
 * $topN/$bottomN/$minN/$maxN with n near the largest long: every value is kept and the
 * buffer's trimming threshold (twice n) does not overflow (a fuzzer found 2 * n computed in
 * signed arithmetic).
 */
const coll = db[jsTestName()];
coll.drop();
const docs = [];
for (let i = 0; i < 40; i++)
    docs.push({_id: i, g: i % 2, x: (i * 17) % 40});
assert.commandWorked(coll.insertMany(docs));

const kHuge = NumberLong("9223372036854775807");
const res = coll.aggregate([
    {$group: {
        _id: "$g",
        top: {$topN: {n: kHuge, sortBy: {x: 1}, output: "$x"}},
        bottom: {$bottomN: {n: kHuge, sortBy: {x: 1}, output: "$x"}},
        min: {$minN: {n: kHuge, input: "$x"}},
        max: {$maxN: {n: kHuge, input: "$x"}},
    }},
    {$sort: {_id: 1}},
]).toArray();
assert.eq(2, res.length, tojson(res));
for (const r of res) {
    const xs = docs.filter(d => d.g === r._id).map(d => d.x).sort((a, b) => a - b);
    assert.eq(xs, r.top, tojson(r));
    assert.eq(xs, r.bottom, tojson(r));
    assert.eq(xs, r.min, tojson(r));
    assert.eq(xs.slice().reverse(), r.max, tojson(r));
}
