/**
 * $group computes $sum $avg $min $max $first $last $push $addToSet $count
 * $mergeObjects $stdDevPop per group; numerically equal keys share a group.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, k: 1, v: 1, o: {a: 1}},
        {_id: 2, k: NumberLong(1), v: 3, o: {b: 2}},
        {_id: 3, k: 2, v: 5},
        {_id: 4, k: 2.0, v: "x"},
        {_id: 5, v: 7},
    ]));
}

function accumulatorsPerGroup() {
    const res = coll.aggregate([
        {$sort: {_id: 1}},
        {$group: {
            _id: "$k", sum: {$sum: "$v"}, avg: {$avg: "$v"}, min: {$min: "$v"}, max: {$max: "$v"},
            first: {$first: "$v"}, last: {$last: "$v"}, all: {$push: "$v"},
            set: {$addToSet: "$k"}, n: {$count: {}}, merged: {$mergeObjects: "$o"}
        }},
        {$sort: {_id: 1}}
    ]).toArray();
    assert.eq(3, res.length, tojson(res));
    assert.eq(null, res[0]._id);
    assert.eq(7, res[0].sum);
    assert.eq(1, res[1]._id);
    assert.eq(4, res[1].sum);
    assert.eq(2, res[1].avg);
    assert.eq(1, res[1].min);
    assert.eq(3, res[1].max);
    assert.eq([1, 3], res[1].all);
    assert.eq(2, res[1].n);
    assert.eq({a: 1, b: 2}, res[1].merged);
    assert.eq(5, res[2].sum, "non-numeric values are ignored by $sum");
    assert.eq(5, res[2].avg);
    assert.eq(5, res[2].min, "numbers sort before strings");
    assert.eq("x", res[2].max);
    assert.eq(5, res[2].first);
    assert.eq("x", res[2].last);
}

function groupByNullSumsAll() {
    assert.eq([{_id: null, total: 16, sd: 0}],
              coll.aggregate([{$match: {v: {$type: "number"}}},
                              {$group: {_id: null, total: {$sum: "$v"}, sd: {$stdDevPop: 4}}}])
                  .toArray());
}

function compoundKey() {
    const res = coll.aggregate([{$match: {k: 2}}, {$group: {_id: {k: "$k"}, n: {$sum: 1}}}]).toArray();
    assert.eq([{_id: {k: 2}, n: 2}], res);
}

function errors() {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$group: {n: {$sum: 1}}}], cursor: {}}),
        15955);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$group: {_id: null, n: {$foo: 1}}}], cursor: {}}),
        15952);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$group: {_id: null, n: 1}}], cursor: {}}),
        40234);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$group: {_id: null, "a.b": {$sum: 1}}}], cursor: {}}),
        40235);
}

runScenarios(setUp, accumulatorsPerGroup, groupByNullSumsAll, compoundKey, errors);
