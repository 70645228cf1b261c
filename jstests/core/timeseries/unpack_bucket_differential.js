/**
 * Differential test of the $_internalUnpackBucket rewrites: randomized measurements
 * (several series, a series without meta, missing fields, mixed types, out-of-order
 * times, enough data to roll buckets over) are stored both in a time-series collection
 * and in a plain collection; every pipeline of a list must return the same documents
 * from both (compared in order when the pipeline defines one, as a multiset otherwise),
 * and the same again with the rewrites off ($_internalInhibitOptimization after the view's
 * unpacking stage).
 */
load("jstests/libs/query_helpers.js");
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];
const base = ISODate("2024-03-01T00:00:00Z").getTime();

const rand = seededRandom(4242).int;  // same data on every run

/** Field order does not matter (measurements unpack time first): sort keys recursively. */
function canon(v) {
    if (v instanceof Array)
        return v.map(canon);
    if (v !== null && typeof v === "object" && !(v instanceof Date) && v._bsontype === undefined) {
        const out = {};
        for (const k of Object.keys(v).sort())
            out[k] = canon(v[k]);
        return out;
    }
    return v;
}
const key = (d) => tojson(canon(d));

function makeValue() {
    switch (rand(10)) {
        case 0: return null;
        case 1: return "s" + rand(20);
        case 2: return {a: rand(5), b: rand(5)};
        case 3: return [rand(5), rand(5)];
        default: return rand(1000) - 100;
    }
}

function setUp() {
    ts.drop();
    plain.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(db.createCollection(plain.getName()));
    const n = 2600;
    // Distinct times (a permutation of minutes over ~2 days), inserted out of order.
    const times = [];
    for (let i = 0; i < n; i++)
        times.push(base + i * 60 * 1000 + rand(60) * 1000);
    const docs = [];
    for (let i = 0; i < n; i++) {
        const d = {_id: i, t: new Date(times[i])};
        const s = rand(6);
        if (s < 5)
            d.m = {host: "h" + s, rack: s % 2};
        if (rand(5) != 0)
            d.x = rand(4) == 0 ? makeValue() : rand(1000) - 100;
        if (rand(3) == 0)
            d.y = makeValue();
        if (rand(2) == 0)
            d.z = rand(50);
        docs.push(d);
    }
    for (let i = docs.length - 1; i > 0; i--) {  // shuffle in chunks: out-of-order batches
        if (rand(3) != 0)
            continue;
        const j = Math.max(0, i - 1 - rand(200));
        const tmp = docs[i]; docs[i] = docs[j]; docs[j] = tmp;
    }
    for (let i = 0; i < docs.length; i += 100) {
        assert.commandWorked(ts.insertMany(docs.slice(i, i + 100), {ordered: false}));
        assert.commandWorked(plain.insertMany(docs.slice(i, i + 100)));
    }
}

const D = (h) => new Date(base + h * 3600 * 1000);

// [pipeline, ordered]: ordered pipelines must agree element by element.
const pipelines = [
    [[], false],
    [[{$match: {t: {$gte: D(5)}}}], false],
    [[{$match: {t: {$gt: D(3), $lt: D(9)}}}], false],
    [[{$match: {t: {$lte: D(1)}}}], false],
    [[{$match: {"m.host": "h2"}}], false],
    [[{$match: {m: {host: "h3", rack: 1}}}], false],
    [[{$match: {m: {$exists: false}}}], false],
    [[{$match: {m: null}}], false],
    [[{$match: {x: {$gt: 500}}}], false],
    [[{$match: {x: {$lte: 10}}}], false],
    [[{$match: {x: null}}], false],
    [[{$match: {x: {$exists: true}, y: {$exists: false}}}], false],
    [[{$match: {x: {$in: [1, 2, 3, 50, "s3"]}}}], false],
    [[{$match: {$or: [{x: {$lt: 0}}, {t: {$gt: D(40)}}]}}], false],
    [[{$match: {$or: [{"m.host": "h1"}, {"m.rack": 0}]}}], false],
    [[{$match: {y: {$type: "string"}}}], false],
    [[{$match: {"y.a": {$gte: 2}}}], false],
    [[{$match: {"m.host": "h4", t: {$gte: D(10)}}}, {$project: {_id: 1, x: 1}}], false],
    [[{$sort: {t: 1}}], true],
    [[{$sort: {t: -1}}], true],
    [[{$sort: {t: 1}}, {$limit: 17}], true],
    [[{$sort: {t: -1}}, {$limit: 33}], true],
    [[{$match: {"m.host": "h0"}}, {$sort: {t: -1}}, {$limit: 10}], true],
    [[{$match: {x: {$gte: 100}}}, {$sort: {t: 1}}, {$limit: 25}], true],
    [[{$sort: {"m.host": 1, t: 1}}], true],
    [[{$sort: {"m.host": -1, t: -1}}, {$limit: 40}], true],
    [[{$sort: {m: 1, t: -1}}, {$project: {_id: 1, t: 1}}], true],
    [[{$sort: {"m.host": 1}}, {$limit: 5}, {$project: {_id: 0, m: 1}}], true],
    [[{$limit: 7}, {$count: "n"}], true],
    [[{$count: "n"}], true],
    [[{$match: {"m.rack": 1}}, {$count: "n"}], true],
    [[{$match: {t: {$gte: D(20)}}}, {$count: "n"}], true],
    [[{$group: {_id: "$m.host", n: {$sum: 1}}}], false],
    [[{$group: {_id: "$m", lo: {$min: "$x"}, hi: {$max: "$x"}}}], false],
    [[{$group: {_id: null, lo: {$min: "$y"}, hi: {$max: "$y"}, n: {$count: {}}}}], false],
    [[{$group: {_id: "$m.rack", last: {$max: "$t"}, lo: {$min: "$z"}}}], false],
    [[{$group: {_id: {h: "$m.host", k: "c"}, hi: {$max: "$_id"}, lo: {$min: "$_id"}}}], false],
    [[{$match: {"m.host": {$in: ["h1", "h2"]}}}, {$group: {_id: "$m.host", lo: {$min: "$x"}}}], false],
    [[{$match: {x: {$gte: 0}}}, {$group: {_id: "$m.host", lo: {$min: "$x"}, n: {$sum: 1}}}], false],
    [[{$group: {_id: "$m.host", first: {$min: "$t"}}}], false],
    [[{$sort: {"m.host": 1, t: -1}}, {$group: {_id: "$m.host", last: {$first: "$t"}, x: {$first: "$x"}}}], false],
    [[{$project: {_id: 0, x: 1, t: 1}}, {$match: {x: {$type: "number"}}}], false],
    [[{$addFields: {w: {$multiply: ["$z", 2]}}}, {$group: {_id: null, s: {$sum: "$w"}}}], false],
    // Last-point (latest / earliest per series; missing fields; $match before).
    [[{$sort: {m: 1, t: -1}}, {$group: {_id: "$m", t: {$first: "$t"}, x: {$first: "$x"}, y: {$first: "$y"}}}], false],
    [[{$sort: {t: 1}}, {$group: {_id: "$m.host", t: {$last: "$t"}, x: {$last: "$x"}}}], false],
    [[{$sort: {"m.host": 1, t: 1}}, {$group: {_id: "$m.host", t: {$first: "$t"}, z: {$first: "$z"}}}], false],
    [[{$sort: {t: -1}}, {$group: {_id: "$m", t: {$last: "$t"}, x: {$last: "$x"}}}], false],
    [[{$sort: {t: -1}}, {$group: {_id: null, t: {$first: "$t"}, x: {$first: "$x"}}}], false],
    [[{$group: {_id: "$m.host", p: {$top: {sortBy: {t: -1}, output: ["$t", "$x"]}}}}], false],
    [[{$group: {_id: {h: "$m.host", r: "$m.rack"}, p: {$bottom: {sortBy: {t: -1}, output: {t: "$t", y: "$y"}}}}}], false],
    [[{$match: {"m.rack": 1}}, {$sort: {"m.host": 1, t: -1}}, {$group: {_id: "$m.host", t: {$first: "$t"}, x: {$first: "$x"}}}], false],
    [[{$match: {m: {$exists: false}}}, {$sort: {t: 1}}, {$group: {_id: "$m", t: {$first: "$t"}, y: {$first: "$y"}}}], false],
    [[{$match: {t: {$lt: D(30)}}}, {$sort: {m: 1, t: -1}}, {$group: {_id: "$m", t: {$first: "$t"}, x: {$first: "$x"}}}], false],
    [[{$match: {t: {$gte: D(12)}}}, {$sort: {m: 1, t: 1}}, {$group: {_id: "$m", t: {$first: "$t"}, x: {$first: "$x"}}}], false],
    // Computed meta projections (evaluated per bucket) and $match on their fields.
    [[{$set: {h: {$concat: ["$m.host", "-", {$toString: "$m.rack"}]}, w: "$z"}}], false],
    [[{$addFields: {x: "$m.rack"}}], false],  // replaces a measurement field
    [[{$addFields: {h: "$m.host", r: {$ifNull: ["$m.rack", -1]}}}, {$match: {h: "h1"}}], false],
    [[{$addFields: {h: "$m.host"}}, {$match: {h: {$in: ["h1", "h3"]}, x: {$gt: 100}}}], false],
    [[{$addFields: {h: "$m.host"}}, {$match: {$or: [{h: "h2"}, {x: {$lt: 0}}]}}], false],
    [[{$addFields: {h: "$m.host"}}, {$match: {h: null}}], false],
    [[{$addFields: {h: "$m.host"}}, {$match: {h: "h0", t: {$lt: D(20)}}}, {$sort: {t: 1}}], true],
    [[{$addFields: {h: "$m.host"}}, {$group: {_id: "$h", n: {$sum: 1}, hi: {$max: "$x"}}}], false],
    [[{$match: {x: {$gt: 50}}}, {$addFields: {x: "$m.host"}}], false],  // filter reads the old x
    [[{$project: {h: "$m.host", x: 1}}], false],
    [[{$project: {_id: 0, t: 1, h: {$toUpper: "$m.host"}, y2: {$ifNull: ["$y", "none"]}}}], false],
    [[{$project: {h: "$m.host", r: "$m.rack"}}, {$match: {r: 1, h: {$ne: "h3"}}}], false],
    [[{$addFields: {h: "$m.host", t2: "$t"}}], false],  // t2 reads time: stays after unpacking
    // Projection internalisation (include/exclude lists) and streaming groups.
    [[{$project: {x: 1, m: 1}}], false],
    [[{$project: {_id: 0, t: 1, y: 1}}, {$sort: {t: -1}}], true],
    [[{$project: {m: 0, z: 0}}, {$match: {x: {$gt: 300}}}], false],
    [[{$unset: ["t", "y"]}], false],
    [[{$match: {x: {$lt: 50}}}, {$project: {x: 1}}], false],
    [[{$sort: {t: 1}}, {$group: {_id: {$dateTrunc: {date: "$t", unit: "hour"}}, n: {$sum: 1}, hi: {$max: "$x"}}}], true],
    [[{$sort: {t: -1}}, {$group: {_id: {h: "$m.host", d: {$dateTrunc: {date: "$t", unit: "day"}}}, lo: {$min: "$z"}}}], false],
    [[{$match: {"m.rack": 0}}, {$sort: {t: 1}}, {$group: {_id: {$dateTrunc: {date: "$t", unit: "minute", binSize: 30}}, s: {$sum: "$z"}}}], true],
];

/**
 * The same pipeline with the rewrites off: run over the buckets collection behind the view's
 * own $_internalUnpackBucket stage, with $_internalInhibitOptimization keeping every rewrite
 * from looking past the unpacking.
 */
function withoutRewrites(p) {
    const view = db.system.views.findOne({_id: ts.getFullName()});
    const stages = view.pipeline.concat([{$_internalInhibitOptimization: {}}], p);
    return db.getCollection("system.buckets." + ts.getName()).aggregate(stages);
}

function assertSame(expected, actual, ordered, p, what) {
    const a = actual.map(key);
    const b = expected.map(key);
    if (!ordered) {
        a.sort();
        b.sort();
    }
    assert.eq(b.length, a.length, what + ": count differs for " + tojson(p));
    for (let i = 0; i < a.length; i++)
        assert.eq(b[i], a[i], what + ": result " + i + " differs for " + tojson(p));
}

function runAll() {
    setUp();
    for (const [p, ordered] of pipelines) {
        const expected = plain.aggregate(p).toArray();
        assertSame(expected, ts.aggregate(p).toArray(), ordered, p, "rewrites on");
        assertSame(expected, withoutRewrites(p).toArray(), ordered, p, "rewrites off");
    }
    // The unoptimised form really is unoptimised: no bucket-level stage before the unpacking.
    const explain = db.getCollection("system.buckets." + ts.getName())
                        .explain("queryPlanner")
                        .aggregate(db.system.views.findOne({_id: ts.getFullName()})
                                       .pipeline.concat([{$_internalInhibitOptimization: {}},
                                                         {$match: {x: {$gt: 500}}}]));
    const unpack = explain.stages.find(s => s.$_internalUnpackBucket);
    assert(unpack && !unpack.$_internalUnpackBucket.eventFilter, tojson(explain));
}

runAll();
