/**
 * On fixed buckets (bucketRoundingSeconds == bucketMaxSpanSeconds, never changed), a $group
 * whose key combines constants, meta paths and a $dateTrunc of the time field whose bins are
 * unions of buckets, with $min/$max/$count accumulators, runs over the buckets without
 * unpacking (explain has no $_internalUnpackBucket); misaligned bins (a unit below the span,
 * a zone whose offsets are not whole spans, a non-constant argument, another date field) keep
 * the unpacking. Results always equal those over a plain collection with the same documents.
 */
const ts = db[jsTestName()];
const plain = db[jsTestName() + "_plain"];
ts.drop();
plain.drop();
assert.commandWorked(db.createCollection(ts.getName(), {
    timeseries: {timeField: "t", metaField: "m", bucketMaxSpanSeconds: 3600,
                 bucketRoundingSeconds: 3600}
}));

// Three days around the 2022-03-13 daylight-saving change of America/New_York.
const start = ISODate("2022-03-12T00:00:00Z").getTime();
const docs = [];
for (let i = 0; i < 3 * 24 * 6; ++i) {
    const t = new Date(start + i * 10 * 60 * 1000 + (i % 7) * 1000);
    docs.push({_id: i, t: t, m: {s: i % 3}, v: (i * 37) % 101, other: t});
}
assert.commandWorked(ts.insertMany(docs));
assert.commandWorked(plain.insertMany(docs));

function unpacks(pipeline) {
    const explain = ts.explain().aggregate(pipeline);
    return JSON.stringify(explain).includes("$_internalUnpackBucket");
}
function check(pipeline, rewritten) {
    assert.eq(!rewritten, unpacks(pipeline), tojson(pipeline));
    const a = ts.aggregate(pipeline).toArray();
    const b = plain.aggregate(pipeline).toArray();
    assert.sameMembers(a, b, tojson(pipeline));
}
const acc = {lo: {$min: "$v"}, hi: {$max: "$v"}, n: {$count: {}}, last: {$max: "$t"}};
const dt = (args) => ({$dateTrunc: Object.assign({date: "$t"}, args)});
const group = (id) => [{$group: Object.assign({_id: id}, acc)}];

for (const [id, rewritten] of [
         [{t: dt({unit: "hour"})}, true],
         [dt({unit: "hour", binSize: 6}), true],
         [{t: dt({unit: "day"}), s: "$m.s", k: "const"}, true],
         [{t: dt({unit: "day", timezone: "+05:00", binSize: 2})}, true],
         [{t: dt({unit: "week", startOfWeek: "fri"})}, true],
         [{t: dt({unit: "month"})}, true],
         [{t: dt({unit: "hour", binSize: 24, timezone: "America/New_York"})}, true],
         [{t: dt({unit: "day", timezone: "America/New_York"})}, true],
         [{t: dt({unit: "minute", binSize: 30})}, false],
         [{t: dt({unit: "hour", timezone: "Asia/Kathmandu"})}, false],
         [{t: dt({unit: "day", timezone: "+05:30"})}, false],
         [{t: {$dateTrunc: {date: "$other", unit: "day"}}}, false],
         [{t: dt({unit: "hour", binSize: {$add: ["$m.s", 1]}})}, false],
         [{t: dt({unit: "hour"}), v: "$v"}, false],
]) {
    check(group(id), rewritten);
}
// $min of the time field stays unpacked (control.min of the time is rounded down).
check([{$group: {_id: {t: dt({unit: "hour"})}, first: {$min: "$t"}}}], false);

// Not fixed once the bucketing parameters have changed (older buckets keep the old span).
const loose = db[jsTestName() + "_loose"];
loose.drop();
assert.commandWorked(db.createCollection(loose.getName(), {
    timeseries: {timeField: "t", metaField: "m", bucketMaxSpanSeconds: 3600,
                 bucketRoundingSeconds: 3600}
}));
assert.commandWorked(loose.insertMany(docs.slice(0, 100)));
assert.commandWorked(db.runCommand({
    collMod: loose.getName(),
    timeseries: {bucketMaxSpanSeconds: 86400, bucketRoundingSeconds: 86400}
}));
assert.commandWorked(loose.insertMany(docs.slice(100)));
const p = group({t: dt({unit: "day"})});
assert(JSON.stringify(loose.explain().aggregate(p)).includes("$_internalUnpackBucket"));
assert.sameMembers(loose.aggregate(p).toArray(), plain.aggregate(p).toArray());

// $dateTrunc in hours across a daylight-saving change: the bin starts at local midnight in
// that midnight's offset (EST, 05:00Z), for the measurements after the change too.
const dst = plain.aggregate([
    {$match: {t: {$gte: ISODate("2022-03-13T05:00:00Z"), $lt: ISODate("2022-03-14T04:00:00Z")}}},
    {$group: {_id: dt({unit: "hour", binSize: 24, timezone: "America/New_York"}), n: {$sum: 1}}}
]).toArray();
assert.eq(dst.length, 1, dst);
assert.eq(dst[0]._id, ISODate("2022-03-13T05:00:00Z"), dst);
