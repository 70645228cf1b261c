/**
 * The specifications of $unionWith (object form), $replaceRoot and $fill are parsed by the IDL
 * parser (idl/document_source_misc_specs.idl): unknown fields 40415, missing required fields
 * 40414, wrong types 14; each stage keeps its own rules beyond that.
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.insert({_id: 1, a: 1}));
const run = (stage) =>
    db.runCommand({aggregate: coll.getName(), pipeline: [stage], cursor: {}});

const cases = [
    [{$unionWith: {coll: coll.getName(), extra: 1}}, 40415],
    // No coll and no leading $documents: upstream's FailedToParse (not the IDL's 40414).
    [{$unionWith: {pipeline: [{$match: {}}]}}, ErrorCodes.FailedToParse],
    [{$unionWith: {coll: 5}}, ErrorCodes.TypeMismatch],
    [{$unionWith: {coll: coll.getName(), pipeline: 5}}, ErrorCodes.TypeMismatch],
    [{$replaceRoot: {}}, 40414],
    [{$replaceRoot: {newRoot: "$$ROOT", x: 1}}, 40415],
    [{$fill: {output: {a: {value: 0}}, bogus: 1}}, 40415],
    [{$fill: {}}, 40414],
    [{$fill: {output: 5}}, ErrorCodes.TypeMismatch],
    [{$fill: {partitionBy: "$a", partitionByFields: ["a"], output: {a: {value: 0}}}}, 6050204],
];
for (const [stage, code] of cases)
    assert.commandFailedWithCode(run(stage), code, tojson(stage));

assert.eq(run({$unionWith: {pipeline: [{$documents: [{x: 1}]}]}}).cursor.firstBatch.length, 2);
assert.eq(run({$unionWith: {coll: coll.getName()}}).cursor.firstBatch.length, 2);
assert.eq(run({$replaceRoot: {newRoot: {b: "$a"}}}).cursor.firstBatch, [{b: 1}]);
assert.eq(run({$fill: {sortBy: {a: 1}, output: {c: {value: 7}}}}).cursor.firstBatch,
          [{_id: 1, a: 1, c: 7}]);
