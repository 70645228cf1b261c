/**
 * Index collations: createIndexes validates and normalises `collation`, an index without
 * one inherits the collection default, {locale: "simple"} opts out, the same key pattern
 * may be indexed under several collations (with distinct names), and keys follow the
 * collation (a strength-2 unique index treats "foo" and "FOO" as duplicates).
 */
const coll = db[jsTestName()];
const en2 = {locale: "en", strength: 2};

function setUp() {
    coll.drop();
}

/** createIndexes through runCommand (the shell helper throws instead of returning errors). */
function createIndex(key, options) {
    const spec = Object.assign({key: key}, options || {});
    if (!spec.name) {
        spec.name = Object.keys(key).map((k) => k + "_" + key[k]).join("_");
    }
    return db.runCommand({createIndexes: coll.getName(), indexes: [spec]});
}

function insert(docs) {
    return db.runCommand({insert: coll.getName(), documents: [].concat(docs)});
}

function dropIndex(index) {
    return db.runCommand({dropIndexes: coll.getName(), index: index});
}

function spec(name) {
    return coll.getIndexes().find((ix) => ix.name === name);
}

function createIndexesStoresTheFullCollation() {
    assert.commandWorked(createIndex({a: 1}, {collation: en2}));
    const c = spec("a_1").collation;
    assert.eq("en", c.locale);
    assert.eq(2, c.strength);
    assert(c.hasOwnProperty("version"), tojson(c));
    assert(!spec("_id_").hasOwnProperty("collation"));
}

function indexesInheritTheCollectionDefault() {
    assert.commandWorked(db.runCommand({create: coll.getName(), collation: en2}));
    assert.commandWorked(createIndex({a: 1}));
    assert.eq("en", spec("a_1").collation.locale);
    assert.eq("en", spec("_id_").collation.locale);
    assert.commandWorked(createIndex({b: 1}, {collation: {locale: "simple"}}));
    assert(!spec("b_1").hasOwnProperty("collation"), tojson(spec("b_1")));
}

function sameKeyUnderAnotherCollationNeedsAnotherName() {
    assert.commandWorked(createIndex({a: 1}));
    assert.commandFailedWithCode(createIndex({a: 1}, {collation: en2}),
                                 ErrorCodes.IndexKeySpecsConflict);
    assert.commandWorked(createIndex({a: 1}, {name: "a_en", collation: en2}));
    assert.eq(3, coll.getIndexes().length);
    // Re-creating the collated one is a no-op.
    const res = assert.commandWorked(createIndex({a: 1}, {name: "a_en", collation: en2}));
    assert.eq("all indexes already exist", res.note);
    assert.commandFailedWithCode(dropIndex({a: 1}), ErrorCodes.AmbiguousIndexKeyPattern);
    assert.commandWorked(dropIndex("a_en"));
    assert.commandWorked(dropIndex({a: 1}));
}

function badIndexCollationsAreRefused() {
    assert.commandFailedWithCode(createIndex({a: 1}, {collation: "en"}),
                                 ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(createIndex({a: 1}, {collation: {}}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(createIndex({a: 1}, {collation: {locale: "xx_bogus"}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(createIndex({a: 1}, {collation: {locale: "en", foo: 1}}),
                                 ErrorCodes.FailedToParse);
}

function uniqueIndexFollowsTheCollation() {
    assert.commandWorked(createIndex({u: 1}, {unique: true, collation: en2}));
    assert.commandWorked(insert({_id: 1, u: "foo"}));
    assert.commandFailedWithCode(insert({_id: 2, u: "FOO"}), ErrorCodes.DuplicateKey);
    assert.commandFailedWithCode(insert({_id: 3, u: ["x", "Foo"]}), ErrorCodes.DuplicateKey);
    assert.commandWorked(insert({_id: 4, u: "foo2"}));
    assert.commandWorked(db.runCommand(
        {update: coll.getName(), updates: [{q: {_id: 1}, u: {$set: {u: "bar"}}}]}));
    assert.commandWorked(insert({_id: 5, u: "FOO"}));
}

function idIndexUsesTheCollectionCollation() {
    assert.commandWorked(db.runCommand({create: coll.getName(), collation: en2}));
    assert.commandWorked(insert({_id: "abc"}));
    assert.commandFailedWithCode(insert({_id: "ABC"}), ErrorCodes.DuplicateKey);
}

function indexBuildOnExistingDataUsesTheCollation() {
    assert.commandWorked(insert([{_id: 1, k: "x"}, {_id: 2, k: "X"}]));
    assert.commandFailedWithCode(createIndex({k: 1}, {unique: true, collation: en2}),
                                 ErrorCodes.DuplicateKey);
    assert.commandWorked(createIndex({k: 1}, {unique: true}));
}

for (const t of [createIndexesStoresTheFullCollation, indexesInheritTheCollectionDefault,
                 sameKeyUnderAnotherCollationNeedsAnotherName, badIndexCollationsAreRefused,
                 uniqueIndexFollowsTheCollation, idIndexUsesTheCollectionCollation,
                 indexBuildOnExistingDataUsesTheCollation]) {
    setUp();
    t();
}
