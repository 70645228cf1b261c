/**
 * An index whose key order matches the requested sort (after the equality prefix) is
 * scanned in that direction and replaces the blocking SORT stage; with a limit the scan
 * stops early. Multikey, hidden and (unless the filter needs the field) sparse indexes
 * do not provide sorts. Results always equal a $natural scan sorted in memory.
 */
load("jstests/libs/query_helpers.js");
const coll = db[jsTestName()];

function findStage(plan, name) {
    return planStages(plan).find((s) => s.stage === name);
}

function explainFind(filter, sort, limit) {
    let cur = coll.find(filter).sort(sort);
    if (limit) cur = cur.limit(limit);
    return cur.explain("executionStats");
}

/** The results must equal a COLLSCAN + in-memory sort of the same query (ties by _id). */
function assertSameAsNatural(filter, sort, limit) {
    let fast = coll.find(filter).sort(sort);
    let slow = coll.find(filter).sort(sort).hint({$natural: 1});
    if (limit) {
        fast = fast.limit(limit);
        slow = slow.limit(limit);
    }
    const keys = Object.keys(sort);
    const proj = (d) => keys.map((k) => d[k]);
    const a = fast.toArray(), b = slow.toArray();
    assert.eq(b.length, a.length, "result count for " + tojson(filter) + " " + tojson(sort));
    assert.eq(b.map(proj), a.map(proj), "sort keys for " + tojson(sort));
    if (!limit) assert.sameMembers(b.map((d) => d._id), a.map((d) => d._id));
}

const randInt = seededRandom(4242).int;  // same data on every run

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 300; i++) {
        const d = {_id: i, a: randInt(10), b: randInt(50), pad: "p" + i};
        if (i % 7 !== 0) d.s = randInt(20);
        docs.push(d);
    }
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(coll.createIndex({a: 1, b: -1}));
}

function sortMatchingKeyPatternScansForward() {
    const res = explainFind({}, {a: 1, b: -1});
    const ix = findStage(res.queryPlanner.winningPlan, "IXSCAN");
    assert(ix, tojson(res.queryPlanner.winningPlan));
    assert.eq("forward", ix.direction);
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "SORT"));
    assertSameAsNatural({}, {a: 1, b: -1});
}

function reversedSortScansBackward() {
    const res = explainFind({}, {a: -1, b: 1});
    const ix = findStage(res.queryPlanner.winningPlan, "IXSCAN");
    assert.eq("backward", ix.direction);
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "SORT"));
    assertSameAsNatural({}, {a: -1, b: 1});
    assertSameAsNatural({}, {a: -1});
}

function equalityPrefixThenSortOnNextKey() {
    const res = explainFind({a: 3}, {b: 1});
    const ix = findStage(res.queryPlanner.winningPlan, "IXSCAN");
    assert.eq("backward", ix.direction);
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "SORT"));
    assertSameAsNatural({a: 3}, {b: 1});
    assertSameAsNatural({a: 3, b: {$gt: 10}}, {b: -1});
    assertSameAsNatural({a: {$gte: 4}}, {a: 1, b: -1});
}

function equalityAfterARangeIsSkippedBySort() {
    // {a: 1, b: -1, s: 1}: a range on a, b pinned by equality (only filtered, not bounded, after
    // the range): every document returned has b = 7, so the scan gives {a: 1, s: 1} order.
    assert.commandWorked(coll.createIndex({a: 1, b: -1, s: 1}));
    const filter = {a: {$gte: 2, $lte: 8}, b: 7};
    const res = explainFind(filter, {a: 1, s: 1});
    const ix = findStage(res.queryPlanner.winningPlan, "IXSCAN");
    assert(ix, tojson(res.queryPlanner.winningPlan));
    assert.eq({a: 1, b: -1, s: 1}, ix.keyPattern, tojson(ix));
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "SORT"), tojson(res));
    assertSameAsNatural(filter, {a: 1, s: 1});
    assertSameAsNatural(filter, {a: -1, s: -1});
    // Without the equality the order of s restarts with every b: a blocking sort stays. So it
    // does (as upstream) with the equality alone: no predicate on a, so no bounds reach b.
    const open = explainFind({a: {$gte: 2, $lte: 8}}, {a: 1, s: 1});
    assert(findStage(open.queryPlanner.winningPlan, "SORT"), tojson(open));
    const alone = coll.find({b: 7}).sort({a: 1, s: 1}).hint({a: 1, b: -1, s: 1}).explain();
    assert(findStage(alone.queryPlanner.winningPlan, "SORT"), tojson(alone));
    assert.commandWorked(coll.dropIndex({a: 1, b: -1, s: 1}));
}

function mismatchedSortKeepsBlockingSort() {
    for (const sort of [{a: 1, b: 1}, {b: -1}, {b: 1, a: 1}]) {
        const res = explainFind({}, sort);
        assert(findStage(res.queryPlanner.winningPlan, "SORT"), tojson(sort));
        assertSameAsNatural({}, sort);
    }
}

function limitStopsTheScanEarly() {
    const res = explainFind({}, {a: 1, b: -1}, 5);
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "SORT"));
    assert.eq(5, res.executionStats.nReturned);
    assert.lte(res.executionStats.totalKeysExamined, 6);
    assert.lte(res.executionStats.totalDocsExamined, 6);
    assertSameAsNatural({}, {a: 1, b: -1}, 5);
}

function idIndexProvidesIdSort() {
    const res = explainFind({}, {_id: -1}, 3);
    const ix = findStage(res.queryPlanner.winningPlan, "IXSCAN");
    assert.eq({_id: 1}, ix.keyPattern);
    assert.eq("backward", ix.direction);
    assert.eq([299, 298, 297], coll.find().sort({_id: -1}).limit(3).toArray().map((d) => d._id));
}

function multikeyIndexDoesNotProvideSort() {
    assert.commandWorked(coll.insert({_id: 1000, a: [2, 8], b: 1}));
    const res = explainFind({}, {a: 1, b: -1});
    assert(findStage(res.queryPlanner.winningPlan, "SORT"), tojson(res.queryPlanner.winningPlan));
    assertSameAsNatural({}, {a: 1, b: -1});
    assertSameAsNatural({}, {a: -1});
}

function hiddenIndexIsNotUsedForSort() {
    assert.commandWorked(coll.createIndex({b: 1}, {hidden: true}));
    const res = explainFind({}, {b: 1});
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "IXSCAN"));
    assert(findStage(res.queryPlanner.winningPlan, "SORT"));
}

function sparseIndexNeedsFilterOnItsField() {
    assert.commandWorked(coll.createIndex({s: 1}, {sparse: true}));
    let res = explainFind({}, {s: 1});
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "IXSCAN"));
    assertSameAsNatural({}, {s: 1});
    res = explainFind({s: {$gte: 5}}, {s: 1});
    const ix = findStage(res.queryPlanner.winningPlan, "IXSCAN");
    assert.eq({s: 1}, ix.keyPattern);
    assert.eq(undefined, findStage(res.queryPlanner.winningPlan, "SORT"));
    assertSameAsNatural({s: {$gte: 5}}, {s: 1});
}

function bucketSortUsesTheTimeseriesIndex() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(),
                                             {timeseries: {timeField: "t", metaField: "m"}}));
    const base = ISODate("2024-01-01T00:00:00Z").getTime();
    const docs = [];
    for (let i = 0; i < 200; i++) {
        docs.push({t: new Date(base + ((i * 7919) % 200) * 60000), m: i % 4, v: i});
    }
    assert.commandWorked(ts.insertMany(docs));
    const buckets = db["system.buckets." + ts.getName()];
    const pipeline = [{$match: {meta: {$gte: 1}}}, {$sort: {meta: 1, "control.min.t": 1}}];
    const res = assert.commandWorked(db.runCommand(
        {explain: {aggregate: buckets.getName(), pipeline: pipeline, cursor: {}},
         verbosity: "queryPlanner"}));
    const text = tojson(res);
    assert(text.includes("IXSCAN"), text);
    assert(!text.includes("\"SORT\""), text);
    const got = buckets.aggregate(pipeline).toArray();
    const want = buckets.aggregate(pipeline.concat([{$sort: {meta: 1, "control.min.t": 1, _id: 1}}]))
                     .toArray();
    assert.eq(want.map((b) => [b.meta, b.control.min.t]), got.map((b) => [b.meta, b.control.min.t]));
    // The measurement-level sort gives the same order as sorting in memory.
    const sorted = ts.aggregate([{$match: {m: {$gte: 1}}}, {$sort: {m: 1, t: 1}}]).toArray();
    const expect = ts.find({m: {$gte: 1}}).toArray().sort(
        (x, y) => x.m - y.m || x.t.getTime() - y.t.getTime());
    assert.eq(expect.map((d) => [d.m, d.t.getTime()]), sorted.map((d) => [d.m, d.t.getTime()]));
}

runScenarios(setUp, sortMatchingKeyPatternScansForward, reversedSortScansBackward,
             equalityPrefixThenSortOnNextKey, equalityAfterARangeIsSkippedBySort,
             mismatchedSortKeepsBlockingSort,
             limitStopsTheScanEarly, idIndexProvidesIdSort, multikeyIndexDoesNotProvideSort,
             hiddenIndexIsNotUsedForSort, sparseIndexNeedsFilterOnItsField,
             bucketSortUsesTheTimeseriesIndex);
