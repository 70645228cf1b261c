/**
 * Update rules as upstream applies them:
 *   - array index parts are applied in numeric order ("a.9" before "a.10"), so $bit on two
 *     elements past the end pads the array and creates both from 0;
 *   - $pop on a path blocked by a scalar or by an array met with a field name fails (28);
 *   - $id/$ref/$db below the top level are DBRef fields an update may set, as long as the
 *     object stays a DBRef (55 otherwise); other $-prefixed parts stay refused (52);
 *   - an upsert may not change the _id its query's equalities give (66);
 *   - $mod matches no dividend whose truncation is outside int64.
 */
const coll = db[jsTestName()];

coll.drop();
assert.commandWorked(coll.insert({_id: 2, a: [0]}));
assert.commandWorked(coll.update({_id: 2}, {$bit: {"a.10": {or: NumberInt(1)}, "a.9": {or: NumberInt(2)}}}));
assert.eq([0, null, null, null, null, null, null, null, null, 2, 1], coll.findOne({_id: 2}).a);
assert.commandWorked(coll.update({_id: 2}, {$set: {"a.12": "x", "a.11": "y"}}));
assert.eq(["y", "x"], coll.findOne({_id: 2}).a.slice(11));

coll.drop();
assert.commandWorked(coll.insert({_id: 0, a: {b: 1}}));
assert.writeErrorWithCode(coll.update({_id: 0}, {$pop: {"a.b.c": 1}}), ErrorCodes.PathNotViable);
assert.commandWorked(coll.update({_id: 0}, {$set: {a: {b: [1, 2]}}}));
assert.writeErrorWithCode(coll.update({_id: 0}, {$pop: {"a.b.c": 1}}), ErrorCodes.PathNotViable);
// Missing paths stay no-ops; $unset of a blocked path too.
let res = assert.commandWorked(coll.update({_id: 0}, {$pop: {"x.y": 1}}));
assert.eq(0, res.nModified);
res = assert.commandWorked(coll.update({_id: 0}, {$unset: {"a.b.c": 1}}));
assert.eq(0, res.nModified);

coll.drop();
assert.commandWorked(coll.insert({_id: 1, a: {$ref: "a", $id: "b"}, p: {x: 1}}));
assert.commandWorked(coll.update({}, {$set: {"a.$id": 2}}));
assert.commandWorked(coll.update({}, {$set: {"a.$ref": "b", "a.$db": "d"}}));
assert.eq('DBRef("b", 2, "d")', tojson(coll.findOne().a));
assert.writeErrorWithCode(coll.update({}, {$set: {"a.$ref": 5}}), ErrorCodes.InvalidDBRef);
assert.writeErrorWithCode(coll.update({}, {$unset: {"a.$id": 1}}), ErrorCodes.InvalidDBRef);
assert.writeErrorWithCode(coll.update({}, {$set: {"p.$id": 1}}), ErrorCodes.InvalidDBRef);
assert.writeErrorWithCode(coll.update({}, {$set: {"a.$foo": 1}}), ErrorCodes.DollarPrefixedFieldName);
assert.writeErrorWithCode(coll.update({}, {$set: {"$id": 3}}), ErrorCodes.DollarPrefixedFieldName);
assert.eq('DBRef("b", 2, "d")', tojson(coll.findOne().a));

coll.drop();
assert.writeErrorWithCode(coll.update({"_id.a": 4}, {$setOnInsert: {"_id.b": 1}}, {upsert: true}),
                          ErrorCodes.ImmutableField);
assert.writeErrorWithCode(coll.update({_id: 5}, {$set: {_id: 6}}, {upsert: true}), ErrorCodes.ImmutableField);
assert.eq(0, coll.find().itcount());
assert.commandWorked(coll.update({_id: 5}, {$set: {_id: 5, x: 1}}, {upsert: true}));
assert.commandWorked(coll.update({"_id.a": 4}, {$setOnInsert: {y: 1}}, {upsert: true}));
assert.eq(2, coll.find().itcount());

coll.drop();
assert.commandWorked(coll.insert([
    {_id: 1, v: -1e19},
    {_id: 2, v: NumberDecimal("1e19")},
    {_id: 3, v: 9.2e18},
    {_id: 4, v: 14.5},
    {_id: 5, v: Infinity},
]));
assert.eq([3, 4], coll.find({v: {$mod: [2, 0]}}, {_id: 1}).sort({_id: 1}).toArray().map(d => d._id));
assert.eq([4], coll.find({v: {$mod: [10, 4]}}, {_id: 1}).toArray().map(d => d._id));
