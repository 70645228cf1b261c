/**
 * collMod {index: ...}: hidden, expireAfterSeconds (also converting an index to TTL),
 * prepareUnique then unique (duplicates reported as CannotConvertIndexToUnique with
 * violations), forceNonUnique, dryRun, by name or keyPattern, with upstream's reply fields
 * and error codes.
 */
const coll = db[jsTestName()];
const name = coll.getName();

function setUp() {
    coll.drop();
    assert.commandWorked(db.createCollection(name));
}

function spec(indexName) {
    return coll.getIndexes().find((ix) => ix.name === indexName);
}

function hideAndUnhide() {
    setUp();
    assert.commandWorked(coll.createIndex({a: 1}));
    let res = assert.commandWorked(db.runCommand({collMod: name, index: {name: "a_1", hidden: true}}));
    assert.eq(false, res.hidden_old);
    assert.eq(true, res.hidden_new);
    assert.eq(true, spec("a_1").hidden);
    // Hiding a hidden index is a no-op without reply fields.
    res = assert.commandWorked(db.runCommand({collMod: name, index: {name: "a_1", hidden: true}}));
    assert.eq(undefined, res.hidden_old);
    res = assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, hidden: false}}));
    assert.eq(true, res.hidden_old);
    assert.eq(false, res.hidden_new);
    assert.eq(undefined, spec("a_1").hidden);
    assert.commandFailedWithCode(db.runCommand({collMod: name, index: {name: "_id_", hidden: true}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({collMod: name, index: {name: "a_1", hidden: "yes"}}),
                                 ErrorCodes.TypeMismatch);
}

function ttl() {
    setUp();
    assert.commandWorked(coll.createIndex({t: 1}, {expireAfterSeconds: 50}));
    let res = assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {t: 1}, expireAfterSeconds: 100}}));
    assert.eq(50, res.expireAfterSeconds_old);
    assert.eq(100, res.expireAfterSeconds_new);
    assert.eq(100, spec("t_1").expireAfterSeconds);
    // A plain single-field index becomes a TTL index (no _old in the reply).
    assert.commandWorked(coll.createIndex({u: 1}));
    res = assert.commandWorked(
        db.runCommand({collMod: name, index: {name: "u_1", expireAfterSeconds: 10}}));
    assert.eq(undefined, res.expireAfterSeconds_old);
    assert.eq(10, res.expireAfterSeconds_new);
    assert.commandWorked(coll.createIndex({u: 1, v: 1}));
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {u: 1, v: 1}, expireAfterSeconds: 10}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {_id: 1}, expireAfterSeconds: 10}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {t: 1}, expireAfterSeconds: -1}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {t: 1}, expireAfterSeconds: "100"}}),
        ErrorCodes.TypeMismatch);
}

function requestShapes() {
    setUp();
    assert.commandWorked(coll.createIndex({a: 1}, {name: "A"}));
    assert.commandWorked(coll.createIndex({a: 1}, {name: "Afr", collation: {locale: "fr"}}));
    assert.commandFailedWithCode(db.runCommand({collMod: name, index: {}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: name, index: {name: "A"}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {name: "A", keyPattern: {a: 1}, hidden: true}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, hidden: true}}),
        ErrorCodes.AmbiguousIndexKeyPattern);
    assert.commandFailedWithCode(db.runCommand({collMod: name, index: {name: "nope", hidden: true}}),
                                 ErrorCodes.IndexNotFound);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {zz: 1}, hidden: true}}),
        ErrorCodes.IndexNotFound);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {name: "A", hidden: true, invalidOption: 1}}),
        ErrorCodes.IDLUnknownField);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {name: "A", unique: true, forceNonUnique: true}}),
        ErrorCodes.InvalidOptions);
}

function prepareUniqueThenUnique() {
    setUp();
    assert.commandWorked(coll.createIndex({a: 1}));
    assert.commandWorked(coll.insert([{_id: 1, a: 100}, {_id: 2, a: 100}, {_id: 3, a: 7}]));
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, unique: true}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, unique: false}}),
        ErrorCodes.BadValue);
    // prepareUnique may not be combined with anything else.
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, prepareUnique: true, hidden: true}}),
        ErrorCodes.InvalidOptions);
    let res = assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, prepareUnique: true}}));
    assert.eq(false, res.prepareUnique_old);
    assert.eq(true, res.prepareUnique_new);
    assert.eq(true, spec("a_1").prepareUnique);
    // New duplicates are refused; existing ones stay.
    assert.commandFailedWithCode(coll.insert({_id: 4, a: 7}), ErrorCodes.DuplicateKey);
    assert.commandFailedWithCode(coll.update({_id: 3}, {$set: {a: 100}}), ErrorCodes.DuplicateKey);
    assert.commandWorked(coll.insert({_id: 4, a: 8}));

    // dryRun: only unique conversion, reports the duplicates, changes nothing.
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, hidden: true}, dryRun: true}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, validationLevel: "off", dryRun: true}), ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand(
            {collMod: name, index: {keyPattern: {a: 1}, unique: true}, validationLevel: "off", dryRun: true}),
        ErrorCodes.InvalidOptions);
    res = db.runCommand({collMod: name, index: {keyPattern: {a: 1}, unique: true}, dryRun: true});
    assert.commandFailedWithCode(res, ErrorCodes.CannotConvertIndexToUnique);
    assert.docEq([{ids: [1, 2]}], res.violations);

    res = db.runCommand({collMod: name, index: {keyPattern: {a: 1}, unique: true}});
    assert.commandFailedWithCode(res, ErrorCodes.CannotConvertIndexToUnique);
    assert.docEq([{ids: [1, 2]}], res.violations);
    assert.eq(undefined, spec("a_1").unique);

    assert.commandWorked(coll.remove({_id: 2}));
    assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, unique: true}, dryRun: true}));
    assert.eq(undefined, spec("a_1").unique);
    res = assert.commandWorked(db.runCommand({collMod: name, index: {keyPattern: {a: 1}, unique: true}}));
    assert.eq(true, res.unique_new);
    assert.eq(true, spec("a_1").unique);
    assert.eq(undefined, spec("a_1").prepareUnique);
    assert.commandFailedWithCode(coll.insert({_id: 5, a: 100}), ErrorCodes.DuplicateKey);
    // The index still finds every document.
    assert.eq(1, coll.find({a: 100}).hint({a: 1}).itcount());
    assert.eq(3, coll.find({a: {$gte: 0}}).hint({a: 1}).itcount());

    // Back to non-unique.
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, forceNonUnique: false}}),
        ErrorCodes.BadValue);
    res = assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, forceNonUnique: true}}));
    assert.eq(true, res.forceNonUnique_new);
    assert.eq(undefined, spec("a_1").unique);
    assert.commandWorked(coll.insert({_id: 5, a: 100}));
    assert.eq(2, coll.find({a: 100}).hint({a: 1}).itcount());
}

function violationsGroupsAndCompoundKeys() {
    setUp();
    assert.commandWorked(coll.createIndex({a: 1, b: 1}));
    assert.commandWorked(coll.insert([
        {_id: 1, a: 1, b: 1}, {_id: 2, a: 1, b: 1}, {_id: 3, a: 1, b: 2}, {_id: 4, a: 2, b: 2},
        {_id: "5", a: 2, b: 2}, {_id: 6, a: 2, b: 2}
    ]));
    assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1, b: 1}, prepareUnique: true}}));
    const res = db.runCommand({collMod: name, index: {keyPattern: {a: 1, b: 1}, unique: true}});
    assert.commandFailedWithCode(res, ErrorCodes.CannotConvertIndexToUnique);
    const groups = res.violations.map((g) => g.ids.map((id) => String(id)).sort());
    groups.sort();
    assert.eq([["1", "2"], ["4", "5", "6"]], groups);
}

function prepareUniqueOnUniqueIndexIsANoOp() {
    setUp();
    assert.commandWorked(coll.createIndex({a: 1}, {unique: true}));
    const res = assert.commandWorked(
        db.runCommand({collMod: name, index: {keyPattern: {a: 1}, prepareUnique: true}}));
    assert.eq(undefined, res.prepareUnique_new);
    assert.eq(undefined, spec("a_1").prepareUnique);
    assert.commandFailedWithCode(coll.createIndex({b: 1}, {unique: true, prepareUnique: true}),
                                 ErrorCodes.CannotCreateIndex);
}

runScenarios(hideAndUnhide, ttl, requestShapes, prepareUniqueThenUnique,
             violationsGroupsAndCompoundKeys, prepareUniqueOnUniqueIndexIsANoOp);
