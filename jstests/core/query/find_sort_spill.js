/**
 * A find whose blocking sort outgrows internalQueryMaxBlockingSortMemoryUsageBytes fails
 * with QueryExceededMemoryLimitNoDiskUseAllowed unless allowDiskUse is true, in which
 * case the SORT stage spills to disk (executionStats usedDisk) and returns the full,
 * correctly ordered result. A top-k sort under the limit needs no disk.
 */
load("jstests/libs/query_helpers.js");
const coll = db[jsTestName()];
const kParam = "internalQueryMaxBlockingSortMemoryUsageBytes";
let original;

const randInt = seededRandom(991).int;  // same data on every run

function sortStage(plan) {
    let p = plan;
    while (p && p.stage !== "SORT") p = p.inputStage;
    return p;
}

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 2000; i++) {
        docs.push({_id: i, r: randInt(100000), g: randInt(10), pad: "x".repeat(200)});
    }
    assert.commandWorked(coll.insertMany(docs));
    original = assert.commandWorked(db.adminCommand({getParameter: 1, [kParam]: 1}))[kParam];
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 64 * 1024}));
}

function overLimitWithoutDiskUseFails() {
    // Without the field, allowDiskUseByDefault (true by default, as in 8.0) decides.
    assert.eq(2000, db.runCommand({find: coll.getName(), sort: {r: 1}, batchSize: 3000})
                        .cursor.firstBatch.length);
    assert.commandWorked(db.adminCommand({setParameter: 1, allowDiskUseByDefault: false}));
    try {
        assert.commandFailedWithCode(db.runCommand({find: coll.getName(), sort: {r: 1}}),
                                     ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
    } finally {
        assert.commandWorked(db.adminCommand({setParameter: 1, allowDiskUseByDefault: true}));
    }
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), sort: {r: 1}, allowDiskUse: false}),
        ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
}

function allowDiskUseSpillsAndSortsEverything() {
    const got = coll.find({}, {r: 1, g: 1}).sort({g: -1, r: 1}).allowDiskUse(true).toArray();
    const want = coll.find({}, {r: 1, g: 1}).toArray().sort(
        (a, b) => b.g - a.g || a.r - b.r || a._id - b._id);
    assert.eq(2000, got.length);
    assert.eq(want.map((d) => [d.g, d.r]), got.map((d) => [d.g, d.r]));
    const ex = assert.commandWorked(db.runCommand({
        explain: {find: coll.getName(), sort: {g: -1, r: 1}, allowDiskUse: true},
        verbosity: "executionStats"
    }));
    const sort = sortStage(ex.executionStats.executionStages);
    assert(sort, tojson(ex.executionStats));
    assert.eq(true, sort.usedDisk);
    assert.gt(sort.spills, 0);
    assert.eq(2000, ex.executionStats.nReturned);
}

function spilledSortWithSkipAndLimit() {
    const got = coll.find({g: {$lt: 8}}).sort({r: -1}).skip(10).limit(1500).allowDiskUse(true)
                    .toArray().map((d) => d._id);
    const want = coll.find({g: {$lt: 8}}).toArray()
                     .sort((a, b) => b.r - a.r || a._id - b._id)
                     .slice(10, 1510)
                     .map((d) => d._id);
    assert.eq(want.length, got.length);
    assert.sameMembers(want, got);
    const rs = coll.find({g: {$lt: 8}}).sort({r: -1}).skip(10).limit(1500).allowDiskUse(true)
                   .toArray().map((d) => d.r);
    for (let i = 1; i < rs.length; i++) assert.gte(rs[i - 1], rs[i]);
}

function smallTopKNeedsNoDisk() {
    const got = coll.find().sort({r: 1}).limit(5).toArray().map((d) => d.r);
    const want = coll.find().toArray().map((d) => d.r).sort((a, b) => a - b).slice(0, 5);
    assert.eq(want, got);
}

function tearDown() {
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: original}));
}

try {
    runScenarios(setUp, overLimitWithoutDiskUseFails, allowDiskUseSpillsAndSortsEverything,
                 spilledSortWithSkipAndLimit, smallTopKNeedsNoDisk);
} finally {
    tearDown();
}
