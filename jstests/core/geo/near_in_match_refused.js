/**
 * $near, $nearSphere and $geoNear order by distance: a find on a collection runs them (as a
 * $geoNear stage), but a $match stage refuses them with 5626500, anywhere in its filter, and so
 * does a find on a view (an aggregate), time-series views included.
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.createIndex({loc: "2dsphere"}));
assert.commandWorked(coll.insert({loc: [0.25, 0.35]}));
const point = {type: "Point", coordinates: [0, 0]};
assert.eq(1, coll.find({loc: {$near: {$geometry: point}}}).itcount());

for (const q of [{loc: {$near: {$geometry: point}}},
                 {loc: {$nearSphere: {$geometry: point}}},
                 {loc: {$geoNear: {$geometry: point}}},
                 {$and: [{a: 1}, {loc: {$near: {$geometry: point}}}]}]) {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$match: q}], cursor: {}}), 5626500,
        tojson(q));
}

// A literal value is not a predicate: an object equal to {$near: 1} is just looked for.
assert.eq(0, coll.aggregate([{$match: {loc: {$eq: {$near: 1}}}}]).itcount());

const view = db[jsTestName() + "_view"];
view.drop();
assert.commandWorked(db.createView(view.getName(), coll.getName(), []));
assert.commandFailedWithCode(
    db.runCommand({find: view.getName(), filter: {loc: {$near: {$geometry: point}}}}), 5626500);

const ts = db[jsTestName() + "_ts"];
ts.drop();
assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
assert.commandWorked(ts.insert({t: ISODate(), m: {loc: [40, 40]}}));
// Legacy points and no index: still the view's refusal, not a planner error.
for (const op of ["$near", "$nearSphere", "$geoNear"])
    assert.commandFailedWithCode(db.runCommand({find: ts.getName(), filter: {"m.loc": {[op]: [0, 0]}}}),
                                 5626500, op);
