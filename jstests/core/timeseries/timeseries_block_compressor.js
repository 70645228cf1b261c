/**
 * Block compressor of the tables (upstream 8.0): time-series buckets are created with zstd
 * whatever the engine default is, regular collections keep the default (snappy), and a
 * storageEngine.wiredTiger.configString given to create wins for both. collStats reports the
 * table's creation config as wiredTiger.creationString. Malformed storageEngine options fail
 * with upstream's codes.
 */
const name = jsTestName();

function creationString(coll) {
    const stats = assert.commandWorked(db.runCommand({collStats: coll}));
    assert.eq("string", typeof stats.wiredTiger.creationString, tojson(stats.wiredTiger));
    return stats.wiredTiger.creationString;
}

function bucketsUseZstdAndRegularCollectionsTheDefault() {
    db[name].drop();
    db.plain.drop();
    assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(db.createCollection("plain"));
    assert.commandWorked(db[name].insert({t: new Date(), m: 1, v: 2}));
    assert.neq(-1, creationString(name).search("block_compressor=zstd"), creationString(name));
    assert.neq(-1, creationString("system.buckets." + name).search("block_compressor=zstd"));
    assert.neq(-1, creationString("plain").search("block_compressor=snappy"), creationString("plain"));
    assert.eq(1, db[name].find().itcount());
    // The default is not shown as a create option.
    const info = db.getCollectionInfos({name: name})[0];
    assert.eq(undefined, info.options.storageEngine, tojson(info));
}

function createConfigStringWins() {
    db[name].drop();
    db.plain.drop();
    const se = {wiredTiger: {configString: "block_compressor=zlib"}};
    assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t"}, storageEngine: se}));
    assert.commandWorked(db.createCollection("plain", {storageEngine: se}));
    assert.neq(-1, creationString(name).search("block_compressor=zlib"), creationString(name));
    assert.neq(-1, creationString("plain").search("block_compressor=zlib"), creationString("plain"));
    assert.commandWorked(db[name].insert({t: new Date(), v: 1}));
    assert.commandWorked(db.plain.insert({v: 1}));
    assert.eq(1, db[name].find().itcount());
}

// (db.runCommand: mongosh's createCollection throws on failure.)
function malformedStorageEngineOptionsFail() {
    db.bad.drop();
    assert.commandFailedWithCode(db.runCommand({create: "bad", storageEngine: {wiredTiger: 1}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({create: "bad", storageEngine: {rocksdb: {}}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({create: "bad", storageEngine: {wiredTiger: {x: 1}}}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({create: "bad", storageEngine: {wiredTiger: {configString: "invalid_option=xxx"}}}),
        ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        db.runCommand({create: "bad", timeseries: {timeField: "t"},
                                    storageEngine: {wiredTiger: {configString: "invalid_option=xxx"}}}),
        ErrorCodes.BadValue);
    assert.eq(0, db.getCollectionInfos({name: "bad"}).length);
    assert.eq(0, db.getCollectionInfos({name: "system.buckets.bad"}).length);
}

bucketsUseZstdAndRegularCollectionsTheDefault();
createConfigStringWins();
malformedStorageEngineOptionsFail();
