/**
 * $out's object form is parsed by the IDL parser (idl/document_source_out.idl): db and coll are
 * required strings and unknown fields are refused (`timeseries`: timeseries_out.js).
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.insert({_id: 1}));
const target = jsTestName() + "_target";
const out = (spec) =>
    db.runCommand({aggregate: coll.getName(), pipeline: [{$out: spec}], cursor: {}});

assert.commandFailedWithCode(out({coll: target}), 40414);
assert.commandFailedWithCode(out({db: db.getName()}), 40414);
assert.commandFailedWithCode(out({db: db.getName(), coll: target, extra: 1}), 40415);
assert.commandFailedWithCode(out({db: db.getName(), coll: 5}), ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(out({db: "", coll: target}), ErrorCodes.InvalidNamespace);
assert.eq(db[target].find().itcount(), 0);
assert.commandWorked(out({db: db.getName(), coll: target}));
assert.eq(db[target].find().toArray(), [{_id: 1}]);
