/**
 * $geoNear minDistance/maxDistance may be expressions that do not read the document (let
 * variables, operators over constants), on a time-series collection (key on the meta field and
 * on a measurement) as on an ordinary one; one that reads a field is refused with 7555701
 * (minDistance) / 7555702 (maxDistance).
 */
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];
ts.drop();
plain.drop();
assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
assert.commandWorked(db.createCollection(plain.getName()));
const docs = [];
for (let i = 0; i < 12; i++)
    docs.push({t: ISODate(), m: {loc: [i, i]}, at: [i, -i], v: i});
for (const c of [ts, plain]) {
    assert.commandWorked(c.insertMany(docs.map(d => Object.assign({}, d))));
    assert.commandWorked(c.createIndex({"m.loc": "2dsphere"}));
    assert.commandWorked(c.createIndex({"at": "2dsphere"}));
}

const near = {type: "Point", coordinates: [0, 0]};
const meters = 111320;  // about one degree at the equator
function run(coll, key, min, max, letVars) {
    const stage = {near: near, key: key, distanceField: "d", minDistance: min, maxDistance: max};
    return coll.aggregate([{$geoNear: stage}, {$project: {_id: 0, v: 1, d: 1}}], {let: letVars})
        .toArray();
}

for (const key of ["m.loc", "at"]) {
    const expected = run(plain, key, 1.5 * meters, 6.5 * meters, {});
    assert.eq([2, 3, 4], expected.map(d => d.v), tojson(expected));
    for (const c of [ts, plain]) {
        const withLet = run(c, key, "$$lo", "$$hi", {lo: 1.5 * meters, hi: 6.5 * meters});
        assert.eq(expected.map(d => d.v), withLet.map(d => d.v), key + " " + tojson(withLet));
        const withOperator =
            run(c, key, {$multiply: [1.5, "$$unit"]}, {$multiply: [6.5, "$$unit"]}, {unit: meters});
        assert.eq(expected.map(d => d.v), withOperator.map(d => d.v), tojson(withOperator));
    }
}

for (const c of [ts, plain]) {
    const reads = {near: near, key: "m.loc", distanceField: "d"};
    assert.commandFailedWithCode(
        db.runCommand({aggregate: c.getName(), cursor: {},
                       pipeline: [{$geoNear: Object.assign({minDistance: "$v"}, reads)}]}),
        7555701);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: c.getName(), cursor: {},
                       pipeline: [{$geoNear: Object.assign({maxDistance: {$add: ["$v", 1]}}, reads)}]}),
        7555702);
    // An expression that is not a number, or a negative one, is refused as a literal would be.
    assert.commandFailedWithCode(
        db.runCommand({aggregate: c.getName(), cursor: {}, let: {s: "far"},
                       pipeline: [{$geoNear: Object.assign({maxDistance: "$$s"}, reads)}]}),
        ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: c.getName(), cursor: {}, let: {n: -1},
                       pipeline: [{$geoNear: Object.assign({minDistance: "$$n"}, reads)}]}),
        ErrorCodes.BadValue);
}
