/**
 * $group beyond internalDocumentSourceGroupMaxMemoryBytes: with allowDiskUse (explicit, or
 * by allowDiskUseByDefault, true as in 8.0) the groups spill to disk as partial groups and
 * the results equal the in-memory ones; with allowDiskUse false it fails with
 * QueryExceededMemoryLimitNoDiskUseAllowed (292).
 */
const coll = db[jsTestName()];
const kParam = "internalDocumentSourceGroupMaxMemoryBytes";
let original;

const kGroup = {$group: {
    _id: "$k",
    n: {$count: {}},
    s: {$sum: "$x"},
    avg: {$avg: "$i"},
    min: {$min: "$i"},
    max: {$max: "$i"},
    first: {$first: "$i"},
    last: {$last: "$i"},
    push: {$push: "$i"},
    set: {$addToSet: "$x"},
    obj: {$mergeObjects: "$o"},
}};

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 3000; i++)
        docs.push({_id: i, k: (i * 37) % 500, i: i, x: (i % 7) * 1.5, o: {a: i % 3}});
    assert.commandWorked(coll.insertMany(docs));
    original = assert.commandWorked(db.adminCommand({getParameter: 1, [kParam]: 1}))[kParam];
}

function runGroup(extra) {
    const res = assert.commandWorked(db.runCommand(Object.assign(
        {aggregate: coll.getName(), cursor: {batchSize: 10000},
         pipeline: [kGroup, {$sort: {_id: 1}}]},
        extra)));
    return res.cursor.firstBatch;
}

function spilledEqualsInMemory() {
    const inMemory = runGroup({});
    assert.eq(500, inMemory.length);
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 16 * 1024}));
    assert.eq(inMemory, runGroup({allowDiskUse: true}));
    // Absent allowDiskUse, allowDiskUseByDefault (true) applies.
    assert.eq(inMemory, runGroup({}));
    const ex = assert.commandWorked(db.runCommand({
        explain: {aggregate: coll.getName(), cursor: {}, allowDiskUse: true, pipeline: [kGroup]},
        verbosity: "executionStats"
    }));
    const group = ex.stages.find((s) => s.$group);
    assert(group, tojson(ex));
    assert.eq(true, group.usedDisk, tojson(group));
    assert.gt(group.spills, 0, tojson(group));
}

function overLimitWithoutDiskUseFails() {
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 16 * 1024}));
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), cursor: {}, allowDiskUse: false,
                       pipeline: [kGroup]}),
        ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
    assert.commandWorked(db.adminCommand({setParameter: 1, allowDiskUseByDefault: false}));
    try {
        assert.commandFailedWithCode(
            db.runCommand({aggregate: coll.getName(), cursor: {}, pipeline: [kGroup]}),
            ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed);
    } finally {
        assert.commandWorked(db.adminCommand({setParameter: 1, allowDiskUseByDefault: true}));
    }
}

function nAccumulatorsAndPercentilesSpill() {
    const pipeline = [
        {$group: {_id: "$k", top: {$topN: {n: 2, sortBy: {i: -1}, output: "$i"}},
                  bottom: {$bottom: {sortBy: {i: -1}, output: "$i"}},
                  firstN: {$firstN: {n: 2, input: "$i"}}, maxN: {$maxN: {n: 2, input: "$x"}},
                  median: {$median: {input: "$i", method: "approximate"}}}},
        {$sort: {_id: 1}},
    ];
    const inMemory = coll.aggregate(pipeline).toArray();
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: 16 * 1024}));
    assert.eq(inMemory, coll.aggregate(pipeline, {allowDiskUse: true}).toArray());
}

function tearDown() {
    assert.commandWorked(db.adminCommand({setParameter: 1, [kParam]: original}));
}

try {
    runScenarios(setUp, spilledEqualsInMemory, tearDown, overLimitWithoutDiskUseFails, tearDown,
                 nAccumulatorsAndPercentilesSpill);
} finally {
    tearDown();
}
