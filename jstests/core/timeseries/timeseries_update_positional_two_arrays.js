/**
 * Positional `$` in a time-series update whose filter walks a meta array and a measurement
 * array: the filter is read in canonical order (kind, then path), so the predicate on the
 * later path sets the position of both `$` (upstream timeseries_update_multi.js).
 */
const coll = db[jsTestName()];
const t = ISODate("2024-03-01T00:00:00Z");

function reset() {
    coll.drop();
    assert.commandWorked(
        db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "tag"}}));
    assert.commandWorked(coll.insertOne({_id: 8, t: t, tag: [1, 2, 3, 4], f: [4, 3, 2, 1]}));
}

function metaArraySetsPosition() {
    for (const q of [{tag: {$gt: 2}, f: {$gt: 2}}, {f: {$gt: 2}, tag: {$gt: 2}}]) {
        reset();
        const res = assert.commandWorked(
            coll.updateMany(q, {$set: {"tag.$": 20, "f.$": 10}}));
        assert.eq(1, res.modifiedCount);
        assert.docEq({_id: 8, t: t, tag: [1, 2, 20, 4], f: [4, 3, 10, 1]},
                     coll.findOne({}), tojson(q));
    }
}

runScenarios(metaArraySetsPosition);
