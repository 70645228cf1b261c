/**
 * $setWindowFields' partitionBy: a key that evaluates to an array is TypeMismatch (also when it
 * is a constant, such as an array-valued $lookup variable); a constant key partitions nothing
 * and is left out of explain, which names the stage $_internalSetWindowFields (a stage name
 * the parser also takes).
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.insert([{_id: 1, v: 1, arr: [1, 2]}, {_id: 2, v: 2, arr: [3]}]));

const run = (pipeline) =>
    db.runCommand({aggregate: coll.getName(), pipeline: pipeline, cursor: {}});

assert.commandFailedWithCode(
    run([{$setWindowFields: {partitionBy: "$arr", output: {n: {$sum: 1}}}}]),
    ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(run([{
                                 $lookup: {
                                     from: coll.getName(),
                                     let: {a: "$arr"},
                                     pipeline: [{
                                         $setWindowFields:
                                             {partitionBy: "$$a", output: {n: {$sum: 1}}}
                                     }],
                                     as: "o"
                                 }
                             }]),
                             ErrorCodes.TypeMismatch);

for (const constant of [null, "k", {$add: [1, 2]}]) {
    const res = assert.commandWorked(run([
        {$setWindowFields: {partitionBy: constant, sortBy: {_id: 1}, output: {n: {$sum: "$v"}}}}
    ]));
    assert.eq(res.cursor.firstBatch.map(d => d.n), [3, 3], res);
    const explain = assert.commandWorked(db.runCommand({
        explain: {
            aggregate: coll.getName(),
            pipeline: [
                {$_internalInhibitOptimization: {}},
                {$setWindowFields: {partitionBy: constant, output: {}}}
            ],
            cursor: {}
        },
        verbosity: "queryPlanner"
    }));
    assert.eq(explain.stages[2], {$_internalSetWindowFields: {output: {}}}, explain);
}

// The explained form parses back and computes the same.
const swf = {partitionBy: "$v", sortBy: {_id: 1}, output: {n: {$sum: 1}}};
const explain = assert.commandWorked(db.runCommand({
    explain: {aggregate: coll.getName(), pipeline: [{$setWindowFields: swf}], cursor: {}},
    verbosity: "queryPlanner"
}));
const stage = explain.stages.find(s => s.$_internalSetWindowFields);
assert(stage, explain);
assert.eq(assert.commandWorked(run([stage])).cursor.firstBatch,
          assert.commandWorked(run([{$setWindowFields: swf}])).cursor.firstBatch);
