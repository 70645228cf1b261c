/**
 * A NaN measurement makes the bucket's control.min NaN (NaN sorts below every number) and
 * comparisons with NaN match only NaN: the bucket-level filters derived from $lt/$lte/$eq/$in
 * must keep such buckets, and a NaN operand is decided by control.min. Results equal those
 * of a plain collection holding the same measurements.
 */
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];

function setUp(values) {
    ts.drop();
    plain.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = values.map((v, i) => ({t: new Date(Date.UTC(2024, 0, 1, 0, i)), m: 1, v: v, i: i}));
    assert.commandWorked(ts.insert(docs));
    assert.commandWorked(plain.insert(docs));
}

function same(filter) {
    const q = [{$match: filter}, {$project: {_id: 0, i: 1}}, {$sort: {i: 1}}];
    assert.eq(plain.aggregate(q).toArray(), ts.aggregate(q).toArray(), tojson(filter));
    assert.eq(plain.find(filter, {_id: 0, i: 1}).sort({i: 1}).toArray(),
              ts.find(filter, {_id: 0, i: 1}).sort({i: 1}).toArray(), tojson(filter));
}

function comparisonsKeepBucketsWithNaN() {
    setUp([1, NaN, 100]);
    for (const f of [{v: {$lt: 50}}, {v: {$lte: 1}}, {v: {$eq: 100}}, {v: 1}, {v: {$in: [1, 7]}},
                     {v: {$gt: 50}}, {v: {$gte: 1, $lte: 1}}, {v: {$ne: 1}}])
        same(f);
    assert.eq(1, ts.find({v: {$lt: 50}}).itcount());
}

function nanOperands() {
    setUp([1, NaN, 100]);
    for (const f of [{v: NaN}, {v: {$lte: NaN}}, {v: {$gte: NaN}}, {v: {$lt: NaN}}, {v: {$gt: NaN}},
                     {v: {$in: [NaN, 100]}}, {v: NumberDecimal("NaN")}])
        same(f);
    assert.eq(1, ts.find({v: NaN}).itcount());
}

function allNaNBucket() {
    setUp([NaN, NaN]);
    for (const f of [{v: NaN}, {v: {$lt: 5}}, {v: {$gt: 5}}, {v: {$gte: NaN}}])
        same(f);
}

runScenarios(comparisonsKeepBucketsWithNaN, nanOperands, allNaNBucket);
