// $jsonSchema: the length and count keywords take non-negative integers, uniqueItems a bool;
// a validator sees a replacement that leaves the document as it was (upstream replaces it).
const coll = db.json_schema_keyword_values;
coll.drop();
assert.commandWorked(coll.insert({_id: 0, a: [1]}));
for (const kw of ["minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"]) {
    for (const bad of ["blah", -1, 12.5])
        assert.throws(() => coll.find({$jsonSchema: {[kw]: bad}}).itcount(), [], kw + ": " + tojson(bad));
    assert.eq(kw === "maxProperties" ? 0 : 1, coll.find({$jsonSchema: {[kw]: 0}}).itcount(), kw);
    assert.eq(1, coll.find({$jsonSchema: {[kw]: NumberLong(kw.startsWith("min") ? 1 : 5)}}).itcount(), kw);
}
for (const bad of [1, 1.0, "true"])
    assert.throws(() => coll.find({$jsonSchema: {uniqueItems: bad}}).itcount(), [], tojson(bad));
assert.eq(1, coll.find({$jsonSchema: {properties: {a: {uniqueItems: true}}}}).itcount());

// Replacing {_id: 0} by {} is a write (nModified 1) that the validator checks.
coll.drop();
assert.commandWorked(coll.insert({_id: 0}));
let res = assert.commandWorked(db.runCommand({update: coll.getName(), updates: [{q: {_id: 0}, u: {}}]}));
assert.eq(1, res.nModified, tojson(res));
assert.commandWorked(db.runCommand({collMod: coll.getName(), validator: {$jsonSchema: {maxProperties: 0}}}));
res = db.runCommand({update: coll.getName(), updates: [{q: {_id: 0}, u: {}}]});
assert.eq(ErrorCodes.DocumentValidationFailure, res.writeErrors[0].code, tojson(res));
// Replacing a document by itself is still a no-op.
assert.commandWorked(db.runCommand({collMod: coll.getName(), validator: {}}));
res = assert.commandWorked(db.runCommand({update: coll.getName(), updates: [{q: {_id: 0}, u: {_id: 0}}]}));
assert.eq(0, res.nModified, tojson(res));

// create takes an option given as null as not given.
db.json_schema_keyword_values_null.drop();
assert.commandWorked(db.runCommand({create: "json_schema_keyword_values_null", collation: null, validator: null}));
db.json_schema_keyword_values_null.drop();
assert.commandWorked(db.runCommand({create: "json_schema_keyword_values_null", timeseries: {timeField: "t"}, collation: null}));
db.json_schema_keyword_values_null.drop();
