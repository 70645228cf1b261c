// $group with a literal-object _id: a one-field _id groups a missing value with null (as
// upstream, SERVER-21992); with several fields a missing value stays missing. {$expr: e} in an
// aggregation expression is e.
const coll = db.group_id_object_missing;
coll.drop();
assert.commandWorked(coll.insertMany([{_id: 1, a: null}, {_id: 2}]));
let res = coll.aggregate([{$group: {_id: {a: "$a"}}}]).toArray();
assert.eq(1, res.length, tojson(res));
assert.docEq({_id: {a: null}}, res[0]);

coll.drop();
assert.commandWorked(coll.insertMany([{_id: 1, a: null, b: 1}, {_id: 2, b: 1}]));
res = coll.aggregate([{$group: {_id: {a: "$a", b: "$b"}}}, {$sort: {"_id.a": 1}}]).toArray();
assert.eq(2, res.length, tojson(res));
assert.sameMembers([{_id: {b: 1}}, {_id: {a: null, b: 1}}], res);

res = coll.aggregate([{$group: {_id: {$expr: {$const: {}}}}}]).toArray();
assert.eq([{_id: {}}], res);
res = coll.aggregate([{$project: {_id: 0, v: {$expr: {$add: [1, 2]}}}}, {$limit: 1}]).toArray();
assert.eq([{v: 3}], res);
