/**
 * $setWindowFields beyond internalDocumentSourceSetWindowFieldsMaxMemoryBytes: with allowDiskUse
 * the partition cache spills to disk and every window function gives the same results as in
 * memory (explain reports usedDisk/spills); with allowDiskUse false the cache fails with 5643011;
 * window functions whose own state outgrows the limit fail with 5414201 even when spilling; the
 * input sort past internalQueryMaxBlockingSortMemoryUsageBytes fails with 292 without disk use.
 */
const coll = db[jsTestName()];
const kParam = "internalDocumentSourceSetWindowFieldsMaxMemoryBytes";
const kSortParam = "internalQueryMaxBlockingSortMemoryUsageBytes";
let original, originalSort;
const pad = "x".repeat(400);

const kOutputs = {
    sliding: {$sum: "$v", window: {documents: [-3, 2]}},
    running: {$sum: "$v", window: {documents: ["unbounded", "current"]}},
    tail: {$push: "$i", window: {documents: [-2, "unbounded"]}},
    whole: {$avg: "$v"},
    ranged: {$max: "$v", window: {range: [-5, 5]}},
    rank: {$rank: {}},
    dense: {$denseRank: {}},
    num: {$documentNumber: {}},
    prev: {$shift: {output: "$v", by: -1, default: "none"}},
    next: {$shift: {output: "$i", by: 2}},
    deriv: {$derivative: {input: "$v"}, window: {documents: [-1, 1]}},
    integ: {$integral: {input: "$v"}, window: {range: [-4, 0]}},
    ema: {$expMovingAvg: {input: "$v", N: 3}},
    cov: {$covariancePop: ["$v", "$i"], window: {documents: [-4, 4]}},
    locf: {$locf: "$gap"},
    lin: {$linearFill: "$gap"},
};

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 900; i++) {
        // Three partitions; `t` has duplicates (rank ties); `gap` is set on every 7th row.
        docs.push({_id: i, p: i % 3, t: Math.floor(i / 6), i: i, v: (i * 13) % 17,
                   gap: i % 7 === 0 ? i : null, pad: pad});
    }
    assert.commandWorked(coll.insertMany(docs));
    original = assert.commandWorked(db.adminCommand({getParameter: 1, [kParam]: 1}))[kParam];
    originalSort =
        assert.commandWorked(db.adminCommand({getParameter: 1, [kSortParam]: 1}))[kSortParam];
}

function setLimits(windowBytes, sortBytes) {
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: windowBytes}));
    assert.commandWorked(db.adminCommand({setParameter: 1, [kSortParam]: sortBytes}));
}

function pipeline(output) {
    // `lin` needs distinct sort values: sort by _id within the partition for it.
    return [{$setWindowFields: {partitionBy: "$p", sortBy: {t: 1}, output}},
            {$project: {pad: 0}}, {$sort: {_id: 1}}];
}

function run(pl, extra) {
    return db.runCommand(Object.assign(
        {aggregate: coll.getName(), cursor: {batchSize: 100000}, pipeline: pl}, extra));
}

function spilledEqualsInMemory() {
    const {lin, ...byT} = kOutputs;
    const linPipeline = [{$setWindowFields: {partitionBy: "$p", sortBy: {i: 1}, output: {lin}}},
                         {$project: {pad: 0}}, {$sort: {_id: 1}}];
    const inMemory = assert.commandWorked(run(pipeline(byT), {})).cursor.firstBatch;
    const linInMemory = assert.commandWorked(run(linPipeline, {})).cursor.firstBatch;
    assert.eq(900, inMemory.length);
    // A partition holds 300 documents of ~550 bytes: far above 48 KB.
    setLimits(48 * 1024, original);
    assert.eq(inMemory, assert.commandWorked(run(pipeline(byT), {allowDiskUse: true})).cursor.firstBatch);
    assert.eq(linInMemory, assert.commandWorked(run(linPipeline, {allowDiskUse: true})).cursor.firstBatch);
    // The input sort spills too.
    setLimits(48 * 1024, 32 * 1024);
    assert.eq(inMemory, assert.commandWorked(run(pipeline(byT), {allowDiskUse: true})).cursor.firstBatch);
}

function explainReportsSpills() {
    const explain = (extra) => {
        const ex = assert.commandWorked(db.runCommand(Object.assign({
            explain: {aggregate: coll.getName(), cursor: {}, pipeline: pipeline({s: kOutputs.sliding})},
            verbosity: "executionStats"}, {})));
        const st = ex.stages.find((s) => s.$_internalSetWindowFields);
        assert(st, tojson(ex));
        return st;
    };
    setLimits(original, originalSort);
    let st = explain();
    assert.eq(false, st.usedDisk, tojson(st));
    assert.eq(0, st.spills, tojson(st));
    assert.gt(st.maxTotalMemoryUsageBytes, 0, tojson(st));
    assert(st.maxFunctionMemoryUsageBytes.hasOwnProperty("s"), tojson(st));
    setLimits(16 * 1024, originalSort);
    st = explain();
    assert.eq(true, st.usedDisk, tojson(st));
    assert.gt(st.spills, 0, tojson(st));
    assert.gt(st.spilledRecords, 0, tojson(st));
    assert.gt(st.spilledBytes, 0, tojson(st));
    assert.gt(st.spilledDataStorageSize, 0, tojson(st));
}

function withoutDiskUseFails() {
    setLimits(16 * 1024, originalSort);
    assert.commandFailedWithCode(run(pipeline({s: kOutputs.sliding}), {allowDiskUse: false}), 5643011);
    setLimits(original, 32 * 1024);
    assert.commandFailedWithCode(run(pipeline({s: kOutputs.sliding}), {allowDiskUse: false}),
                                 ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
}

function functionStateBeyondTheLimitFails() {
    // $push of every pad in a partition holds 300 * 400 bytes in the function itself.
    setLimits(32 * 1024, originalSort);
    assert.commandFailedWithCode(
        run(pipeline({all: {$push: "$pad", window: {documents: ["unbounded", "unbounded"]}}}),
            {allowDiskUse: true}),
        5414201);
    assert.commandFailedWithCode(
        run(pipeline({all: {$push: "$pad", window: {documents: [-100, 100]}}}), {allowDiskUse: true}),
        5414201);
    // A small window fits.
    assert.commandWorked(
        run(pipeline({few: {$push: "$pad", window: {documents: [-2, 2]}}}), {allowDiskUse: true}));
}

setUp();
try {
    spilledEqualsInMemory();
    explainReportsSpills();
    withoutDiskUseFails();
    functionStateBeyondTheLimitFails();
} finally {
    setLimits(original, originalSort);
}
