/**
 * Wildcard indexes on a time-series collection: allowed on the metaField (`<meta>.$**`),
 * refused on measurement fields ("$**", "x.$**", compound ones too) with CannotCreateIndex.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(
        db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(coll.insert({t: ISODate(), m: {tag: "a"}, x: 1}));
}

function measurementWildcardsRefused() {
    setUp();
    for (const key of [{"$**": 1}, {"_id.$**": 1}, {x: 1, "y.$**": 1}, {"$**": -1, x: 1},
                       {"m.tag": 1, "x.$**": 1}])
        assert.commandFailedWithCode(coll.createIndex(key), ErrorCodes.CannotCreateIndex,
                                     tojson(key));
    assert.eq(1, coll.getIndexes().length);  // only the default meta/time index
}

function metaWildcardAllowed() {
    setUp();
    assert.commandWorked(coll.createIndex({"m.$**": 1}));
    assert.eq(1, coll.find({"m.tag": "a"}).itcount());
}

measurementWildcardsRefused();
metaWildcardAllowed();
