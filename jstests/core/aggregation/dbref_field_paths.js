// The field names of a DBRef ($ref, $id, $db) are the '$'-prefixed names a field path may hold:
// in expressions, $group keys, $lookup's localField, sorts and projections (find and $project).
// Any other '$'-prefixed component is still refused (16410).
const coll = db.dbref_field_paths;
const other = db.dbref_field_paths_other;
coll.drop();
other.drop();
assert.commandWorked(other.insert([{_id: "k0", v: 10}, {_id: "k1", v: 20}]));
assert.commandWorked(coll.insert([
    {_id: 1, ref: {$ref: other.getName(), $id: "k1", $db: db.getName()}},
    {_id: 2, ref: {$ref: other.getName(), $id: "k0", $db: db.getName()}},
]));

assert.eq([{_id: 1, id: "k1"}, {_id: 2, id: "k0"}],
          coll.aggregate([{$project: {id: "$ref.$id"}}, {$sort: {_id: 1}}]).toArray());
assert.eq([{_id: 1, n: 2}], coll.aggregate([{$group: {_id: 1, n: {$sum: {$strLenCP: "$ref.$id"}}}}, {$project: {_id: 1, n: {$divide: ["$n", 2]}}}]).toArray());
assert.eq([{_id: db.getName(), c: 2}], coll.aggregate([{$group: {_id: "$ref.$db", c: {$sum: 1}}}]).toArray());
assert.eq([2, 1], coll.find().sort({"ref.$id": 1}).toArray().map((d) => d._id));
const joined = coll.aggregate([
    {$lookup: {from: other.getName(), localField: "ref.$id", foreignField: "_id", as: "j"}},
    {$sort: {_id: 1}}, {$project: {v: "$j.v"}}]).toArray();
assert.eq([{_id: 1, v: [20]}, {_id: 2, v: [10]}], joined);
// Projections: excluding one DBRef field keeps the others, in find and in $project.
const expected = [{_id: 1, ref: {$id: "k1", $db: db.getName()}}, {_id: 2, ref: {$id: "k0", $db: db.getName()}}];
assert.eq(expected, coll.find({}, {ref: {$ref: 0}}).sort({_id: 1}).toArray());
assert.eq(expected, coll.aggregate([{$project: {ref: {$ref: 0}}}, {$sort: {_id: 1}}]).toArray());

assert.commandFailedWithCode(db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {x: "$ref.$foo"}}], cursor: {}}),
                             16410);
assert.commandFailedWithCode(db.runCommand({find: coll.getName(), sort: {"ref.$foo": 1}}), 16410);
