// Fixed buckets (bucketRoundingSeconds == bucketMaxSpanSeconds, never changed): a $match made only
// of $lt / $gte bounds on the time field at bucket boundaries is decided by the bucket-level
// $match, so $_internalUnpackBucket keeps no eventFilter (and a following $group may run over the
// buckets). Any other predicate keeps the whole filter as the eventFilter. Results never change.
const coll = db.ts_fixed_exact;
const span = 3600;
const start = ISODate("2022-09-30T15:00:00.000Z");
const at = (fraction) => new Date(start.getTime() + fraction * span * 1000);

function unpackOf(pipeline) {
    const explain = coll.explain().aggregate(pipeline);
    const stages = explain.stages || [];
    const found = stages.filter((s) => s.$_internalUnpackBucket);
    return found.length ? found[0].$_internalUnpackBucket : null;
}

function check(pipeline, expectedIds, exact) {
    const unpack = unpackOf(pipeline);
    if (exact) {
        assert(!unpack || unpack.eventFilter === undefined, tojson(unpack));
    } else {
        assert(unpack && unpack.eventFilter !== undefined, tojson(unpack));
    }
    const ids = coll.aggregate(pipeline.concat([{$project: {_id: 1}}])).toArray().map((d) => d._id);
    assert.sameMembers(expectedIds, ids, tojson(pipeline));
    // The same answer with the rewrites inhibited.
    const plain = coll.aggregate([{$_internalInhibitOptimization: {}}].concat(pipeline, [{$project: {_id: 1}}]))
                      .toArray().map((d) => d._id);
    assert.sameMembers(expectedIds, plain, tojson(pipeline));
}

coll.drop();
assert.commandWorked(db.createCollection(
    coll.getName(),
    {timeseries: {timeField: "t", metaField: "m", bucketMaxSpanSeconds: span, bucketRoundingSeconds: span}}));
const offsets = [-1, -1 / 2, -1 / 3, 0, 1 / 3, 1 / 2, 1];
assert.commandWorked(coll.insertMany(offsets.map((o, i) => ({_id: i, t: at(o), m: "a", other: at(o), v: i}))));

check([{$match: {t: {$lt: start}}}], [0, 1, 2], true);
check([{$match: {t: {$gte: start}}}], [3, 4, 5, 6], true);
check([{$match: {t: {$gte: at(-1), $lt: at(1)}}}], [0, 1, 2, 3, 4, 5], true);
check([{$match: {$or: [{t: {$gte: at(1)}}, {t: {$lt: start}}]}}], [0, 1, 2, 6], true);
check([{$match: {t: {$lt: start}}}, {$match: {t: {$gte: at(-1)}}}], [0, 1, 2], true);
// Not on a boundary, or not $lt/$gte: the eventFilter stays.
check([{$match: {t: {$lt: at(-1 / 3)}}}], [0, 1], false);
check([{$match: {t: {$lte: start}}}], [0, 1, 2, 3], false);
check([{$match: {t: {$gt: start}}}], [4, 5, 6], false);
check([{$match: {t: start}}], [3], false);
// Another field: the whole filter is the eventFilter.
check([{$match: {t: {$lt: start}}}, {$match: {other: {$gte: at(-1 / 2)}}}], [1, 2], false);

// Without an eventFilter, a $group over the meta field runs on the buckets.
const grouped = [{$match: {t: {$lt: start}}}, {$group: {_id: "$m", lo: {$min: "$v"}, hi: {$max: "$v"}}}];
assert.eq(null, unpackOf(grouped));
assert.eq([{_id: "a", lo: 0, hi: 2}], coll.aggregate(grouped).toArray());

// After the bucketing parameters change, buckets are no longer fixed: the eventFilter is kept.
assert.commandWorked(db.runCommand(
    {collMod: coll.getName(), timeseries: {bucketMaxSpanSeconds: 100000, bucketRoundingSeconds: 100000}}));
check([{$match: {t: {$gte: start}}}], [3, 4, 5, 6], false);
