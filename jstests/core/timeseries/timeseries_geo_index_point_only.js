/**
 * A 2dsphere index on a time-series measurement indexes points only (upstream's codes): a
 * measurement that is no geometry fails with 183934, another kind of geometry with 183493;
 * null, {} and [] mean "no location". A refused measurement leaves the collection as it was,
 * later inserts still land, and an index build over such a measurement fails the same way.
 */
const coll = db[jsTestName()];
const t0 = ISODate("2024-01-01T00:00:00Z");

function setUp() {
    coll.drop();
    assert.commandWorked(
        db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(coll.createIndex({loc: "2dsphere"}));
    assert.commandWorked(coll.insertOne({t: t0, m: 1, loc: {type: "Point", coordinates: [1, 1]}}));
}

function notAGeometry() {
    setUp();
    for (const loc of [{type: "Polygon", coordinates: [[0, 0], [1, 0], [1, 1], [0, 0]]}, "x", 7,
                       [200, 0]]) {
        assert.commandFailedWithCode(coll.insert({t: t0, m: 1, loc: loc}), 183934, tojson(loc));
    }
    assert.eq(1, coll.countDocuments({}));
}

function notAPoint() {
    setUp();
    for (const type of ["MultiPoint", "LineString"]) {
        assert.commandFailedWithCode(
            coll.insert({t: t0, m: 1, loc: {type: type, coordinates: [[0, 0], [1, 0], [1, 1]]}}),
            183493, type);
    }
    assert.eq(1, coll.countDocuments({}));
}

function emptyLocationsAndLaterInserts() {
    setUp();
    for (const loc of [null, {}, []])
        assert.commandWorked(coll.insert({t: t0, m: 1, loc: loc}));
    assert.commandWorked(coll.insert({t: t0, m: 1}));
    assert.commandWorked(coll.insert({t: t0, m: 1, loc: [2, 2]}));
    assert.eq(6, coll.countDocuments({}));
    assert.eq(2, coll.countDocuments({loc: {$geoWithin: {$centerSphere: [[1.5, 1.5], 0.1]}}}));
}

function indexBuildOverBadMeasurement() {
    coll.drop();
    assert.commandWorked(
        db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(coll.insertOne({t: t0, m: 1, loc: "not a location"}));
    assert.commandFailedWithCode(coll.createIndex({loc: "2dsphere"}), 183934);
    assert.eq(1, coll.countDocuments({}));
}

runScenarios(notAGeometry, notAPoint, emptyLocationsAndLaterInserts, indexBuildOverBadMeasurement);
