/**
 * $geoWithin / $geoIntersects on time-series measurement and meta fields (spec §5.3.1): the
 * bucket-level $_internalBucketGeoWithin predicate appears in explain, and results equal those
 * of the same documents in a regular collection (differential), with and without the
 * 2dsphere_bucket index created through the view.
 */
const name = jsTestName();
const ts = db[name];
const plain = db[name + "_plain"];
ts.drop();
plain.drop();
assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t", metaField: "m"}}));

const docs = [];
const t0 = ISODate("2024-01-01T00:00:00Z");
for (let i = 0; i < 60; i++) {
    const d = {_id: i, t: new Date(t0.getTime() + i * 60000), m: {site: i % 3, at: [i % 7, i % 5]}};
    if (i % 10 !== 9)
        d.loc = (i % 2) ? {type: "Point", coordinates: [i % 20, (i * 3) % 40]} : [i % 20, (i * 3) % 40];
    else
        d.loc = "nowhere";
    docs.push(d);
}
assert.commandWorked(ts.insert(docs));
assert.commandWorked(plain.insert(docs));

const square = {type: "Polygon", coordinates: [[[0, 0], [10, 0], [10, 20], [0, 20], [0, 0]]]};
const queries = [
    {loc: {$geoWithin: {$geometry: square}}},
    {loc: {$geoIntersects: {$geometry: square}}},
    {loc: {$geoWithin: {$centerSphere: [[5, 5], 0.1]}}},
    {loc: {$geoWithin: {$box: [[0, 0], [5, 30]]}}},
    {"m.at": {$geoWithin: {$box: [[0, 0], [3, 3]]}}},
    {$or: [{loc: {$geoWithin: {$geometry: square}}}, {_id: 59}]},
    {loc: {$geoIntersects: {$geometry: {type: "Point", coordinates: [2, 6]}}}},
];

function check() {
    for (const q of queries) {
        const a = ts.find(q).sort({_id: 1}).toArray();
        const b = plain.find(q).sort({_id: 1}).toArray();
        assert.eq(b.length, a.length, tojson(q));
        assert.eq(b.map(d => d._id), a.map(d => d._id), tojson(q));
        assert.gt(a.length, 0, tojson(q));
    }
}
check();

// The bucket-level predicate is generated.
const explain = ts.explain().aggregate([{$match: {loc: {$geoWithin: {$geometry: square}}}}]);
assert(tojson(explain).includes("$_internalBucketGeoWithin"), tojson(explain));

// With the 2dsphere index on the measurement (a 2dsphere_bucket index on the buckets).
assert.commandWorked(ts.remove({loc: "nowhere"}));
assert.commandWorked(plain.remove({loc: "nowhere"}));
assert.commandWorked(ts.createIndex({loc: "2dsphere"}));
const raw = db.runCommand({listIndexes: "system.buckets." + name}).cursor.firstBatch;
assert(raw.some(i => i.key["data.loc"] === "2dsphere_bucket"), tojson(raw));
const user = db.runCommand({listIndexes: name}).cursor.firstBatch;
assert(user.some(i => i.key.loc === "2dsphere"), tojson(user));
assert.commandWorked(ts.insert({_id: 100, t: t0, m: {site: 0}, loc: [1, 1]}));
assert.commandWorked(plain.insert({_id: 100, t: t0, m: {site: 0}, loc: [1, 1]}));
queries.pop();  // (2, 6) no longer exists
check();

// $_internalBucketGeoWithin reads a whole bucket: refused inside $elemMatch (upstream's code).
assert.commandFailedWithCode(
    db.runCommand({
        aggregate: "system.buckets." + name,
        cursor: {},
        pipeline: [{$match: {abc: {$elemMatch: {$_internalBucketGeoWithin:
                                                    {withinRegion: {$geometry: square}, field: "loc"}}}}}],
    }),
    ErrorCodes.QueryFeatureNotAllowed);

// Flat shapes ($center, $box) match GeoJSON points by their coordinates, as legacy points.
const nearOrigin = db[name + "_flat"];
nearOrigin.drop();
assert.commandWorked(nearOrigin.insert([{_id: 1, loc: {type: "Point", coordinates: [1, 1]}},
                                        {_id: 2, loc: [2, 2]}, {_id: 3, loc: [9, 9]}]));
assert.eq([1, 2], nearOrigin.find({loc: {$geoWithin: {$center: [[0, 0], 3]}}}).sort({_id: 1})
                      .toArray().map(d => d._id));
assert.eq([1], nearOrigin.find({loc: {$geoWithin: {$box: [[0, 0], [1.5, 1.5]]}}}).toArray()
                   .map(d => d._id));
nearOrigin.drop();
