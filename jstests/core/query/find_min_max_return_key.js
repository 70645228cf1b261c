/**
 * find's min / max (the hinted index from min, inclusive, to max, exclusive, in the index's
 * order) and returnKey (each result is its index key; {} for a collection scan), with
 * upstream's errors: 51173 (no hint), 51174 (hint not matching), 51175 (min not before max),
 * 51176 (min and max over other fields), NoQueryExecutionPlans ($natural hint).
 */
const coll = db[jsTestName()];

function setUp(keyPattern) {
    coll.drop();
    assert.commandWorked(coll.insertMany([{_id: 0, a: 1, b: 1}, {_id: 1, a: 1, b: 2}, {_id: 2, a: 2, b: 1}, {_id: 3, a: 2, b: 2}]));
    assert.commandWorked(coll.createIndex(keyPattern));
}

function ids(cursor) {
    return cursor.toArray().map(d => d._id);
}

function ascendingCompound() {
    setUp({a: 1, b: 1});
    const h = {a: 1, b: 1};
    assert.eq([1], ids(coll.find().hint(h).min({a: 1, b: 2}).max({a: 2, b: 1})));
    assert.eq([1, 2], ids(coll.find().hint(h).min({a: 1, b: 2}).max({a: 2, b: 1.5})));
    assert.eq([1, 2, 3], ids(coll.find().hint(h).min({a: 1, b: 2})));
    assert.eq([0, 1, 2], ids(coll.find().hint(h).max({a: 2, b: 1.5})));
    // The filter still applies; a sort the index gives reads it backwards.
    assert.eq([2], ids(coll.find({b: 1}).hint(h).min({a: 1, b: 2})));
    assert.eq([3, 2, 1], ids(coll.find().hint(h).min({a: 1, b: 2}).sort({a: -1, b: -1})));
}

function descendingKeyField() {
    setUp({a: 1, b: -1});
    const h = {a: 1, b: -1};
    assert.eq(4, coll.find().hint(h).min({a: 1, b: 2}).itcount());
    assert.eq(1, coll.find().hint(h).min({a: 2, b: 1}).itcount());
    assert.eq(1, coll.find().hint(h).max({a: 1, b: 1.5}).itcount());
}

function errors() {
    setUp({a: 1, b: 1});
    const find = (extra) => db.runCommand(Object.assign({find: coll.getName()}, extra));
    assert.commandFailedWithCode(find({min: {a: 1, b: 2}}), 51173);
    assert.commandFailedWithCode(find({min: {a: 1}, hint: {a: 1, b: 1}}), 51174);
    assert.commandFailedWithCode(find({min: {b: 1, a: 1}, hint: {a: 1, b: 1}}), 51174);
    assert.commandFailedWithCode(find({min: {a: 1, b: 1}, max: {a: 1}, hint: {a: 1, b: 1}}), 51176);
    assert.commandFailedWithCode(find({min: {a: 2, b: 1}, max: {a: 2, b: 1}, hint: {a: 1, b: 1}}), 51175);
    assert.commandFailedWithCode(find({min: {a: 3, b: 1}, max: {a: 2, b: 1}, hint: {a: 1, b: 1}}), 51175);
    assert.commandFailedWithCode(find({min: {a: 1}, hint: {$natural: 1}}), ErrorCodes.NoQueryExecutionPlans);
    assert.commandWorked(coll.createIndex({"$**": 1}));
    assert.commandFailedWithCode(find({min: {a: 1}, hint: {"$**": 1}}), 51174);
}

function returnKey() {
    setUp({a: 1, b: -1});
    assert.eq([{a: 1, b: 2}, {a: 1, b: 1}],
              coll.find({a: 1}).hint({a: 1, b: -1}).returnKey(true).toArray());
    assert.eq([{}, {}], coll.find({a: 2}).hint({$natural: 1}).returnKey(true).toArray());
    // The projection gives way to the key.
    assert.eq([{a: 2, b: 2}], coll.find({a: 2, b: 2}, {_id: 1}).hint({a: 1, b: -1}).returnKey(true).toArray());
}

function viewsRefuseThem() {
    const view = db[jsTestName() + "_view"];
    view.drop();
    assert.commandWorked(db.createView(view.getName(), coll.getName(), []));
    for (const opt of [{min: {a: 1}}, {max: {a: 1}}, {returnKey: true}])
        assert.commandFailedWithCode(db.runCommand(Object.assign({find: view.getName(), hint: {a: 1}}, opt)),
                                     ErrorCodes.InvalidPipelineOperator, tojson(opt));
}

runScenarios(ascendingCompound, descendingKeyField, errors, returnKey, viewsRefuseThem);

// returnKey gives the key the scan found the record at: a multikey document has several, and
// min() chooses where the scan starts.
const mk = db.find_return_key_multikey;
mk.drop();
assert.commandWorked(mk.createIndex({"a.b": 1}));
assert.commandWorked(mk.insert({_id: 0, a: [{b: 5}, {c: 1}]}));  // keys {a.b: null}, {a.b: 5}
assert.eq([{"a.b": null}], mk.find({_id: 0}).hint({"a.b": 1}).min({"a.b": null}).returnKey(true).toArray());
assert.eq([{"a.b": 5}], mk.find({_id: 0}).hint({"a.b": 1}).min({"a.b": 1}).returnKey(true).toArray());
assert.eq([{"a.b": 5}], mk.find({"a.b": 5}).hint({"a.b": 1}).returnKey(true).toArray());
