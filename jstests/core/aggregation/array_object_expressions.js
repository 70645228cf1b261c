/**
 * Array and object expressions: $arrayElemAt $first $last $size $slice $in
 * $concatArrays $range $reverseArray $zip $sortArray $filter $map $reduce
 * $arrayToObject $objectToArray $mergeObjects $getField $setField and set operators.
 */
const coll = db[jsTestName()];

function evalExpr(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return coll.aggregate([{$project: {_id: 0, r: expr}}]).toArray()[0].r;
}

function evalError(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: expr}}], cursor: {}});
}

function arrays() {
    const doc = {a: [1, 2, 3]};
    assert.eq(3, evalExpr({$arrayElemAt: ["$a", -1]}, doc));
    assert.eq(undefined, evalExpr({$arrayElemAt: ["$a", 5]}, doc));
    assert.eq(1, evalExpr({$first: "$a"}, doc));
    assert.eq(3, evalExpr({$last: "$a"}, doc));
    assert.eq(3, evalExpr({$size: "$a"}, doc));
    assert.eq([2, 3], evalExpr({$slice: ["$a", -2]}, doc));
    assert.eq([2], evalExpr({$slice: ["$a", 1, 1]}, doc));
    assert.eq(true, evalExpr({$in: [2, "$a"]}, doc));
    assert.eq([1, 2, 3, 4], evalExpr({$concatArrays: ["$a", [4]]}, doc));
    assert.eq([0, 2, 4], evalExpr({$range: [0, 5, 2]}));
    assert.eq([3, 2, 1], evalExpr({$reverseArray: "$a"}, doc));
    assert.eq([[1, "a"], [2, "b"]], evalExpr({$zip: {inputs: ["$a", ["a", "b"]]}}, doc));
    assert.eq([3, 2, 1], evalExpr({$sortArray: {input: "$a", sortBy: -1}}, doc));
    assert.eq([{v: 1}, {v: 2}],
              evalExpr({$sortArray: {input: [{v: 2}, {v: 1}], sortBy: {v: 1}}}));
    assert.eq([2, 3], evalExpr({$filter: {input: "$a", as: "x", cond: {$gt: ["$$x", 1]}}}, doc));
    assert.eq([2, 4, 6], evalExpr({$map: {input: "$a", in: {$multiply: ["$$this", 2]}}}, doc));
    assert.eq(6, evalExpr({$reduce: {input: "$a", initialValue: 0, in: {$add: ["$$value", "$$this"]}}}, doc));
    assert.eq(1, evalExpr({$indexOfArray: ["$a", 2]}, doc));
    assert.eq([1, 2], evalExpr({$firstN: {n: 2, input: "$a"}}, doc));
    assert.eq([3, 2], evalExpr({$maxN: {n: 2, input: "$a"}}, doc));
}

function sets() {
    assert.eq([1, 2, 3], evalExpr({$setUnion: [[1, 2], [2, 3]]}));
    assert.eq([2], evalExpr({$setIntersection: [[1, 2], [2, 3]]}));
    assert.eq([1], evalExpr({$setDifference: [[1, 2], [2, 3]]}));
    assert.eq(true, evalExpr({$setEquals: [[1, 2], [2, 1, 1]]}));
    assert.eq(true, evalExpr({$setIsSubset: [[1], [1, 2]]}));
    assert.eq(true, evalExpr({$anyElementTrue: [[0, 1]]}));
    assert.eq(false, evalExpr({$allElementsTrue: [[0, 1]]}));
}

function objects() {
    assert.eq({a: 1, b: 2}, evalExpr({$arrayToObject: [[["a", 1], ["b", 2]]]}));
    assert.eq({a: 1}, evalExpr({$arrayToObject: [[{k: "a", v: 1}]]}));
    assert.eq([{k: "a", v: 1}], evalExpr({$objectToArray: {a: 1}}));
    assert.eq({a: 1, b: 3}, evalExpr({$mergeObjects: [{a: 1, b: 2}, null, {b: 3}]}));
    assert.eq(5, evalExpr({$getField: "a.b"}, {"a.b": 5}));
    // 'field' may be an expression of constants; "$"-names need $literal.
    assert.eq(5, evalExpr({$getField: {$concat: ["a", ".", "b"]}}, {"a.b": 5}));
    assert.eq(6, evalExpr({$getField: {field: {$literal: "$x"}, input: {$literal: {$x: 6}}}}));
    assert.eq({x: 1, "y.z": 2}, evalExpr({$setField: {field: "y.z", input: {x: 1}, value: 2}}));
    assert.eq({x: 1}, evalExpr({$unsetField: {field: "y", input: {x: 1, y: 2}}}));
}

function errors() {
    assert.commandFailedWithCode(evalError({$size: "$nope"}), 17124);
    // A 'field' that reads the document is not a constant; one that is not a string neither.
    assert.commandFailedWithCode(evalError({$getField: "$a"}), 5654601);
    assert.commandFailedWithCode(evalError({$getField: {field: {$concat: ["$a"]}}}), 5654601);
    assert.commandFailedWithCode(evalError({$getField: {field: {$add: [1, 2]}}}), 5654602);
    assert.commandFailedWithCode(evalError({$arrayElemAt: [1, 0]}), 28689);
    assert.commandFailedWithCode(evalError({$in: [1, 2]}), 40081);
    assert.commandFailedWithCode(evalError({$concatArrays: [[1], 2]}), 28664);
    assert.commandFailedWithCode(evalError({$range: [0, 1, 0]}), 34449);
    assert.commandFailedWithCode(evalError({$objectToArray: 1}), 40390);
    assert.commandFailedWithCode(evalError({$mergeObjects: [1]}), 40400);
    assert.commandFailedWithCode(evalError({$map: {input: 1, in: 1}}), 16883);
    assert.commandFailedWithCode(evalError({$filter: {input: [1]}}), 28650);
}

runScenarios(arrays, sets, objects, errors);
