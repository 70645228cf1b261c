/**
 * $group queries on a time-series view answered from rollup levels (this project's extension,
 * src/mongo/db/timeseries/rollups/README.md, "Queries"): a differential test of random aligned
 * and unaligned group queries with rollups on and off ($_internalRollups: false), explain's
 * `rollups` section (which level served which range, or the raw path), and the shapes that
 * must take the raw path. Doubles (sums and averages of doubles, which the levels add in
 * another order) are compared with a relative tolerance of 1e-9; everything else exactly,
 * types included.
 */
const name = jsTestName();
const coll = db[name];
coll.drop();
assert.commandWorked(db.runCommand({
    create: name,
    timeseries: {
        timeField: "t",
        metaField: "m",
        rollups: [
            {granularity: "minutes", fields: {v: ["min", "max", "sum", "count", "first", "last"], w: ["sum", "count"]}},
            {bucketSpanSeconds: 900, fields: {v: ["min", "max", "sum", "count"]}},
            {granularity: "hours", fields: {v: ["min", "max", "sum", "count", "first", "last"]}},
        ],
    },
}));

const base = ISODate("2026-05-01T00:00:00Z").getTime();
let seed = 11;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
const hosts = ["a", "b", "c", "d"];
const docs = [];
const used = new Set();
for (let i = 0; i < 6000; i++) {
    let ms;
    do {
        ms = base + Math.floor(rand() * 3 * 86400) * 1000;  // three days
    } while (used.has(ms));  // distinct times: $first/$last are defined
    used.add(ms);
    const doc = {t: new Date(ms), m: {host: pick(hosts), dc: pick([1, 2])}};
    const r = rand();
    if (r < 0.5) doc.v = Math.floor(rand() * 1000);
    else if (r < 0.8) doc.v = rand() * 100;
    else if (r < 0.9) doc.v = NumberLong(String(Math.floor(rand() * 100000)));
    else if (r < 0.95) doc.v = "text";
    if (rand() < 0.7) doc.w = NumberInt(Math.floor(rand() * 10));
    docs.push(doc);
}
for (let i = 0; i < docs.length; i += 500)
    assert.commandWorked(coll.insertMany(docs.slice(i, i + 500), {ordered: false}));

function run(pipeline, rollups) {
    const cmd = {aggregate: name, pipeline: pipeline, cursor: {batchSize: 100000}};
    if (!rollups) cmd.$_internalRollups = false;
    const res = assert.commandWorked(db.runCommand(cmd));
    assert.eq(0, res.cursor.id);
    return res.cursor.firstBatch;
}

function explainRollups(pipeline) {
    const res = assert.commandWorked(db.runCommand({aggregate: name, pipeline: pipeline, explain: true}));
    return res.rollups;
}

function isDouble(x) {
    return typeof x === "number" && !Number.isInteger(x);
}

function sameValue(a, b, path) {
    if (a instanceof Date || b instanceof Date) {
        assert.eq(tojson(a), tojson(b), path);
        return;
    }
    if (a !== null && b !== null && typeof a === "object" && typeof b === "object" &&
        !(a instanceof NumberLong) && !(b instanceof NumberLong) &&
        !(a instanceof NumberDecimal) && !(b instanceof NumberDecimal)) {
        assert.eq(Object.keys(a), Object.keys(b), path);
        for (const k of Object.keys(a)) sameValue(a[k], b[k], path + "." + k);
        return;
    }
    if (isDouble(a) || isDouble(b)) {
        assert(typeof a === "number" && typeof b === "number", path + ": " + tojson(a) + " vs " + tojson(b));
        assert.lte(Math.abs(a - b), 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)), path);
        return;
    }
    assert.eq(tojson(a), tojson(b), path);
}

function sameResults(pipeline) {
    const key = (d) => tojson(d._id);
    const raw = run(pipeline, false).sort((x, y) => key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);
    const rolled = run(pipeline, true).sort((x, y) => key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0);
    assert.eq(raw.length, rolled.length, tojson(pipeline));
    for (let i = 0; i < raw.length; i++) sameValue(raw[i], rolled[i], tojson(pipeline) + " [" + i + "]");
    return raw.length;
}

// Random group queries.
const units = [
    ["minute", [1, 2, 5, 15, 30]], ["hour", [1, 2, 3, 6]], ["day", [1]], ["second", [60, 900, 3600]],
    ["week", [1]], ["month", [1]],
];
const accumulators = [
    () => ({$min: "$v"}), () => ({$max: "$v"}), () => ({$sum: "$v"}), () => ({$avg: "$v"}),
    () => ({$sum: 1}), () => ({$count: {}}), () => ({$sum: "$w"}), () => ({$avg: "$w"}),
    () => ({$min: "$t"}), () => ({$max: "$t"}),
];
let servedByLevel = {60: 0, 900: 0, 3600: 0, raw: 0};
for (let q = 0; q < 60; q++) {
    const [unit, sizes] = pick(units);
    const trunc = {$dateTrunc: {date: "$t", unit: unit, binSize: pick(sizes)}};
    const keyShape = pick(["bin", "bin+host", "bin+meta", "host", "null"]);
    let id;
    if (keyShape === "bin") id = trunc;
    else if (keyShape === "bin+host") id = {bin: trunc, host: "$m.host"};
    else if (keyShape === "bin+meta") id = {m: "$m", bin: trunc};
    else if (keyShape === "host") id = "$m.host";
    else id = null;
    const group = {_id: id};
    const nAcc = 1 + Math.floor(rand() * 4);
    for (let k = 0; k < nAcc; k++) group["a" + k] = pick(accumulators)();
    const pipeline = [];
    const match = {};
    const rangeKind = pick(["none", "hour", "quarter", "minute", "unaligned"]);
    if (rangeKind !== "none") {
        const stepMs = {hour: 3600e3, quarter: 900e3, minute: 60e3, unaligned: 7e3}[rangeKind];
        const lo = base + Math.floor(rand() * 100) * stepMs;
        const hi = lo + (1 + Math.floor(rand() * 100)) * stepMs;
        match.t = {$gte: new Date(lo), $lt: new Date(hi)};
    }
    if (rand() < 0.4) match["m.host"] = pick(hosts);
    if (Object.keys(match).length) pipeline.push({$match: match});
    if (rand() < 0.4) {
        const dir = pick([1, -1]);
        pipeline.push({$sort: {t: dir}});
        group.f = {$first: "$v"};
        group.l = {$last: "$v"};
    }
    pipeline.push({$group: group});
    if (rand() < 0.3) pipeline.push({$sort: {_id: 1}}, {$limit: 20});
    sameResults(pipeline);
    const ex = explainRollups(pipeline);
    assert(ex, tojson(pipeline));
    if (ex.rawPath) {
        servedByLevel.raw++;
        // Unaligned ranges cannot be served by any level.
        if (rangeKind === "unaligned" && match.t.$gte.getTime() % 60000 !== 0) assert(ex.rawPath);
    } else {
        servedByLevel[ex.servedBy[0].bucketSpanSeconds]++;
        assert.eq(false, ex.rawPath);
    }
}
jsTestLog("levels used: " + tojson(servedByLevel));
assert.gt(servedByLevel[60] + servedByLevel[900] + servedByLevel[3600], 20, tojson(servedByLevel));
assert.gt(servedByLevel.raw, 0, tojson(servedByLevel));

// The coarsest exact level serves, and explain says which one and for which range.
const lo = new Date(base + 3600e3), hi = new Date(base + 5 * 3600e3);
const hourly = [{$match: {t: {$gte: lo, $lt: hi}, "m.host": "a"}},
                {$group: {_id: {h: "$m.host", bin: {$dateTrunc: {date: "$t", unit: "hour"}}}, avg: {$avg: "$v"}, n: {$sum: 1}}}];
assert.eq(4, sameResults(hourly));
let ex = explainRollups(hourly);
assert.eq([{bucketSpanSeconds: 3600, ns: db.getName() + ".system.rollups." + name + ".3600", from: lo, to: hi}],
          ex.servedBy, tojson(ex));
// Counts keep the raw path's type (int), averages are doubles.
const rows = run(hourly, true);
assert.eq("number", typeof rows[0].n);
assert(Number.isInteger(rows[0].n));
// 15 minutes: the 900 s level; an accumulator only the minute level keeps: the minute level.
ex = explainRollups([{$group: {_id: {$dateTrunc: {date: "$t", unit: "minute", binSize: 30}}, s: {$sum: "$v"}}}]);
assert.eq(900, ex.servedBy[0].bucketSpanSeconds, tojson(ex));
ex = explainRollups([{$group: {_id: {$dateTrunc: {date: "$t", unit: "minute", binSize: 30}}, s: {$sum: "$w"}}}]);
assert.eq(60, ex.servedBy[0].bucketSpanSeconds, tojson(ex));

// Shapes that take the raw path.
for (const p of [
    [{$match: {v: {$gt: 5}}}, {$group: {_id: null, n: {$sum: 1}}}],                       // a measurement predicate
    [{$match: {t: {$gte: new Date(base + 1000), $lt: new Date(base + 50000)}}},         // inside one minute
     {$group: {_id: null, n: {$sum: 1}}}],
    [{$group: {_id: {$dateTrunc: {date: "$t", unit: "second", binSize: 30}}, n: {$sum: 1}}}],
    [{$group: {_id: {$dateTrunc: {date: "$t", unit: "hour", timezone: "Europe/Paris"}}, n: {$sum: 1}}}],
    [{$group: {_id: "$v", n: {$sum: 1}}}],                                               // key on a measurement
    [{$group: {_id: null, f: {$first: "$v"}}}],                                          // $first without a sort
    [{$group: {_id: null, s: {$stdDevPop: "$v"}}}],
    [{$group: {_id: null, s: {$sum: "$x"}}}],                                            // not kept
    [{$group: {_id: null, s: {$sum: 2}}}],
    [{$project: {t: 1, v: 1}}, {$group: {_id: null, s: {$sum: "$v"}}}],
]) {
    assert.eq(true, explainRollups(p).rawPath, tojson(p));
    sameResults(p);
}
// Unaligned bounds: the whole bins of the coarsest level, the edges from finer levels and at
// last from the raw measurements; $gt and $lte bounds too.
const from = new Date(base + 7000), to = new Date(base + 2.5 * 3600e3 + 13000);
const unaligned = [{$match: {t: {$gte: from, $lt: to}}},
                   {$group: {_id: {$dateTrunc: {date: "$t", unit: "hour"}}, s: {$sum: "$v"}, n: {$count: {}},
                             mn: {$min: "$v"}, a: {$avg: "$v"}, first: {$min: "$t"}}}];
assert.eq(3, sameResults(unaligned));
ex = explainRollups(unaligned);
const pieces = ex.servedBy.map(p => [p.raw ? "raw" : p.bucketSpanSeconds, p.from.getTime() - base, p.to.getTime() - base]);
assert.eq([["raw", 7000, 60e3], [60, 60e3, 900e3], [900, 900e3, 3600e3], [3600, 3600e3, 7200e3],
           [900, 7200e3, 9000e3], ["raw", 9000e3, 9013e3]],
          pieces, tojson(ex));
for (const range of [{$gt: from}, {$gt: from, $lte: to}, {$lte: to}, {$gte: lo, $lte: hi}]) {
    for (const withSort of [false, true]) {
        const p = [{$match: {t: range, "m.host": "b"}}];
        const g = {_id: {h: "$m.host", d: {$dateTrunc: {date: "$t", unit: "minute", binSize: 15}}},
                   n: {$sum: 1}, mx: {$max: "$v"}};
        if (withSort) {
            p.push({$sort: {t: -1}});
            g.f = {$first: "$v"};
            g.l = {$last: "$v"};
        }
        p.push({$group: g});
        sameResults(p);
        assert.eq(false, explainRollups(p).rawPath, tojson(p));
    }
}

// A request collation or hint takes the raw path too.
ex = assert.commandWorked(db.runCommand({aggregate: name, pipeline: [{$group: {_id: null, n: {$sum: 1}}}],
                                         explain: true, collation: {locale: "en"}}));
assert.eq(true, ex.rollups.rawPath);

// Fresh writes are seen at once: the levels are caught up before they answer.
assert.commandWorked(coll.insert({t: new Date(base + 10), m: {host: "a", dc: 1}, v: -1e6}));
const maxPipeline = [{$group: {_id: null, mn: {$min: "$v"}}}];
assert.eq(-1e6, run(maxPipeline, true)[0].mn);
assert.eq(false, explainRollups(maxPipeline).rawPath);

// A collection without levels has no rollups section.
const plain = db[name + "_plain"];
plain.drop();
assert.commandWorked(db.runCommand({create: plain.getName(), timeseries: {timeField: "t"}}));
ex = assert.commandWorked(db.runCommand({aggregate: plain.getName(), pipeline: [{$group: {_id: null, n: {$sum: 1}}}], explain: true}));
assert.eq(undefined, ex.rollups);
plain.drop();
coll.drop();
