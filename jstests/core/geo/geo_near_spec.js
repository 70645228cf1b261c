/**
 * $geoNear's field names come from idl/document_source_geo_near.idl: an unknown field is 40415,
 * the removed num/limit/uniqueDocs options are refused by name (FailedToParse), and each value
 * keeps the stage's own checks.
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.createIndex({loc: "2dsphere"}));
assert.commandWorked(coll.insert({_id: 1, loc: {type: "Point", coordinates: [0, 0]}}));

const near = {type: "Point", coordinates: [0, 0]};
function geoNear(spec) {
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$geoNear: spec}], cursor: {}});
}
assert.commandFailedWithCode(geoNear({near: near, distanceField: "d", bogus: 1}), 40415);
for (const removed of ["num", "limit", "uniqueDocs"])
    assert.commandFailedWithCode(geoNear({near: near, distanceField: "d", [removed]: 1}),
                                 ErrorCodes.FailedToParse, removed);
assert.commandFailedWithCode(geoNear({near: near, distanceField: 5}), ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(geoNear({near: near, distanceField: "d", key: 1}),
                             ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(geoNear({near: near, distanceField: "d", query: 1}),
                             ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(geoNear({near: near, distanceField: "d", distanceMultiplier: -1}),
                             ErrorCodes.BadValue);
assert.commandFailedWithCode(geoNear({distanceField: "d"}), ErrorCodes.FailedToParse);
const res = assert.commandWorked(
    geoNear({near: near, distanceField: "d", spherical: true, key: "loc", maxDistance: 10}));
assert.eq(res.cursor.firstBatch.length, 1, res);
