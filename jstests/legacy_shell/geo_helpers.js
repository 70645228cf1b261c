// Geo.distance and Geo.sphereDistance, the reference distances upstream's geo tests compare
// $geoNear and $near results with: plane distance over the first two values of a point (array
// or object), and the angle in radians between two [longitude, latitude] points in degrees.
assert.eq(5, Geo.distance([0, 0], [3, 4]));
assert.eq(5, Geo.distance({x: 1, y: 1}, {a: 4, b: 5}));
assert.eq(0, Geo.sphereDistance([10, 20], [10, 20]));
assert.close(Math.PI / 2, Geo.sphereDistance([0, 0], [90, 0]), "quarter", 12);
assert.close(Math.PI, Geo.sphereDistance([0, 0], [180, 0]), "antipode", 12);
assert.close(Math.PI / 2, Geo.sphereDistance([0, 0], {lng: 0, lat: 90}), "pole", 12);

// The server agrees: planar distances of a 2d index, spherical ones of a 2dsphere index.
const coll = db.geo_helpers;
coll.drop();
const points = [[1, 1], [-3, 7], [20, -15], [0.5, 45], [120, 60]];
points.forEach((p, i) => assert.commandWorked(coll.insert({_id: i, loc: p})));
assert.commandWorked(coll.createIndex({loc: "2d"}));
const near = [2, 3];
coll.aggregate([{$geoNear: {near: near, distanceField: "d"}}]).forEach((doc) => {
    assert.close(Geo.distance(near, doc.loc), doc.d, tojson(doc), 10);
});
assert.commandWorked(coll.dropIndexes());
assert.commandWorked(coll.createIndex({loc: "2dsphere"}));
coll.aggregate([{$geoNear: {near: near, distanceField: "d", spherical: true}}]).forEach((doc) => {
    assert.close(Geo.sphereDistance(near, doc.loc), doc.d, tojson(doc), 10);
});
