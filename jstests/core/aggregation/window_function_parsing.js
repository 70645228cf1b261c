/**
 * $setWindowFields parsing and $shift defaults, with upstream's codes: a window given to a
 * function that takes none is 5371601 whatever its form; a missing sortBy is 5371602 for
 * rank-like functions and FailedToParse for $shift; $derivative's unit must have a fixed length
 * (5490710) and a Date sortBy needs one (5624901); $shift's default may be any constant
 * expression and also replaces a missing shifted value.
 */
const coll = db[jsTestName()];

function run(output, sortBy) {
    const spec = {output: output};
    if (sortBy !== null)
        spec.sortBy = sortBy || {_id: 1};
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$setWindowFields: spec}], cursor: {}});
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert([{_id: 1, t: ISODate("2020-01-01"), y: 1},
                                      {_id: 2, t: ISODate("2020-01-02"), y: 3}]));
}

function windowRefused() {
    setUp();
    assert.commandFailedWithCode(run({r: {$rank: {}, window: []}}), 5371601);
    assert.commandFailedWithCode(run({r: {$shift: {output: "$y", by: 1}, window: 5}}), 5371601);
    assert.commandFailedWithCode(run({r: {$sum: "$y", window: []}}), ErrorCodes.FailedToParse);
}

function missingSortBy() {
    setUp();
    assert.commandFailedWithCode(run({r: {$rank: {}}}, null), 5371602);
    assert.commandFailedWithCode(run({r: {$denseRank: {}}}, null), 5371602);
    assert.commandFailedWithCode(run({r: {$shift: {output: "$y", by: 1}}}, null),
                                 ErrorCodes.FailedToParse);
}

function derivativeUnits() {
    setUp();
    const deriv = (unit) => {
        const d = {input: "$y"};
        if (unit)
            d.unit = unit;
        return {d: {$derivative: d, window: {documents: [-1, 0]}}};
    };
    assert.commandFailedWithCode(run(deriv("month"), {t: 1}), 5490710);
    assert.commandFailedWithCode(run(deriv("year"), {t: 1}), 5490710);
    assert.commandFailedWithCode(run(deriv(), {t: 1}), 5624901);
    const res = assert.commandWorked(run(deriv("day"), {t: 1})).cursor.firstBatch;
    assert.eq([null, 2], res.map(d => d.d));
}

function shiftDefault() {
    setUp();
    const res = coll.aggregate([{$setWindowFields: {sortBy: {_id: 1},
                                                    output: {a: {$shift: {output: "$nope", by: 1, default: "c"}},
                                                             b: {$shift: {output: "$y", by: 1, default: {$add: [1, 1]}}}}}}])
                    .toArray();
    assert.eq(["c", "c"], res.map(d => d.a));
    assert.eq([3, 2], res.map(d => d.b));
    assert.commandFailedWithCode(run({a: {$shift: {output: "$y", by: 1, default: "$y"}}}),
                                 ErrorCodes.FailedToParse);
}

runScenarios(windowRefused, missingSortBy, derivativeUnits, shiftDefault);
