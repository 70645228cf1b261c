/**
 * Buckets are stored under RecordIds made from their _id times, so that a bounded scan of
 * the clustered _id index reads a RecordId range (CLUSTERED_IXSCAN without the index). What
 * a user sees must not change: a range of _id over the buckets gives exactly the buckets in
 * it, in _id order both ways (also when many buckets share one second, as the first buckets
 * of many series do), time predicates on the view give the measurements in the range, and
 * point lookups by _id find their bucket.
 */
const coll = db[jsTestName()];
const buckets = db["system.buckets." + jsTestName()];
coll.drop();
assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));

// 40 series, each starting in the same second; 6 hours of data at 10 minutes, out of order.
const t0 = ISODate("2024-03-01T00:00:00Z").getTime();
let docs = [];
for (let s = 0; s < 40; ++s)
    for (let i = 0; i < 36; ++i)
        docs.push({m: {s: s}, t: new Date(t0 + i * 600000), v: s * 100 + i});
let seed = 7;
const Random = {
    rand() {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
    },
    randInt(n) {
        return Math.floor(this.rand() * n);
    },
};
for (let i = docs.length - 1; i > 0; --i) {
    const j = Random.randInt(i + 1);
    [docs[i], docs[j]] = [docs[j], docs[i]];
}
assert.commandWorked(coll.insertMany(docs, {ordered: false}));

const ids = buckets.find({}, {_id: 1}).toArray().map(b => b._id);
const sorted = ids.slice().sort((a, b) => bsonWoCompare({x: a}, {x: b}));
assert.gt(ids.length, 40);
function cmp(a, b) {
    return bsonWoCompare({x: a}, {x: b});
}

// Ranges of _id over the buckets, both directions, every inclusivity.
for (let k = 0; k < 60; ++k) {
    let a = Random.randInt(sorted.length), z = Random.randInt(sorted.length);
    if (a > z)
        [a, z] = [z, a];
    const lo = sorted[a], hi = sorted[z];
    const loOp = Random.rand() < 0.5 ? "$gte" : "$gt", hiOp = Random.rand() < 0.5 ? "$lte" : "$lt";
    const expected = sorted.filter(x => (loOp == "$gte" ? cmp(x, lo) >= 0 : cmp(x, lo) > 0) &&
                                        (hiOp == "$lte" ? cmp(x, hi) <= 0 : cmp(x, hi) < 0));
    const q = {_id: {[loOp]: lo, [hiOp]: hi}};
    assert.eq(expected, buckets.find(q, {_id: 1}).sort({_id: 1}).toArray().map(b => b._id),
              tojson(q));
    assert.eq(expected.slice().reverse(),
              buckets.find(q, {_id: 1}).sort({_id: -1}).toArray().map(b => b._id), tojson(q));
}
for (let k = 0; k < 20; ++k) {
    const id = sorted[Random.randInt(sorted.length)];
    assert.eq(1, buckets.find({_id: id}).itcount(), tojson(id));
}

// Time ranges on the view: exactly the measurements in range; the buckets are read as a
// clustered scan.
for (const [from, to] of [[0, 6], [1, 2], [2, 5], [5, 6], [3, 3]]) {
    const lo = new Date(t0 + from * 3600000), hi = new Date(t0 + to * 3600000);
    const expected = docs.filter(d => d.t >= lo && d.t < hi).length;
    assert.eq(expected, coll.find({t: {$gte: lo, $lt: hi}}).itcount(), [from, to]);
    assert.eq(expected,
              coll.aggregate([{$match: {t: {$gte: lo, $lt: hi}}}, {$count: "n"}])
                  .toArray()
                  .concat([{n: 0}])[0]
                  .n);
}
const explain = coll.explain("executionStats")
                    .aggregate([{$match: {t: {$gte: new Date(t0 + 3600000)}}}, {$count: "n"}]);
assert(JSON.stringify(explain).includes("CLUSTERED_IXSCAN"), tojson(explain));

// Buckets written directly keep working: an _id that is not an ObjectId, and deletes.
assert.commandWorked(buckets.deleteOne({_id: sorted[0]}));
assert.eq(0, buckets.find({_id: sorted[0]}).itcount());
assert.eq(sorted.length - 1, buckets.find({_id: {$gte: sorted[0]}}).itcount());
coll.drop();
