/**
 * $replaceRoot/$replaceWith, $sortByCount, $bucket, $bucketAuto, $sample,
 * $documents, $redact, $collStats, $indexStats and $geoNear without a geo index
 * (jstests/core/geo/geo_near.js covers $geoNear itself).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: 1, sub: {x: 1}, level: "public"},
        {_id: 2, a: 5, sub: {x: 2}, level: "secret"},
        {_id: 3, a: 5, sub: {x: 3}, level: "public"},
        {_id: 4, a: 12, sub: {x: 4}, level: "public"},
    ]));
}

function replaceRoot() {
    assert.eq([{x: 1}], coll.aggregate([{$match: {_id: 1}}, {$replaceRoot: {newRoot: "$sub"}}]).toArray());
    assert.eq([{y: 1}], coll.aggregate([{$match: {_id: 1}}, {$replaceWith: {y: "$a"}}]).toArray());
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {}, pipeline: [{$replaceRoot: {newRoot: "$a"}}]}),
        40228);
}

function sortByCountAndBuckets() {
    assert.eq([{_id: 5, count: 2}], coll.aggregate([{$sortByCount: "$a"}, {$limit: 1}]).toArray());
    assert.eq([{_id: 0, count: 1}, {_id: 5, count: 2}, {_id: "other", count: 1}],
              coll.aggregate([{$bucket: {groupBy: "$a", boundaries: [0, 5, 10], default: "other"}}]).toArray());
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {},
                       pipeline: [{$bucket: {groupBy: "$a", boundaries: [0, 5]}}]}),
        40066);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {},
                       pipeline: [{$bucket: {groupBy: "$a", boundaries: [5, 0]}}]}),
        40194);
    const auto = coll.aggregate([{$bucketAuto: {groupBy: "$a", buckets: 2}}]).toArray();
    assert.eq(2, auto.length, tojson(auto));
    assert.eq({min: 1, max: 12}, {min: auto[0]._id.min, max: auto[1]._id.max});
}

function sample() {
    assert.eq(2, coll.aggregate([{$sample: {size: 2}}]).itcount());
    assert.eq(4, coll.aggregate([{$sample: {size: 10}}]).itcount());
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {}, pipeline: [{$sample: {size: -1}}]}),
        28747);
}

function documents() {
    const res = db.aggregate([{$documents: [{a: 1}, {a: 2}]}, {$match: {a: 2}}]).toArray();
    assert.eq([{a: 2}], res);
}

function redact() {
    const res = coll.aggregate([
        {$redact: {$cond: [{$eq: ["$level", "secret"]}, "$$PRUNE", "$$DESCEND"]}},
        {$project: {_id: 1}}
    ]).toArray();
    assert.eq([1, 3, 4], res.map(d => d._id).sort());
}

function stats() {
    const cs = coll.aggregate([{$collStats: {count: {}, storageStats: {}}}]).toArray();
    assert.eq(1, cs.length);
    assert.eq(4, cs[0].count);
    assert.eq(4, cs[0].storageStats.count);
    assert.commandWorked(coll.createIndex({a: 1}));
    const is = coll.aggregate([{$indexStats: {}}]).toArray();
    assert.sameMembers(["_id_", "a_1"], is.map(d => d.name));
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {}, pipeline: [{$match: {}}, {$collStats: {}}]}),
        40602);
}

function geoNearWithoutIndex() {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {},
                       pipeline: [{$geoNear: {near: [0, 0], distanceField: "d"}}]}),
        ErrorCodes.IndexNotFound);
}

runScenarios(setUp, replaceRoot, sortByCountAndBuckets, sample, documents, redact, stats,
             geoNearWithoutIndex);
