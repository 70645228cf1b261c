/**
 * $sort (with ties keeping input order, top-k with $limit), $skip, $limit and
 * $unwind (includeArrayIndex, preserveNullAndEmptyArrays).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: 3, tags: ["x", "y"]},
        {_id: 2, a: 1, tags: []},
        {_id: 3, a: 2, tags: null},
        {_id: 4, a: 2, tags: "z"},
        {_id: 5, a: 5},
    ]));
}

function sortAndPage() {
    assert.eq([2, 3, 4, 1, 5], coll.aggregate([{$sort: {a: 1, _id: 1}}]).toArray().map(d => d._id));
    assert.eq([5, 1], coll.aggregate([{$sort: {a: -1}}, {$limit: 2}]).toArray().map(d => d._id));
    assert.eq([1], coll.aggregate([{$sort: {a: 1, _id: 1}}, {$skip: 2}, {$limit: 2}, {$skip: 1},
                                   {$limit: 5}]).toArray().map(d => d._id));
    assert.eq(3, coll.aggregate([{$skip: 2}]).itcount());
}

function sortErrors() {
    const run = (p) => db.runCommand({aggregate: coll.getName(), pipeline: p, cursor: {}});
    assert.commandFailedWithCode(run([{$sort: {}}]), 15976);
    assert.commandFailedWithCode(run([{$sort: {a: 2}}]), 15975);
    assert.commandFailedWithCode(run([{$sort: 1}]), 15973);
    assert.commandFailedWithCode(run([{$limit: -1}]), 15958);
    assert.commandFailedWithCode(run([{$limit: "a"}]), 15957);
    assert.commandFailedWithCode(run([{$skip: -1}]), 15956);
}

function unwind() {
    assert.eq([{_id: 1, t: "x"}, {_id: 1, t: "y"}, {_id: 4, t: "z"}],
              coll.aggregate([{$unwind: "$tags"}, {$project: {t: "$tags"}}, {$sort: {_id: 1, t: 1}}]).toArray());
    const res = coll.aggregate([
        {$unwind: {path: "$tags", includeArrayIndex: "i", preserveNullAndEmptyArrays: true}},
        {$sort: {_id: 1, i: 1}}
    ]).toArray();
    assert.eq(6, res.length, tojson(res));
    assert.eq({_id: 1, a: 3, tags: "x", i: NumberLong(0)}, res[0]);
    assert.eq({_id: 2, a: 1, i: null}, res[2]);
    assert.eq({_id: 3, a: 2, tags: null, i: null}, res[3]);
}

function unwindErrors() {
    const run = (p) => db.runCommand({aggregate: coll.getName(), pipeline: p, cursor: {}});
    assert.commandFailedWithCode(run([{$unwind: "tags"}]), 28818);
    assert.commandFailedWithCode(run([{$unwind: {}}]), 28812);
    assert.commandFailedWithCode(run([{$unwind: {path: "$a", bogus: 1}}]), 28811);
    assert.commandFailedWithCode(run([{$unwind: 1}]), 15981);
}

runScenarios(setUp, sortAndPage, sortErrors, unwind, unwindErrors);
