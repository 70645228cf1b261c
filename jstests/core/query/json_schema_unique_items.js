// $jsonSchema uniqueItems: items are equal as JSON Schema compares them: objects without regard
// to the order of their fields (at any depth), arrays in order, numbers by value. A long array
// is checked by sorting its items, not by comparing every pair.
const coll = db.json_schema_unique_items;
coll.drop();
const schema = {$jsonSchema: {properties: {a: {uniqueItems: true}}}};
const docs = [
    {_id: "empty", a: [], unique: true},
    {_id: "scalars", a: [1, "1", null, {}, []], unique: true},
    {_id: "case", a: ["foo", "FOO"], unique: true},
    {_id: "arrayOrder", a: [[1, 2], [2, 1]], unique: true},
    {_id: "numbers", a: [NumberLong(1), NumberInt(1)], unique: false},
    {_id: "double", a: [2.5, 1, 2.5], unique: false},
    {_id: "nulls", a: [null, null], unique: false},
    {_id: "fieldOrder", a: [{x: 1, y: 1}, {y: 1, x: 1}], unique: false},
    {_id: "nestedOrder", a: [{p: {x: [1, {m: 1, n: 2}], y: "a"}}, {p: {y: "a", x: [1, {n: 2, m: 1}]}}],
     unique: false},
    {_id: "nestedArrayOrder", a: [{x: [1, 2]}, {x: [2, 1]}], unique: true},
    {_id: "differentValues", a: [{x: 1, y: 1}, {y: 2, x: 1}], unique: true},
    {_id: "notArray", a: {foo: [1, 1]}, unique: true},
];
const long = [];
for (let i = 0; i < 20000; i++)
    long.push({k: i % 2 ? "odd" : "even", i: i});
docs.push({_id: "longUnique", a: long, unique: true});
docs.push({_id: "longDuplicate", a: long.concat([{i: 7, k: "odd"}]), unique: false});
assert.commandWorked(coll.insert(docs));
const matched = coll.find(schema, {_id: 1}).toArray().map((d) => d._id).sort();
const expected = docs.filter((d) => d.unique).map((d) => d._id).sort();
assert.eq(expected, matched);
// As a validator: a duplicate (up to field order) is refused.
assert.commandWorked(db.runCommand({collMod: coll.getName(), validator: schema, validationAction: "error"}));
assert.commandFailedWithCode(coll.insert({a: [{x: 1, y: 2}, {y: 2, x: 1}]}),
                             ErrorCodes.DocumentValidationFailure);
assert.commandWorked(coll.insert({a: [{x: 1, y: 2}, {y: 1, x: 2}]}));

// enum compares the same way: an object listed in enum matches with its fields in any order.
coll.drop();
assert.commandWorked(coll.insert([{_id: 1, a: {y: 2, x: 1}}, {_id: 2, a: {x: 1, y: 3}}, {_id: 3, a: [{q: 1, p: 2}]}]));
assert.eq([{_id: 1}], coll.find({$jsonSchema: {properties: {a: {enum: [{x: 1, y: 2}]}}}}, {_id: 1}).toArray());
assert.eq([{_id: 3}], coll.find({$jsonSchema: {properties: {a: {enum: [[{p: 2, q: 1}]]}}}}, {_id: 1}).toArray());
assert.eq(0, coll.find({$jsonSchema: {properties: {a: {enum: [{x: 1}]}}}}).itcount());
