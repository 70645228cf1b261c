/**
 * $project (inclusion, exclusion, computed fields), $addFields/$set and $unset.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, a: 1, b: {c: 2, d: 3}, arr: [{x: 1, y: 2}, {x: 3}]}));
}

function inclusion() {
    assert.eq([{_id: 1, a: 1, b: {c: 2}}], coll.aggregate([{$project: {a: 1, "b.c": 1}}]).toArray());
    assert.eq([{a: 1}], coll.aggregate([{$project: {_id: 0, a: 1}}]).toArray());
    assert.eq([{_id: 1, arr: [{x: 1}, {x: 3}]}], coll.aggregate([{$project: {"arr.x": 1}}]).toArray());
}

function computed() {
    assert.eq([{_id: 1, sum: 3, lit: "s", nested: {v: 3}}],
              coll.aggregate([{$project: {sum: {$add: ["$a", "$b.c"]}, lit: {$literal: "s"},
                                          nested: {v: "$b.d"}}}]).toArray());
}

function exclusion() {
    assert.eq([{_id: 1, b: {d: 3}, arr: [{x: 1, y: 2}, {x: 3}]}],
              coll.aggregate([{$project: {a: 0, "b.c": 0}}]).toArray());
}

function addFieldsAndSet() {
    assert.eq([{_id: 1, a: 10, b: {c: 2, d: 3, e: 5}, arr: [{x: 1, y: 2}, {x: 3}], z: true}],
              coll.aggregate([{$addFields: {a: 10, "b.e": 5}}, {$set: {z: true}}]).toArray());
    assert.eq([{_id: 1, b: {c: 2, d: 3}, arr: [{x: 1, y: 2}, {x: 3}]}],
              coll.aggregate([{$addFields: {a: "$$REMOVE"}}]).toArray());
}

function unset() {
    assert.eq([{_id: 1, b: {d: 3}}], coll.aggregate([{$unset: ["a", "b.c", "arr"]}]).toArray());
    assert.eq([{_id: 1, b: {c: 2, d: 3}, arr: [{x: 1, y: 2}, {x: 3}]}],
              coll.aggregate([{$unset: "a"}]).toArray());
}

function errors() {
    const run = (p) => db.runCommand({aggregate: coll.getName(), pipeline: p, cursor: {}});
    assert.commandFailedWithCode(run([{$project: {a: 1, b: 0}}]), 31254);
    assert.commandFailedWithCode(run([{$project: {a: 0, b: 1}}]), 31253);
    assert.commandFailedWithCode(run([{$project: {}}]), 40177);
    assert.commandFailedWithCode(run([{$project: {a: 0, b: {$add: [1, 1]}}}]), 31252);
    // A path through a field already projected: 31249 ("remaining portion"), as in find;
    // the field itself twice, or a field under a computed one in the other order: 31250.
    assert.commandFailedWithCode(run([{$project: {"a": 1, "a.b": 1}}]), 31249);
    assert.commandFailedWithCode(run([{$project: {"a": {$add: [1]}, "a.b": 1}}]), 31249);
    assert.commandFailedWithCode(run([{$project: {"a.b": 1, "a": {$add: [1]}}}]), 31250);
    assert.commandFailedWithCode(run([{$project: {"a": {"b": 1}, "a.b": 1}}]), 31250);
    assert.commandFailedWithCode(run([{$project: "a"}]), 15969);
    assert.commandFailedWithCode(run([{$unset: 1}]), 31002);
}

runScenarios(setUp, inclusion, computed, exclusion, addFieldsAndSet, unset, errors);
