/**
 * $_internalUnpackBucket with its $match rewrite (bucket-level predicates pushed before
 * unpacking, the rest of the filter kept as eventFilter) returns exactly what the same
 * filter returns over the measurements stored in a plain collection. The buckets are
 * written directly (v1 layout) behind a view whose pipeline unpacks them.
 */
db.getCollection("system.buckets.ts").drop(); db.ts.drop(); db.plain.drop();
db.createCollection("system.buckets.ts");
db.createCollection("ts", {viewOn: "system.buckets.ts", pipeline: [{$_internalUnpackBucket: {timeField: "t", metaField: "m", bucketMaxSpanSeconds: 3600}}]});
const base = 1700000000000;
let rnd = 12345; function r(n) { rnd = (rnd * 1103515245 + 12345) % 2147483648; return rnd % n; }
let plain = [];
for (let b = 0; b < 60; b++) {
  const host = "h" + (b % 5);
  const start = base + Math.floor(b / 5) * 3600 * 1000;
  const n = 1 + r(20);
  let data = {t: {}, x: {}, s: {}, _id: {}};
  let tmin = null, tmax = null, xmin = null, xmax = null, smin = null, smax = null;
  for (let i = 0; i < n; i++) {
    const t = new Date(start + r(3600) * 1000);
    const id = ObjectId();
    data.t[String(i)] = t; data._id[String(i)] = id;
    let m = {t: t, m: {host: host}, _id: id};
    if (r(4) != 0) { const x = r(100); data.x[String(i)] = x; m.x = x; xmin = xmin === null ? x : Math.min(xmin, x); xmax = xmax === null ? x : Math.max(xmax, x); }
    if (r(3) == 0) { const s = "s" + r(10); data.s[String(i)] = s; m.s = s; smin = smin === null || s < smin ? s : smin; smax = smax === null || s > smax ? s : smax; }
    tmin = tmin === null || t < tmin ? t : tmin; tmax = tmax === null || t > tmax ? t : tmax;
    plain.push(m);
  }
  let min = {t: new Date(start)}, max = {t: tmax};
  if (xmin !== null) { min.x = xmin; max.x = xmax; }
  if (smin !== null) { min.s = smin; max.s = smax; }
  const oid = ObjectId(Math.floor(start / 1000).toString(16).padStart(8, "0") + "0000000000000000");
  db.getCollection("system.buckets.ts").insertOne({_id: ObjectId(oid.toHexString().substr(0, 8) + b.toString(16).padStart(16, "0")), control: {version: 1, min: min, max: max}, meta: {host: host}, data: data});
}
db.plain.insertMany(plain);
db.getCollection("system.buckets.ts").createIndex({meta: 1, "control.min.t": 1, "control.max.t": 1});
const D = (h) => new Date(base + h * 3600 * 1000);
const queries = [
  {}, {t: {$gte: D(3)}}, {t: {$gt: D(2.5), $lt: D(7)}}, {t: {$lte: D(1)}}, {t: D(0)},
  {"m.host": "h2"}, {m: {host: "h3"}, t: {$gte: D(5)}}, {x: {$gt: 50}}, {x: {$lte: 10}}, {x: 42},
  {s: {$gte: "s5"}}, {$or: [{x: {$lt: 5}}, {t: {$gt: D(10)}}]}, {$and: [{x: {$gte: 20}}, {x: {$lt: 30}}]},
  {x: {$in: [1, 2, 3]}}, {x: {$exists: false}}, {t: {$in: [D(0), D(1)]}},
];
for (const q of queries) {
  const a = db.ts.find(q).sort({_id: 1}).toArray();
  const b = db.plain.find(q).sort({_id: 1}).toArray();
  const same = JSON.stringify(a.map(d => d._id)) === JSON.stringify(b.map(d => d._id));
  assert(same, "different results for " + tojson(q) + ": view " + a.length + ", plain " + b.length);
}

// The bucket-level filter runs below the unpacking; the eventFilter keeps what the buckets do
// not decide exactly: the meta conjunct goes (spec 5.3 split), and explain prints the parsed tree.
const pipeline = [{$match: {"m.host": "h1", t: {$gte: D(3), $lt: D(6)}}}];
const explain = db.ts.explain("queryPlanner").aggregate(pipeline);
const unpack = explain.stages.find(s => s.$_internalUnpackBucket);
assert(unpack, tojson(explain));
assert.docEq({$and: [{t: {$gte: D(3)}}, {t: {$lt: D(6)}}]}, unpack.$_internalUnpackBucket.eventFilter);
assert.eq(db.ts.aggregate(pipeline).toArray().length,
          db.plain.aggregate(pipeline).toArray().length);

// Pipelines that need only some fields unpack only those (include list) and still
// return the same results as over the plain collection.
const pipelines = [
    [{$group: {_id: "$m.host", avgX: {$avg: "$x"}, n: {$sum: 1}}}, {$sort: {_id: 1}}],
    [{$match: {x: {$gte: 10}}}, {$project: {_id: 0, x: 1}}, {$sort: {x: 1}}],
    [{$match: {t: {$gte: D(4)}}}, {$count: "n"}],
    [{$sort: {t: -1, _id: 1}}, {$limit: 5}, {$project: {_id: 1, t: 1}}],
    [{$addFields: {y: {$multiply: ["$x", 2]}}}, {$group: {_id: null, s: {$sum: "$y"}}}],
];
for (const p of pipelines) {
    const a = db.ts.aggregate(p).toArray();
    const b = db.plain.aggregate(p).toArray();
    // Field order differs (measurements unpack time first), values do not.
    assert.eq(a.length, b.length, "pipeline " + tojson(p));
    for (let i = 0; i < a.length; i++)
        assert.docEq(b[i], a[i], "pipeline " + tojson(p));
}
const groupExplain = db.ts.explain("queryPlanner").aggregate(pipelines[0]);
const groupUnpack = groupExplain.stages.find(s => s.$_internalUnpackBucket).$_internalUnpackBucket;
assert.sameMembers(["m", "x"], groupUnpack.include, tojson(groupUnpack));
