/**
 * Rollup levels of time-series collections (this project's extension,
 * src/mongo/db/timeseries/rollups/README.md): the options' rules, the level collections
 * created and dropped with the collection, rows kept equal to a recomputation from the raw
 * data through inserts (in and out of order), updates, deletes and direct bucket writes, collMod
 * of the levels, collStats' rollups section, and raw TTL leaving the rows alone (and the
 * queries the levels answer).
 * The suite runs mongod with ttlMonitorSleepSecs=1.
 */
const name = jsTestName();
const coll = db[name];
const pendingName = "system.rollups." + name + ".pending";

function levelColl(span) {
    return db.getCollection("system.rollups." + name + "." + span);
}

function createWith(rollups, extra) {
    coll.drop();
    return db.runCommand(
        Object.assign({create: name, timeseries: {timeField: "t", metaField: "m", rollups: rollups}},
                      extra || {}));
}

function waitCaughtUp() {
    assert.soon(() => db.getCollection(pendingName).countDocuments({}) === 0,
                "rollup catch-up did not finish", 30 * 1000);
}

// The rows of a level as the README defines them, computed here from the view with plain
// aggregation (not the server's own row pipeline), keyed by tojson(_id).
function expectedRows(span, fields) {
    const group = {
        _id: {t: {$dateTrunc: {date: "$t", unit: "second", binSize: span}}, m: "$m"},
        n: {$sum: 1},
        tmin: {$min: "$t"},
        tmax: {$max: "$t"},
    };
    for (const [f, accs] of Object.entries(fields)) {
        for (const acc of accs) {
            const out = f + "_" + acc;
            if (acc === "min") group[out] = {$min: "$" + f};
            if (acc === "max") group[out] = {$max: "$" + f};
            if (acc === "sum") group[out] = {$sum: "$" + f};
            if (acc === "count")
                group[out] = {$sum: {$cond: [{$isNumber: "$" + f}, 1, 0]}};
            if (acc === "first") group[out] = {$first: "$" + f};
            if (acc === "last") group[out] = {$last: "$" + f};
        }
    }
    const rows = {};
    // $first/$last after a sort on time: every time in this test is distinct per series.
    for (const g of coll.aggregate([{$sort: {t: 1}}, {$group: group}]).toArray())
        rows[tojson(g._id)] = g;
    return rows;
}

function checkLevel(span, fields) {
    const expected = expectedRows(span, fields);
    const actual = levelColl(span).find().toArray();
    assert.eq(Object.keys(expected).length, actual.length, "rows of level " + span);
    for (const row of actual) {
        const e = expected[tojson(row._id)];
        assert(e, "unexpected row " + tojson(row));
        assert.eq(row._id.t, row.t, tojson(row));
        assert.eq(e.n, row.n, tojson(row));
        assert.eq(e.tmin, row.tmin, tojson(row));
        assert.eq(e.tmax, row.tmax, tojson(row));
        for (const [f, accs] of Object.entries(fields))
            for (const acc of accs)
                assert.eq(e[f + "_" + acc], row.f[f][acc], f + "." + acc + " of " + tojson(row));
    }
}

function optionRules() {
    const bad = [
        // not coarser than the raw data
        [{granularity: "seconds", fields: {v: ["min"]}}],
        // both or neither span
        [{granularity: "minutes", bucketSpanSeconds: 60, fields: {v: ["min"]}}],
        [{fields: {v: ["min"]}}],
        // spans not increasing, not multiples, not dividing a day
        [{granularity: "hours", fields: {v: ["min"]}}, {granularity: "minutes", fields: {v: ["min"]}}],
        [{bucketSpanSeconds: 60, fields: {v: ["min"]}}, {bucketSpanSeconds: 90, fields: {v: ["min"]}}],
        [{bucketSpanSeconds: 7, fields: {v: ["min"]}}],
        // retention shorter than a finer level's, or set when finer data is kept forever
        [{granularity: "minutes", expireAfterSeconds: 100, fields: {v: ["min"]}},
         {granularity: "hours", expireAfterSeconds: 50, fields: {v: ["min"]}}],
        // fields
        [{granularity: "minutes", fields: {}}],
        [{granularity: "minutes", fields: {v: ["avg"]}}],
        [{granularity: "minutes", fields: {v: ["min", "min"]}}],
        [{granularity: "minutes", fields: {v: []}}],
        [{granularity: "minutes", fields: {v: "min"}}],
        [{granularity: "minutes", fields: {t: ["min"]}}],
        [{granularity: "minutes", fields: {m: ["min"]}}],
        [{granularity: "minutes", fields: {_id: ["min"]}}],
        [{granularity: "minutes", fields: {"a.b": ["min"]}}],
        [{granularity: "minutes", fields: {"$a": ["min"]}}],
    ];
    for (const rollups of bad)
        assert.commandFailedWithCode(createWith(rollups), ErrorCodes.InvalidOptions, tojson(rollups));
    // A level kept shorter than the raw data.
    assert.commandFailedWithCode(
        createWith([{granularity: "minutes", expireAfterSeconds: 10, fields: {v: ["min"]}}],
                   {expireAfterSeconds: 100}),
        ErrorCodes.InvalidOptions);
    // A level with a limit when the raw data is kept forever.
    assert.commandFailedWithCode(
        createWith([{granularity: "minutes", expireAfterSeconds: 10, fields: {v: ["min"]}}]),
        ErrorCodes.InvalidOptions);
    // Unknown level fields are the IDL's error.
    assert.commandFailedWithCode(
        createWith([{granularity: "minutes", fields: {v: ["min"]}, extra: 1}]), 40415);
    assert.commandFailedWithCode(createWith([{granularity: "weeks", fields: {v: ["min"]}}]),
                                 ErrorCodes.BadValue);
    // Nothing was created by the refused requests.
    assert.eq([], db.getCollectionNames().filter(n => n.indexOf("rollups." + name) >= 0));
    // Coarser raw data needs coarser levels; custom bucketing counts as seconds.
    coll.drop();
    assert.commandFailedWithCode(db.runCommand({
        create: name,
        timeseries: {timeField: "t", granularity: "hours",
                     rollups: [{granularity: "hours", fields: {v: ["min"]}}]}
    }),
                                 ErrorCodes.InvalidOptions);
    assert.commandWorked(db.runCommand({
        create: name,
        timeseries: {timeField: "t", bucketMaxSpanSeconds: 100, bucketRoundingSeconds: 100,
                     rollups: [{bucketSpanSeconds: 2, fields: {v: ["min"]}}]}
    }));
}

function catalog() {
    const rollups = [
        {granularity: "minutes", expireAfterSeconds: 86400 * 7, fields: {v: ["min", "max"]}},
        {bucketSpanSeconds: 3600, expireAfterSeconds: 86400 * 30, fields: {v: ["sum", "count"]}},
    ];
    assert.commandWorked(createWith(rollups, {expireAfterSeconds: 86400 * 7}));
    const info = db.getCollectionInfos({name: name})[0];
    assert.eq("timeseries", info.type);
    assert.eq(rollups, info.options.timeseries.rollups);
    const names = db.getCollectionNames();
    for (const n of [pendingName, "system.rollups." + name + ".60", "system.rollups." + name + ".3600"])
        assert.contains(n, names);
    const hourIdx = levelColl(3600).getIndexes();
    assert.eq(86400 * 30, hourIdx.find(i => i.name === "t_1").expireAfterSeconds, tojson(hourIdx));
    assert.eq({m: 1, t: 1}, hourIdx.find(i => i.name === "m_1_t_1").key);
    assert.eq(86400 * 7, levelColl(60).getIndexes().find(i => i.name === "t_1").expireAfterSeconds);
    // Idempotent create with the same options; other rollups are a different collection.
    assert.commandWorked(db.runCommand({
        create: name,
        timeseries: {timeField: "t", metaField: "m", rollups: rollups},
        expireAfterSeconds: 86400 * 7
    }));
    assert.commandFailedWithCode(db.runCommand({
        create: name,
        timeseries: {timeField: "t", metaField: "m", rollups: [rollups[0]]},
        expireAfterSeconds: 86400 * 7
    }),
                                 ErrorCodes.NamespaceExists);
    // Users read levels but do not write them.
    assert.commandFailedWithCode(levelColl(60).insert({x: 1}), ErrorCodes.InvalidNamespace);
    // Dropping the collection drops its levels, not another collection's.
    const other = db[name + ".x"];
    other.drop();
    assert.commandWorked(db.runCommand({
        create: name + ".x",
        timeseries: {timeField: "t", rollups: [{granularity: "minutes", fields: {v: ["min"]}}]}
    }));
    assert(coll.drop());
    const left = db.getCollectionNames().filter(n => n.startsWith("system.rollups." + name + "."));
    assert.eq(["system.rollups." + name + ".x.60", "system.rollups." + name + ".x.pending"],
              left.sort());
    assert(other.drop());
}

function randomData() {
    const fields = {v: ["min", "max", "sum", "count", "first", "last"], w: ["sum", "count", "max"]};
    assert.commandWorked(createWith([
        {granularity: "minutes", fields: fields},
        {bucketSpanSeconds: 900, fields: {v: ["sum", "count"]}},
        {granularity: "hours", fields: {v: ["min", "max", "first", "last"]}},
    ]));
    const base = ISODate("2026-03-01T00:00:00Z").getTime();
    const metas = [{h: "a", dc: 1}, {h: "b", dc: 1}, "plain", null, undefined];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const used = new Set();
    const docs = [];
    for (let i = 0; i < 3000; i++) {
        let ms;
        do {
            ms = base + Math.floor(rand() * 6 * 3600) * 1000;
        } while (used.has(ms));
        used.add(ms);
        const doc = {t: new Date(ms)};
        const m = metas[Math.floor(rand() * metas.length)];
        if (m !== undefined) doc.m = m;
        const r = rand();
        // numbers of every type, plus strings and missing values the accumulators skip
        if (r < 0.4) doc.v = Math.floor(rand() * 100);
        else if (r < 0.6) doc.v = rand() * 10;
        else if (r < 0.7) doc.v = NumberLong(String(Math.floor(rand() * 1000)));
        else if (r < 0.8) doc.v = "s" + Math.floor(rand() * 5);
        else if (r < 0.9) doc.v = null;
        if (rand() < 0.7) doc.w = NumberInt(Math.floor(rand() * 50));
        docs.push(doc);
    }
    // Several batches, out of time order.
    for (let i = 0; i < docs.length; i += 250)
        assert.commandWorked(coll.insertMany(docs.slice(i, i + 250), {ordered: false}));
    waitCaughtUp();
    checkLevel(60, fields);
    checkLevel(900, {v: ["sum", "count"]});
    checkLevel(3600, {v: ["min", "max", "first", "last"]});

    // Updates (of measurements and of the meta) and deletes through the view.
    assert.commandWorked(coll.updateMany({v: {$gt: 90}}, {$set: {v: -1}}));
    assert.commandWorked(coll.updateMany({m: "plain"}, {$set: {m: "renamed"}}));
    assert.commandWorked(coll.deleteMany({w: {$lt: 5}}));
    waitCaughtUp();
    checkLevel(60, fields);
    checkLevel(3600, {v: ["min", "max", "first", "last"]});

    // A direct write to a bucket and a direct delete of one.
    const buckets = db.getCollection("system.buckets." + name);
    const victim = buckets.findOne({meta: {dc: 1, h: "a"}});
    assert.commandWorked(buckets.remove({_id: victim._id}));
    waitCaughtUp();
    checkLevel(60, fields);
    checkLevel(900, {v: ["sum", "count"]});

    // collStats reports each level.
    const stats = db.runCommand({collStats: name});
    assert.commandWorked(stats);
    const levels = stats.timeseries.rollups;
    assert.eq([60, 900, 3600], levels.map(l => l.bucketSpanSeconds), tojson(levels));
    assert.eq(levelColl(60).countDocuments({}), levels[0].rows);
    assert.eq(0, levels[0].pendingWrites);
    assert.eq(undefined, levels[0].expireAfterSeconds);
    assert.gt(levels[0].size, 0);
}

function collModLevels() {
    assert.commandWorked(createWith([{granularity: "minutes", fields: {v: ["sum"]}}],
                                    {expireAfterSeconds: 86400 * 400}));
    const base = ISODate("2026-03-01T00:00:00Z").getTime();
    const docs = [];
    for (let i = 0; i < 500; i++) docs.push({t: new Date(base + i * 13000), m: i % 4, v: i});
    assert.commandWorked(coll.insertMany(docs));
    waitCaughtUp();
    checkLevel(60, {v: ["sum"]});

    // Refused changes change nothing.
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseries: {rollups: [{granularity: "seconds", fields: {v: ["sum"]}}]}}),
        ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(
        db.runCommand({collMod: name, timeseries: {rollups: [{granularity: "minutes", expireAfterSeconds: 100, fields: {v: ["sum"]}}]}}),
        ErrorCodes.InvalidOptions);
    // The raw data may not outlive a level through collMod either.
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {rollups: [
        {granularity: "minutes", expireAfterSeconds: 86400 * 500, fields: {v: ["sum"]}}]}}));
    assert.commandFailedWithCode(db.runCommand({collMod: name, expireAfterSeconds: 86400 * 600}),
                                 ErrorCodes.InvalidOptions);
    assert.commandFailedWithCode(db.runCommand({collMod: name, expireAfterSeconds: "off"}),
                                 ErrorCodes.InvalidOptions);
    // Nor may the raw data become as coarse as a level.
    assert.commandFailedWithCode(db.runCommand({collMod: name, timeseries: {granularity: "minutes"}}),
                                 ErrorCodes.InvalidOptions);
    assert.eq("seconds", db.getCollectionInfos({name: name})[0].options.timeseries.granularity);
    // A retention change keeps the rows and moves the TTL index.
    assert.eq(86400 * 500,
              levelColl(60).getIndexes().find(i => i.name === "t_1").expireAfterSeconds);
    checkLevel(60, {v: ["sum"]});

    // New levels and changed fields are built before the reply; removed levels go.
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {rollups: [
        {granularity: "minutes", expireAfterSeconds: 86400 * 500, fields: {v: ["sum", "max"]}},
        {granularity: "hours", fields: {v: ["min", "count"]}},
    ]}}));
    assert.eq(0, db.getCollection(pendingName).countDocuments({}));
    checkLevel(60, {v: ["sum", "max"]});
    checkLevel(3600, {v: ["min", "count"]});
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {rollups: [
        {granularity: "hours", fields: {v: ["min", "count"]}}]}}));
    assert(!db.getCollectionNames().includes("system.rollups." + name + ".60"));
    checkLevel(3600, {v: ["min", "count"]});
    // No levels: the collection is 8.0's again (writes leave nothing pending).
    assert.commandWorked(db.runCommand({collMod: name, timeseries: {rollups: []}}));
    assert.eq(undefined, db.getCollectionInfos({name: name})[0].options.timeseries.rollups);
    assert(!db.getCollectionNames().includes("system.rollups." + name + ".3600"));
    assert.commandWorked(coll.insert({t: new Date(base), m: 1, v: 1}));
    assert.eq(0, db.getCollection(pendingName).countDocuments({}));
}

function rawExpiryKeepsRows() {
    const now = Date.now();
    assert.commandWorked(createWith([{granularity: "hours", expireAfterSeconds: 86400 * 365, fields: {v: ["sum"]}}],
                                    {expireAfterSeconds: 86400 * 30}));
    assert.commandWorked(coll.insertMany([
        {t: new Date(now - 10 * 86400 * 1000), m: "old", v: 5},
        {t: new Date(now), m: "new", v: 7},
    ]));
    waitCaughtUp();
    assert.eq(2, levelColl(3600).countDocuments({}));
    // The raw data's retention shrinks: the old bucket expires, its row stays.
    assert.commandWorked(db.runCommand({collMod: name, expireAfterSeconds: 3600}));
    assert.soon(() => coll.find().itcount() === 1, "old bucket not expired", 30 * 1000);
    waitCaughtUp();
    assert.eq(2, levelColl(3600).countDocuments({}));
    assert.eq(5, levelColl(3600).findOne({m: "old"}).f.v.sum);
    // A $group the level answers still sees the expired measurement (README, "Queries");
    // the raw path does not.
    const sum = [{$group: {_id: null, s: {$sum: "$v"}, n: {$sum: 1}}}];
    assert.eq([{_id: null, s: 12, n: 2}], coll.aggregate(sum).toArray());
    assert.eq([{_id: null, s: 7, n: 1}],
              db.runCommand({aggregate: name, pipeline: sum, cursor: {}, $_internalRollups: false})
                  .cursor.firstBatch);
}

optionRules();
catalog();
randomData();
collModLevels();
rawExpiryKeepsRows();
coll.drop();
