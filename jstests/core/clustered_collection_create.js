/**
 * create with clusteredIndex (regular collections): {key: {_id: 1}, unique: true, name?},
 * upstream's errors, expireAfterSeconds only with clusteredIndex, listCollections (stored
 * clusteredIndex spec, no idIndex) and listIndexes (clustered: true), collMod
 * expireAfterSeconds on clustered collections only.
 */
const name = jsTestName();
const coll = db[name];

function info() {
    return db.getCollectionInfos({name: name})[0];
}

function createsAndLists() {
    coll.drop();
    assert.commandWorked(db.createCollection(name, {clusteredIndex: {key: {_id: 1}, unique: true}}));
    const i = info();
    assert.docEq({v: 2, key: {_id: 1}, name: "_id_", unique: true}, i.options.clusteredIndex);
    assert.eq(undefined, i.idIndex, tojson(i));
    assert(i.info.uuid, tojson(i));
    const idx = coll.getIndexes();
    assert.eq(1, idx.length, tojson(idx));
    assert.docEq({v: 2, key: {_id: 1}, name: "_id_", unique: true, clustered: true}, idx[0]);
    assert.commandWorked(coll.insert([{_id: 2}, {_id: 1}]));
    assert.commandFailedWithCode(coll.insert({_id: 1}), ErrorCodes.DuplicateKey);
    assert.eq([{_id: 1}, {_id: 2}], coll.find().sort({_id: 1}).toArray());
    // Same options again: a no-op; other options: NamespaceExists.
    assert.commandWorked(db.createCollection(name, {clusteredIndex: {key: {_id: 1}, unique: true}}));
    assert.commandFailedWithCode(db.runCommand({create: name}), ErrorCodes.NamespaceExists);
}

function namedWithTTL() {
    coll.drop();
    assert.commandWorked(db.createCollection(
        name, {clusteredIndex: {key: {_id: 1}, unique: true, name: "byId"}, expireAfterSeconds: 60}));
    const i = info();
    assert.eq("byId", i.options.clusteredIndex.name);
    assert.eq(NumberLong(60), i.options.expireAfterSeconds);
    assert.eq("byId", coll.getIndexes()[0].name);
    // The clustered index cannot be hidden.
    assert.commandFailedWithCode(db.runCommand({collMod: name, index: {name: "byId", hidden: true}}),
                                 6011800);
    assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: 120}));
    assert.eq(NumberLong(120), info().options.expireAfterSeconds);
    assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: "off"}));
    assert.eq(undefined, info().options.expireAfterSeconds);
    assert.commandFailedWithCode(db.runCommand({collMod: name, expireAfterSeconds: "on"}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: name, expireAfterSeconds: -1}),
                                 ErrorCodes.InvalidOptions);
}

function errors() {
    coll.drop();
    const bad = (opts, code) =>
        assert.commandFailedWithCode(db.runCommand(Object.assign({create: name}, opts)), code);
    bad({clusteredIndex: {key: {_id: 1}, unique: false}}, 5979700);
    bad({clusteredIndex: {key: {a: 1}, unique: true}}, ErrorCodes.InvalidIndexSpecificationOption);
    bad({clusteredIndex: {key: {_id: 1}, unique: true, v: 1}}, 5979704);
    bad({clusteredIndex: {key: {_id: 1}}}, ErrorCodes.IDLFailedToParse);
    bad({clusteredIndex: {key: {_id: 1}, unique: true, other: 1}}, ErrorCodes.IDLUnknownField);
    bad({clusteredIndex: "a"}, ErrorCodes.TypeMismatch);
    bad({clusteredIndex: true}, ErrorCodes.InvalidOptions);
    bad({expireAfterSeconds: 10}, ErrorCodes.InvalidOptions);
    bad({clusteredIndex: {key: {_id: 1}, unique: true}, capped: true, size: 4096}, ErrorCodes.InvalidOptions);
    bad({clusteredIndex: {key: {_id: 1}, unique: true}, expireAfterSeconds: -5}, ErrorCodes.InvalidOptions);
    bad({clusteredIndex: {key: {_id: 1}, unique: true}, expireAfterSeconds: "x"}, ErrorCodes.TypeMismatch);
    bad({clusteredIndex: {key: {_id: 1}, unique: true}, idIndex: {key: {_id: 1}, name: "_id_"}},
        ErrorCodes.InvalidOptions);
    assert.eq(undefined, info());
    // clusteredIndex: false is an ordinary collection.
    assert.commandWorked(db.createCollection(name, {clusteredIndex: false}));
    assert.eq(undefined, info().options.clusteredIndex);
    assert(info().idIndex);
}

runScenarios(createsAndLists, namedWithTTL, errors);
