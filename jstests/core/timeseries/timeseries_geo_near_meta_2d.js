/**
 * $geoNear on a time-series collection uses a 2d index on the meta field as it does a 2dsphere
 * one: named by `key`, or found alone; measurements come back nearest first, with distances.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(
        db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(coll.createIndex({m: "2d"}));
    const t = ISODate("2024-01-01T00:00:00Z");
    assert.commandWorked(coll.insert([{_id: 1, t: t, m: [40, 40]}, {_id: 2, t: t, m: [10, 10]},
                                      {_id: 3, t: t, m: [41, 41]}]));
}

function byKeyAndAlone() {
    setUp();
    for (const key of ["m", undefined]) {
        const stage = {near: [40.4, 40.4], distanceField: "dist"};
        if (key)
            stage.key = key;
        const res = coll.aggregate([{$geoNear: stage}]).toArray();
        assert.eq([1, 3, 2], res.map(d => d._id), tojson(stage));
        assert.lt(res[0].dist, res[1].dist, tojson(res));
    }
}

function unknownKeyIsIndexNotFound() {
    setUp();
    // A meta path needs an index; a measurement field does not (none has "x": no results).
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {},
                       pipeline: [{$geoNear: {near: [0, 0], key: "m.x", distanceField: "d"}}]}),
        ErrorCodes.IndexNotFound);
    assert.eq([], coll.aggregate([{$geoNear: {near: [0, 0], key: "x", distanceField: "d"}}]).toArray());
}

runScenarios(byKeyAndAlone, unknownKeyIsIndexNotFound);
