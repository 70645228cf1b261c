/**
 * $bucketAuto granularity: boundaries are values of the preferred number series (scaled
 * by powers of 10), each bucket's max is the next series value above its largest key and
 * the next bucket starts there; non-numeric, NaN or negative keys and unknown series fail.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany(
        [1, 2, 3, 4, 7, 8, 12, 15, 30].map((v, i) => ({_id: i, v: v}))));
}

function bucketAuto(spec) {
    return coll.aggregate([{$bucketAuto: Object.assign({groupBy: "$v"}, spec)}]).toArray();
}

function oneTwoFive() {
    assert.eq([
        {_id: {min: 0.5, max: 5}, count: 4},
        {_id: {min: 5, max: 20}, count: 4},
        {_id: {min: 20, max: 50}, count: 1},
    ], bucketAuto({buckets: 3, granularity: "1-2-5"}));
}

function everySeriesGivesContiguousSeriesBoundaries() {
    for (const g of ["R5", "R10", "R20", "R40", "R80", "1-2-5", "E6", "E12", "E24", "E48",
                     "E96", "E192", "POWERSOF2"]) {
        const res = bucketAuto({buckets: 4, granularity: g});
        assert.gte(res.length, 1, g);
        assert.eq(9, res.reduce((n, b) => n + b.count, 0), g);
        assert.lt(res[0]._id.min, 1, g);
        assert.gt(res[res.length - 1]._id.max, 30, g);
        for (let i = 1; i < res.length; i++)
            assert.eq(res[i - 1]._id.max, res[i]._id.min, g + " " + tojson(res));
    }
    assert.eq([{_id: {min: 0.5, max: 4}, count: 3}, {_id: {min: 4, max: 16}, count: 5},
               {_id: {min: 16, max: 32}, count: 1}],
              bucketAuto({buckets: 3, granularity: "POWERSOF2"}));
}

function errors() {
    const run = (spec) => db.runCommand({aggregate: coll.getName(), cursor: {},
                                         pipeline: [{$bucketAuto: spec}]});
    assert.commandFailedWithCode(run({groupBy: "$v", buckets: 2, granularity: 5}), 40261);
    assert.commandFailedWithCode(run({groupBy: "$v", buckets: 2, granularity: "R7"}), 40257);
    assert.commandWorked(coll.insert({_id: "s", v: "x"}));
    assert.commandFailedWithCode(run({groupBy: "$v", buckets: 2, granularity: "R5"}), 40258);
    assert.commandWorked(coll.remove({_id: "s"}));
    assert.commandWorked(coll.insert({_id: "n", v: NaN}));
    assert.commandFailedWithCode(run({groupBy: "$v", buckets: 2, granularity: "R5"}), 40259);
    assert.commandWorked(coll.remove({_id: "n"}));
    assert.commandWorked(coll.insert({_id: "neg", v: -1}));
    assert.commandFailedWithCode(run({groupBy: "$v", buckets: 2, granularity: "R5"}), 40260);
}

runScenarios(setUp, oneTwoFive, everySeriesGivesContiguousSeriesBoundaries, errors);
