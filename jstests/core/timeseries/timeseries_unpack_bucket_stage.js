// $_unpackBucket, the stage run directly on a buckets collection: it takes timeField and
// metaField only, requires the metaField when the collection has one (5369601), reads the
// bucket span from the collection (so a time filter after it keeps every match), and refuses
// names with embedded null bytes, as $_internalUnpackBucket does.
const withMeta = db.unpack_bucket_stage_meta;
const noMeta = db.unpack_bucket_stage_nometa;
withMeta.drop();
noMeta.drop();
assert.commandWorked(db.createCollection(
    withMeta.getName(), {timeseries: {timeField: "t", metaField: "m", granularity: "hours"}}));
assert.commandWorked(db.createCollection(noMeta.getName(), {timeseries: {timeField: "t"}}));
const start = ISODate("2024-03-01T00:00:00Z");
for (let i = 0; i < 40; i++) {
    const doc = {t: new Date(start.getTime() + i * 3600 * 1000), m: "a", v: i};
    assert.commandWorked(withMeta.insert(doc));
    assert.commandWorked(noMeta.insert(doc));
}
const bucketsOf = (c) => db.getCollection("system.buckets." + c.getName());
const run = (c, spec, rest = []) =>
    db.runCommand({aggregate: bucketsOf(c).getName(),
                   pipeline: [{$_unpackBucket: spec}, ...rest], cursor: {}});

assert.eq(40, run(withMeta, {timeField: "t", metaField: "m"}).cursor.firstBatch.length);
assert.eq(40, run(noMeta, {timeField: "t"}).cursor.firstBatch.length);
assert.eq(40, run(noMeta, {timeField: "t", metaField: "absent"}).cursor.firstBatch.length);
assert.commandFailedWithCode(run(withMeta, {timeField: "t"}), 5369601);

// Buckets of "hours" span days: a time range needs the collection's span, not one hour.
const mid = new Date(start.getTime() + 20 * 3600 * 1000);
const filtered = run(withMeta, {timeField: "t", metaField: "m"},
                     [{$match: {t: {$gte: mid}}}, {$sort: {v: 1}}]).cursor.firstBatch;
assert.eq(20, filtered.length, tojson(filtered));
assert.eq(20, filtered[0].v);

assert.commandFailedWithCode(run(withMeta, {timeField: "t", metaField: "m", bucketMaxSpanSeconds: 60}),
                             5612404);
assert.commandFailedWithCode(run(withMeta, {timeField: "a\x00b", metaField: "m"}), 9568703);
assert.commandFailedWithCode(run(withMeta, {timeField: "t", metaField: "a\x00b"}), 9568704);
const internal = (spec) => db.runCommand(
    {aggregate: bucketsOf(withMeta).getName(), pipeline: [{$_internalUnpackBucket: spec}], cursor: {}});
const base = {timeField: "t", metaField: "m", bucketMaxSpanSeconds: NumberInt(3600)};
assert.commandFailedWithCode(internal(Object.assign({}, base, {timeField: "a\x00b"})), 9568701);
assert.commandFailedWithCode(internal(Object.assign({}, base, {metaField: "a\x00b"})), 9568702);
assert.commandFailedWithCode(internal(Object.assign({}, base, {include: ["t", "x\x00"]})), 9568705);
assert.commandFailedWithCode(
    internal({timeField: "t", metaField: "m", bucketMaxSpanSeconds: NumberInt(3600),
              computedMetaProjFields: ["x\x00"]}),
    9568706);
