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

// Targets that are never written: internal databases (31321 for $out, 31320 for $merge) and
// system collections (17385 / 31319), in either form.
const merge = (spec) =>
    db.runCommand({aggregate: coll.getName(), pipeline: [{$merge: spec}], cursor: {}});
for (const internalDb of ["admin", "config", "local"]) {
    assert.commandFailedWithCode(out({db: internalDb, coll: target}), 31321);
    assert.commandFailedWithCode(merge({into: {db: internalDb, coll: target}}), 31320);
}
assert.commandFailedWithCode(out("system.out_spec"), 17385);
assert.commandFailedWithCode(out({db: db.getName(), coll: "system.out_spec"}), 17385);
assert.commandFailedWithCode(merge("system.out_spec"), 31319);
assert.commandFailedWithCode(merge({into: {db: db.getName(), coll: "system.out_spec"}}), 31319);
assert(!db.getCollectionNames().includes("system.out_spec"));
