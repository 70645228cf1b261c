/**
 * $bucketAuto beyond internalDocumentSourceBucketAutoMaxMemoryBytes: with allowDiskUse its sort
 * spills to disk and the buckets equal the in-memory ones (explain reports usedDisk/spills);
 * with allowDiskUse false it fails with QueryExceededMemoryLimitNoDiskUseAllowed (292).
 */
const coll = db[jsTestName()];
const kParam = "internalDocumentSourceBucketAutoMaxMemoryBytes";
let original;

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 2000; i++)
        docs.push({_id: i, k: (i * 7919) % 1000, s: "v" + (i % 13), pad: "p".repeat(300)});
    assert.commandWorked(coll.insertMany(docs));
    original = assert.commandWorked(db.adminCommand({getParameter: 1, [kParam]: 1}))[kParam];
}

const kPipelines = [
    [{$bucketAuto: {groupBy: "$k", buckets: 7}}],
    [{$bucketAuto: {groupBy: "$k", buckets: 5, output: {n: {$sum: 1}, ids: {$push: "$_id"},
                                                       avg: {$avg: "$k"}, last: {$last: "$pad"}}}}],
    [{$bucketAuto: {groupBy: "$k", buckets: 4, granularity: "R20"}}],
    [{$bucketAuto: {groupBy: "$s", buckets: 3, output: {m: {$max: "$missing"}}}}],
];

function run(pl, extra) {
    return db.runCommand(Object.assign(
        {aggregate: coll.getName(), cursor: {batchSize: 10000}, pipeline: pl}, extra));
}

function spilledEqualsInMemory() {
    const inMemory = kPipelines.map((pl) => assert.commandWorked(run(pl, {})).cursor.firstBatch);
    assert.eq(7, inMemory[0].length, tojson(inMemory[0]));
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 16 * 1024}));
    kPipelines.forEach((pl, i) => assert.eq(
        inMemory[i], assert.commandWorked(run(pl, {allowDiskUse: true})).cursor.firstBatch, tojson(pl)));
    const ex = assert.commandWorked(db.runCommand({
        explain: {aggregate: coll.getName(), cursor: {}, allowDiskUse: true, pipeline: kPipelines[1]},
        verbosity: "executionStats"
    }));
    const st = ex.stages.find((s) => s.$bucketAuto);
    assert(st, tojson(ex));
    assert.eq(true, st.usedDisk, tojson(st));
    assert.gt(st.spills, 0, tojson(st));
    assert.gt(st.spilledRecords, 0, tojson(st));
}

function withoutDiskUseFails() {
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 16 * 1024}));
    assert.commandFailedWithCode(run(kPipelines[1], {allowDiskUse: false}),
                                 ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
}

setUp();
try {
    spilledEqualsInMemory();
    withoutDiskUseFails();
} finally {
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: original}));
}
