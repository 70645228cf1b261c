/**
 * {$skip: s}, {$limit: l} optimise to {$limit: s + l}, {$skip: s} (the limit moves towards the
 * source: into a $sort, the find layer or the bucket unpacking), and explain prints a $sort as
 * {$sort: {sortKey, limit?}}. Results are those of the pipeline as written.
 */
const coll = db[jsTestName()];
coll.drop();
const docs = [];
for (let i = 0; i < 20; ++i)
    docs.push({_id: i, a: (i * 7) % 20, b: i % 3});
assert.commandWorked(coll.insertMany(docs));

const stages = (pipeline) =>
    coll.explain("queryPlanner").aggregate([{$_internalInhibitOptimization: {}}, ...pipeline])
        .stages.slice(2);
const ids = (pipeline) => coll.aggregate(pipeline).toArray().map(d => d._id);

let s = stages([{$skip: 3}, {$limit: 4}]);
assert.eq(s, [{$limit: NumberLong(7)}, {$skip: NumberLong(3)}], s);
s = stages([{$sort: {a: 1}}, {$skip: 3}, {$limit: 4}]);
assert.eq(s, [{$sort: {sortKey: {a: 1}, limit: NumberLong(7)}}, {$skip: NumberLong(3)}], s);
s = stages([{$sort: {a: -1}}]);
assert.eq(s, [{$sort: {sortKey: {a: -1}}}], s);
s = stages([{$skip: 1}, {$limit: 4}, {$skip: 2}]);
assert.eq(s, [{$limit: NumberLong(5)}, {$skip: NumberLong(3)}], s);

const expected = docs.slice().sort((x, y) => x.a - y.a).map(d => d._id);
assert.eq(ids([{$sort: {a: 1}}, {$skip: 3}, {$limit: 4}]), expected.slice(3, 7));
assert.eq(ids([{$sort: {a: 1}}, {$skip: 1}, {$limit: 4}, {$skip: 2}]), expected.slice(3, 5));
assert.eq(ids([{$sort: {a: 1}}, {$skip: 25}, {$limit: 4}]), []);
assert.eq(ids([{$sort: {a: 1}}, {$skip: 18}, {$limit: 4}]), expected.slice(18));
assert.eq(ids([{$match: {b: 1}}, {$sort: {_id: 1}}, {$skip: 2}, {$limit: 2}]), [7, 10]);
// In the find layer (no inhibiting stage) the answers are the same.
assert.eq(coll.aggregate([{$sort: {a: 1}}, {$skip: 3}, {$limit: 4}]).toArray().map(d => d._id),
          expected.slice(3, 7));
assert.eq(coll.aggregate([{$skip: 5}, {$limit: 3}]).itcount(), 3);
// A huge skip plus limit that would overflow is left as written.
assert.eq(ids([{$skip: NumberLong("9223372036854775807")}, {$limit: 2}]), []);
