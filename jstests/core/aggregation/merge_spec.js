/**
 * $merge's specification is parsed by the IDL parser (idl/document_source_merge.idl): unknown
 * (40415), missing (40414) and mistyped (14) fields and a bad whenNotMatched mode (BadValue)
 * get the generic errors; `on`, `into` and `whenMatched` keep the stage's own codes.
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.insert({_id: 1, a: 1}));
const target = jsTestName() + "_target";

function merge(spec) {
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$merge: spec}], cursor: {}});
}
const cases = [
    [{into: target, extra: 1}, 40415],
    [{on: "_id"}, 40414],
    [{into: target, let: 5}, ErrorCodes.TypeMismatch],
    [{into: target, whenNotMatched: "nope"}, ErrorCodes.BadValue],
    [{into: target, whenNotMatched: 3}, ErrorCodes.TypeMismatch],
    [{into: target, whenMatched: 3}, ErrorCodes.TypeMismatch],
    [{into: target, whenMatched: "nope"}, ErrorCodes.BadValue],
    [{into: target, whenMatched: [5]}, ErrorCodes.TypeMismatch],
    [{into: target, on: []}, 51187],
    [{into: target, on: [1]}, 51134],
    [{into: target, on: 1}, 51186],
    [5, 51182],
];
for (const [spec, code] of cases)
    assert.commandFailedWithCode(merge(spec), code, tojson(spec));

// Null optional fields are absent; the modes given work.
assert.commandWorked(merge({into: target, let: null, whenMatched: "replace",
                            whenNotMatched: "insert"}));
assert.eq(db[target].find().toArray(), [{_id: 1, a: 1}]);
assert.commandWorked(merge({into: {db: db.getName(), coll: target}, whenMatched: [
    {$set: {b: "$$new.a"}}], whenNotMatched: "discard"}));
assert.eq(db[target].find().toArray(), [{_id: 1, a: 1, b: 1}]);
