// The legacy shell's API as upstream jstests use it: legacy write results, the bulk API,
// cursors, explain, command helpers and BSON value types.
const coll = db.legacy_shell_api;
coll.drop();

// insert: WriteResult for one document, BulkWriteResult for an array; _id added client-side.
let res = coll.insert({a: 1});
assert(res instanceof WriteResult, tojson(res));
assert.eq(1, res.nInserted);
assert(!res.hasWriteError());
res = coll.insert([{_id: 1, a: 2}, {_id: 1, a: 3}, {_id: 2, a: 4}], {ordered: false});
assert(res instanceof BulkWriteResult, tojson(res));
assert.eq(2, res.nInserted);
assert.eq(1, res.getWriteErrorCount());
assert.eq(1, res.getWriteErrorAt(0).index);
assert.eq(ErrorCodes.DuplicateKey, res.getWriteErrorAt(0).code);
assert.writeErrorWithCode(res, ErrorCodes.DuplicateKey);
assert(coll.findOne({a: 1})._id instanceof ObjectId);

// Every JS number is sent as a double, NumberInt/NumberLong/NumberDecimal keep their types.
assert.commandWorked(coll.insert({_id: "types", d: 1, i: NumberInt(2), l: NumberLong("9007199254740993"),
                                  dec: NumberDecimal("1.10"), ts: Timestamp(5, 6), bin: BinData(0, "AQID"),
                                  u: UUID("0123456789abcdef0123456789abcdef"), mn: MinKey, mx: MaxKey()}));
const types = coll.aggregate([{$match: {_id: "types"}},
                              {$project: {_id: 0, d: {$type: "$d"}, i: {$type: "$i"}, l: {$type: "$l"},
                                          dec: {$type: "$dec"}, ts: {$type: "$ts"}, bin: {$type: "$bin"},
                                          u: {$type: "$u"}, mn: {$type: "$mn"}, mx: {$type: "$mx"}}}])
                    .toArray()[0];
assert.docEq({d: "double", i: "int", l: "long", dec: "decimal", ts: "timestamp", bin: "binData",
              u: "binData", mn: "minKey", mx: "maxKey"}, types);
const back = coll.findOne({_id: "types"});
assert.eq("NumberLong(\"9007199254740993\")", tojson(back.l));
assert.eq(NumberDecimal("1.10"), back.dec);
assert.eq(Timestamp(5, 6), back.ts);
assert.eq("UUID(\"01234567-89ab-cdef-0123-456789abcdef\")", tojson(back.u));
// String conversion prints the shell form too (a name built from `${UUID()}` is valid text).
assert.eq(`x_${back.u}`, "x_UUID(\"01234567-89ab-cdef-0123-456789abcdef\")");
assert.eq(String(BinData(0, "AQID")), "BinData(0,\"AQID\")");
assert.eq(tojson(ISODate("2024-01-02T03:04:05Z")), "ISODate(\"2024-01-02T03:04:05Z\")");
assert.eq(tojson(ISODate("2024-01-02T03:04:05.250Z")), "ISODate(\"2024-01-02T03:04:05.250Z\")");
assert.eq(Object.bsonsize({a: 1}), 16);

// update/remove: WriteResult counters; upsert id.
res = coll.update({_id: 2}, {$set: {b: 1}});
assert.eq(1, res.nMatched);
assert.eq(1, res.nModified);
res = coll.update({_id: 3}, {$set: {b: 1}}, {upsert: true});
assert.eq(1, res.nUpserted);
assert.eq(3, res.getUpsertedId()._id);
res = coll.update({_id: 3}, {$inc: {b: "x"}});
assert.writeErrorWithCode(res, ErrorCodes.TypeMismatch);
res = coll.remove({_id: 3});
assert.eq(1, res.nRemoved);
// A command-level failure comes back (not thrown) as a WriteCommandError.
res = db.getCollection("$bad").insert({a: 1});
assert(res instanceof WriteCommandError, tojson(res));
assert.commandFailed(res);

// Bulk API: execute() returns a BulkWriteResult and throws BulkWriteError on write errors.
let bulk = coll.initializeOrderedBulkOp();
bulk.insert({_id: 10});
bulk.find({_id: 10}).updateOne({$set: {x: 1}});
bulk.find({_id: 11}).upsert().replaceOne({y: 1});
bulk.find({_id: 10}).removeOne();
res = bulk.execute();
assert.eq(1, res.nInserted);
assert.eq(1, res.nUpserted);
assert.eq(1, res.nMatched);
assert.eq(1, res.nRemoved);
bulk = coll.initializeUnorderedBulkOp();
bulk.insert({_id: 11});
const e = assert.throws(() => bulk.execute());
assert(e instanceof BulkWriteError, tojson(e));
assert.eq(ErrorCodes.DuplicateKey, e.getWriteErrorAt(0).code);

// Cursors: DBQuery modifiers, getMore through small batches, DBCommandCursor.
coll.drop();
for (let i = 0; i < 25; i++) assert.commandWorked(coll.insert({_id: i, g: i % 3}));
assert.eq(25, coll.find().batchSize(2).itcount());
assert.eq([24, 23], coll.find({}, {_id: 1}).sort({_id: -1}).limit(2).toArray().map((d) => d._id));
assert.eq(5, coll.find().skip(20).toArray().length);
assert.eq(9, coll.find({g: 0}).count());
assert.eq(2, coll.find({g: 0}).limit(2).size());
assert.eq([0, 1, 2], coll.distinct("g").sort());
const agg = coll.aggregate([{$group: {_id: "$g", n: {$sum: 1}}}, {$sort: {_id: 1}}], {cursor: {batchSize: 1}});
assert(agg instanceof DBCommandCursor);
assert.eq([9, 8, 8], agg.toArray().map((d) => d.n));
const raw = assert.commandWorked(db.runCommand({find: coll.getName(), batchSize: 3}));
assert.eq(25, new DBCommandCursor(db, raw, 4).itcount());
assert.eq(null, coll.findOne({_id: "none"}));

// Explain through the query, the explainable and aggregate's explain option.
assert(coll.find({g: 1}).explain().queryPlanner, "find explain");
assert(coll.explain("executionStats").find({g: 1}).finish().executionStats);
assert(coll.explain().aggregate([{$match: {g: 1}}]).ok);
assert(coll.aggregate([{$match: {g: 1}}], {explain: true}).ok);
assert.eq(1, coll.explain().count({g: 1}).ok);

// findAndModify and the CRUD API.
assert.eq(1, coll.findAndModify({query: {_id: 5}, update: {$set: {z: 1}}, new: true}).z);
assert.eq(1, coll.updateOne({_id: 6}, {$set: {z: 2}}).modifiedCount);
assert.eq(1, coll.deleteOne({_id: 6}).deletedCount);
assert.throws(() => coll.insertOne({_id: 5}));

// Indexes and collection helpers.
assert.commandWorked(coll.createIndex({g: 1}));
assert.eq(2, coll.getIndexes().length);
assert.commandWorked(coll.dropIndex({g: 1}));
assert(coll.exists());
assert(db.getCollectionNames().includes(coll.getName()));
assert.eq("test." + coll.getName(), coll.getFullName());
assert.eq("legacy_shell_api.sub", coll.sub.getName());
assert.eq(db.getSiblingDB("admin").getName(), "admin");
assert.commandWorked(db.adminCommand({ping: 1}));
assert.commandFailedWithCode(db.runCommand({noSuchCommand: 1}), ErrorCodes.CommandNotFound);

// Time-series: the view and its buckets collection as properties.
db.ts_legacy.drop();
assert.commandWorked(db.createCollection("ts_legacy", {timeseries: {timeField: "t", metaField: "m"}}));
assert.commandWorked(db.ts_legacy.insert([{t: ISODate("2024-01-01T00:00:00Z"), m: 1, v: 1},
                                          {t: ISODate("2024-01-01T00:00:01Z"), m: 1, v: 2}]));
assert.eq(2, db.ts_legacy.find().itcount());
assert.eq(1, db.system.buckets.ts_legacy.find().itcount());
assert.eq(2, db.system.buckets.ts_legacy.findOne().control.count);

// Parallel shells see TestData and the server; join() returns the exit code.
const join = startParallelShell(() => {
    assert.commandWorked(db.getSiblingDB("test").legacy_parallel.insert({fromParallel: true}));
});
assert.eq(0, join());
assert.eq(1, db.legacy_parallel.find({fromParallel: true}).itcount());
db.legacy_parallel.drop();
const failing = startParallelShell("assert(false, 'deliberate');");
assert.neq(0, failing());

// decompressBSONColumn: a compressed bucket's columns as {"0": v0, "1": v1, ...}.
const bucket = db.system.buckets.ts_legacy.findOne();
assert.eq(2, bucket.control.version);
const times = decompressBSONColumn(bucket.data.t);
assert.eq({"0": ISODate("2024-01-01T00:00:00Z"), "1": ISODate("2024-01-01T00:00:01Z")}, times);
assert.eq({"0": 1, "1": 2}, decompressBSONColumn(bucket.data.v));
assert.throws(() => decompressBSONColumn(BinData(0, "AAAA")));
assert.throws(() => decompressBSONColumn(BinData(7, "/////w==")));

// Legacy argument forms: the caller's object gets its _id; an ObjectId as a query means
// {_id: it}; cursor[i] reads the i-th result.
db.legacy_forms.drop();
const o = {n: 2};
db.legacy_forms.save(o);
assert(o._id instanceof ObjectId, tojson(o));
assert.eq(2, db.legacy_forms.find(o._id).toArray()[0].n);
assert.eq(2, db.legacy_forms.find()[0].n);
assert.eq(1, db.legacy_forms.remove(o._id).nRemoved);

// assert.eq starts with `==` as the legacy shell's does: a primitive equals an object that
// coerces to it (upstream write/basic.js asserts eq(0, <empty distinct result>)).
assert.eq(0, []);
assert.eq("1", [1]);
assert.neq(0, [1]);
assert.neq({a: 1}, {a: 2});

// Newer upstream helpers: insert([]) writes nothing, getIndexByName, jsTest.log.info(msg, attrs).
db.legacy_newer.drop();
assert.commandWorked(db.legacy_newer.insert([]));
assert.eq(0, db.legacy_newer.countDocuments({}));
assert.commandWorked(db.legacy_newer.createIndex({a: 1}));
assert.eq({a: 1}, db.legacy_newer.getIndexByName("a_1").key);
assert.eq(undefined, db.legacy_newer.getIndexByName("nope"));
jsTest.log.info("structured log line", {x: 1});

// A bulk of several kinds of writes has no single WriteResult.
{
    const b = coll.initializeOrderedBulkOp();
    b.insert({_id: "single1"});
    b.find({_id: "single1"}).updateOne({$set: {x: 1}});
    const r = b.execute();
    assert.throws(() => r.toSingleResult());
    const one = coll.initializeOrderedBulkOp();
    one.insert({_id: "single2"});
    assert.eq(1, one.execute().toSingleResult().nInserted);
}

// A BulkWriteError carries the counters of what was written before the error.
{
    const b = coll.initializeOrderedBulkOp();
    b.insert({_id: "bwe1"});
    b.insert({_id: "bwe1"});
    const err = assert.throws(() => b.execute());
    assert(err instanceof BulkWriteError);
    assert.eq(1, err.nInserted);
    assert.eq(0, err.getUpsertedIds().length);
}
