// $top/$bottom/$topN/$bottomN in a $group over a time-series collection order by their
// sortBy fields, which must be unpacked even when nothing else reads them (they were pruned:
// every measurement tied and the first one won).
const coll = db.ts_group_top_sortby_fields;
coll.drop();
assert.commandWorked(
    db.createCollection(coll.getName(), {timeseries: {timeField: "time", metaField: "meta"}}));
const docs = [];
for (let m = 0; m < 3; m++) {
    for (let d = 0; d < 4; d++) {
        docs.push({_id: m * 10 + d, time: new Date(1000 + d * 500 + m), meta: m, x: m == 2 ? -100 - d : m * 10 + d});
    }
}
assert.commandWorked(coll.insert(docs));
const cases = [
    [{$topN: {n: 1, sortBy: {x: 1}, output: "$_id"}}, [23]],
    [{$top: {sortBy: {x: 1}, output: "$_id"}}, 23],
    [{$bottom: {sortBy: {x: 1}, output: "$_id"}}, 13],
    [{$bottomN: {n: 2, sortBy: {x: -1}, output: "$_id"}}, [22, 23]],
];
for (const [acc, expected] of cases) {
    const res = coll.aggregate([{$group: {_id: null, acc}}]).toArray();
    assert.eq([{_id: null, acc: expected}], res, tojson(acc));
}
