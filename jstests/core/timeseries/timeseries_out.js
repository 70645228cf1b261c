/**
 * $out into time-series collections: `timeseries` options create a time-series target; a
 * time-series target stays one without options (its options, TTL and secondary indexes kept,
 * its contents replaced); options must match an existing time-series target (7406103); a
 * plain collection or a view cannot become one (7268700); bad options get create's errors.
 */
const src = db[jsTestName() + "_src"];
const tsSrc = db[jsTestName() + "_ts_src"];
const out = db[jsTestName() + "_out"];
const other = db.getSiblingDB(jsTestName() + "_other");
src.drop();
tsSrc.drop();
out.drop();
assert.commandWorked(other.dropDatabase());

const t0 = ISODate("2024-05-01T00:00:00Z").getTime();
const docs = [];
for (let i = 0; i < 2500; ++i)
    docs.push({_id: i, t: new Date(t0 + i * 1000), m: {host: "h" + (i % 5)}, v: i});
assert.commandWorked(src.insertMany(docs));
assert.commandWorked(db.createCollection(tsSrc.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
assert.commandWorked(tsSrc.insertMany(docs));

function outInfo() {
    const infos = db.getCollectionInfos({name: out.getName()});
    assert.eq(infos.length, 1, infos);
    return infos[0];
}
const sorted = (c) => c.find({}, {_id: 1, v: 1}).sort({_id: 1}).toArray();

// A missing target is created time-series, from a plain and from a time-series source.
const opts = {timeField: "t", metaField: "m"};
for (const source of [src, tsSrc]) {
    out.drop();
    source.aggregate([{$out: {db: db.getName(), coll: out.getName(), timeseries: opts}}]);
    const info = outInfo();
    assert.eq(info.type, "timeseries", info);
    assert.eq(info.options.timeseries.timeField, "t", info);
    assert.eq(info.options.timeseries.metaField, "m", info);
    assert.eq(out.countDocuments({}), docs.length);
    assert.eq(sorted(out), sorted(src));
    assert.eq(db.getCollectionInfos({name: "system.buckets." + out.getName()}).length, 1);
}
assert.eq(db.getCollectionNames().filter(n => n.includes("tmp.agg_out")), []);

// An existing time-series target stays one without options: TTL and indexes are kept, the
// contents replaced.
assert.commandWorked(db.runCommand({collMod: out.getName(), expireAfterSeconds: 7 * 24 * 3600 * 1000}));
assert.commandWorked(out.createIndex({v: 1}));
const before = outInfo().options;
src.aggregate([{$match: {v: {$lt: 10}}}, {$set: {v: {$multiply: ["$v", 2]}}},
               {$out: out.getName()}]);
const after = outInfo();
assert.eq(after.type, "timeseries", after);
assert.eq(after.options.timeseries, before.timeseries);
assert.eq(after.options.expireAfterSeconds, before.expireAfterSeconds);
assert.eq(out.find().sort({_id: 1}).toArray().map(d => d.v), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
assert(out.getIndexes().some(i => i.name === "v_1"), out.getIndexes());
assert.eq(out.find({v: 4}).hint({v: 1}).itcount(), 1);
// Options equal to the target's are accepted (listCollections' own form included).
src.aggregate([{$limit: 3}, {$out: {db: db.getName(), coll: out.getName(), timeseries: after.options.timeseries}}]);
assert.eq(out.countDocuments({}), 3);
// New measurements go on landing in the replaced collection.
assert.commandWorked(out.insert({t: new Date(t0), m: {host: "h0"}, v: -1}));
assert.eq(out.countDocuments({}), 4);

// Options that differ from an existing time-series target: 7406103.
for (const bad of [{timeField: "x"}, {timeField: "t", metaField: "v"}, {timeField: "t"},
                   {timeField: "t", metaField: "m", granularity: "hours"}]) {
    assert.throwsWithCode(() => src.aggregate([{$out: {db: db.getName(), coll: out.getName(), timeseries: bad}}]),
                          7406103, [], tojson(bad));
}
assert.eq(out.countDocuments({}), 4);

// A plain collection or a view cannot be made time-series: 7268700.
const plain = db[jsTestName() + "_plain"];
plain.drop();
assert.commandWorked(plain.insert({a: 1}));
assert.throwsWithCode(() => src.aggregate([{$out: {db: db.getName(), coll: plain.getName(), timeseries: opts}}]),
                      7268700);
assert.eq(plain.find().toArray().length, 1);
const view = db[jsTestName() + "_view"];
view.drop();
assert.commandWorked(db.createView(view.getName(), src.getName(), []));
assert.throwsWithCode(() => src.aggregate([{$out: {db: db.getName(), coll: view.getName(), timeseries: opts}}]),
                      7268700);

// Options are parsed as create's.
out.drop();
assert.throwsWithCode(() => src.aggregate([{$out: {db: db.getName(), coll: out.getName(), timeseries: {timeField: "t", bogus: 1}}}]),
                      40415);
assert.throwsWithCode(() => src.aggregate([{$out: {db: db.getName(), coll: out.getName(), timeseries: {metaField: "m"}}}]),
                      40414);
assert.throwsWithCode(() => src.aggregate([{$out: {db: db.getName(), coll: out.getName(), timeseries: {timeField: "t", metaField: "t"}}}]),
                      ErrorCodes.InvalidOptions);
// A measurement without a date in the time field fails the $out and leaves nothing behind.
assert.throws(() => src.aggregate([{$set: {t: "not a date"}}, {$out: {db: db.getName(), coll: out.getName(), timeseries: opts}}]));
assert.eq(db.getCollectionInfos({name: out.getName()}).length, 0);
assert.eq(db.getCollectionNames().filter(n => n.includes("tmp.agg_out")), []);

// Into another (new) database.
src.aggregate([{$out: {db: other.getName(), coll: "o", timeseries: {timeField: "t"}}}]);
assert.eq(other.o.countDocuments({}), docs.length);
assert.eq(other.getCollectionInfos({name: "o"})[0].type, "timeseries");
assert.commandWorked(other.dropDatabase());
