/**
 * $setWindowFields (accumulators over document and range windows, $rank,
 * $denseRank, $documentNumber, $shift, $derivative, $integral, $expMovingAvg,
 * $locf, $linearFill), $densify and $fill.
 */
const coll = db[jsTestName()];
const t0 = ISODate("2021-01-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, g: "a", t: new Date(t0), v: 1},
        {_id: 2, g: "a", t: new Date(t0 + 60000), v: 3},
        {_id: 3, g: "a", t: new Date(t0 + 120000), v: null},
        {_id: 4, g: "a", t: new Date(t0 + 180000), v: 7},
        {_id: 5, g: "b", t: new Date(t0), v: 10},
        {_id: 6, g: "b", t: new Date(t0 + 60000), v: 10},
    ]));
}

function windows() {
    const res = coll.aggregate([
        {$setWindowFields: {
            partitionBy: "$g", sortBy: {t: 1},
            output: {
                running: {$sum: "$v", window: {documents: ["unbounded", "current"]}},
                moving: {$avg: "$v", window: {documents: [-1, 0]}},
                lastTwoMin: {$count: {}, window: {range: [-1, 0], unit: "minute"}},
                total: {$sum: "$v"},
                rank: {$rank: {}},
                dense: {$denseRank: {}},
                num: {$documentNumber: {}},
                prev: {$shift: {output: "$v", by: -1, default: "none"}},
            }
        }},
        {$sort: {_id: 1}}
    ]).toArray();
    assert.eq([1, 4, 4, 11, 10, 20], res.map(d => d.running));
    assert.eq([1, 2, 3, 7, 10, 10], res.map(d => d.moving));
    assert.eq([1, 2, 2, 2, 1, 2], res.map(d => d.lastTwoMin));
    assert.eq([11, 11, 11, 11, 20, 20], res.map(d => d.total));
    assert.eq([1, 2, 3, 4, 1, 2], res.map(d => d.rank));
    assert.eq([1, 2, 3, 4, 1, 2], res.map(d => d.num));
    assert.eq(["none", 1, 3, null, "none", 10], res.map(d => d.prev));
}

function ratesAndFills() {
    const res = coll.aggregate([
        {$match: {g: "a"}},
        {$setWindowFields: {
            sortBy: {t: 1},
            output: {
                rate: {$derivative: {input: "$v", unit: "minute"}, window: {documents: [-1, 0]}},
                area: {$integral: {input: "$v", unit: "minute"}, window: {documents: [-1, 0]}},
                ema: {$expMovingAvg: {input: "$v", alpha: 0.5}},
                locf: {$locf: "$v"},
                lin: {$linearFill: "$v"},
            }
        }},
        {$sort: {_id: 1}}
    ]).toArray();
    assert.eq([null, 2], res.slice(0, 2).map(d => d.rate));
    assert.eq([0, 2], res.slice(0, 2).map(d => d.area));
    assert.eq([1, 2], res.slice(0, 2).map(d => d.ema));
    assert.eq([1, 3, 3, 7], res.map(d => d.locf));
    assert.eq([1, 3, 5, 7], res.map(d => d.lin));
}

function windowErrors() {
    const run = (p) => db.runCommand({aggregate: coll.getName(), pipeline: p, cursor: {}});
    assert.commandFailedWithCode(run([{$setWindowFields: {output: {r: {$rank: {}}}}}]), 5371602);
    assert.commandFailedWithCode(
        run([{$setWindowFields: {output: {r: {$sum: "$v", window: {documents: [-1, 0]}}}}}]), 5339902);
    assert.commandFailedWithCode(
        run([{$setWindowFields: {sortBy: {t: 1}, output: {r: {$bogus: 1}}}}]),
        ErrorCodes.FailedToParse);
}

function densify() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{x: 1, p: "a"}, {x: 4, p: "a"}, {x: 2, p: "b"}]));
    const res = coll.aggregate([
        {$densify: {field: "x", partitionByFields: ["p"], range: {step: 1, bounds: "partition"}}},
        {$project: {_id: 0}},
        {$sort: {p: 1, x: 1}}
    ]).toArray();
    assert.eq([{x: 1, p: "a"}, {x: 2, p: "a"}, {x: 3, p: "a"}, {x: 4, p: "a"}, {x: 2, p: "b"}], res);
    const full = coll.aggregate([{$densify: {field: "x", range: {step: 1, bounds: [0, 3]}}},
                                 {$project: {_id: 0, x: 1}}, {$sort: {x: 1}}]).toArray();
    assert.eq([0, 1, 2, 4], full.map(d => d.x));
}

function fill() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, t: 1, v: 1, s: "x"},
        {_id: 2, t: 2, v: null, s: null},
        {_id: 3, t: 3, v: 5},
    ]));
    const res = coll.aggregate([
        {$fill: {sortBy: {t: 1}, output: {v: {method: "linear"}, s: {value: "none"}}}},
        {$sort: {_id: 1}}
    ]).toArray();
    assert.eq([1, 3, 5], res.map(d => d.v));
    assert.eq(["x", "none", "none"], res.map(d => d.s));
}

runScenarios(setUp, windows, ratesAndFills, windowErrors, densify, fill);
