/**
 * A null meta and a missing meta are two series: each gets its own buckets, and the view gives
 * back `meta: null` only where it was inserted, for ordered and unordered inserts alike (an
 * unordered insert groups measurements by series before staging them).
 */
const coll = db[jsTestName()];
const buckets = db.getCollection("system.buckets." + coll.getName());
const t = ISODate("2020-11-26T00:00:00Z");
const docs = [
    {_id: 0, time: t, meta: null, x: 0},
    {_id: 1, time: new Date(+t + 600000), meta: null, x: 10},
    {_id: 2, time: new Date(+t + 1200000), x: 20},
    {_id: 3, time: new Date(+t + 1800000), x: 30},
    {_id: 4, time: new Date(+t + 2400000), meta: 0, x: 40},
];
for (const ordered of [true, false]) {
    coll.drop();
    assert.commandWorked(
        db.createCollection(coll.getName(), {timeseries: {timeField: "time", metaField: "meta"}}));
    assert.commandWorked(coll.insert(docs, {ordered: ordered}));
    assert.eq(docs, coll.find().sort({_id: 1}).toArray().map(d => {
        const o = {_id: d._id, time: d.time};
        if (d.hasOwnProperty("meta"))
            o.meta = d.meta;
        o.x = d.x;
        return o;
    }), "ordered: " + ordered);
    assert.eq(3, buckets.countDocuments({}), "ordered: " + ordered);
    assert.eq(1, buckets.countDocuments({meta: {$type: "null"}}), "ordered: " + ordered);
    assert.eq(1, buckets.countDocuments({meta: {$exists: false}}), "ordered: " + ordered);
}
