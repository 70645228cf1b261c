/**
 * A computed field under a path that crosses an array ({"a.b": <expr>}) replaces the array's
 * scalars with objects holding the computed field, in find as in $project. An unknown operator
 * as a computed field's whole value is 31325 in every projection (find, findAndModify, $project).
 */
const coll = db[jsTestName()];

function scalarsBecomeObjects() {
    coll.drop();
    assert.commandWorked(coll.insert({a: [1, {b: 2}, 3, {}, [4]]}));
    const proj = {"a.b": {$literal: "v"}, _id: 0};
    const expected = [{a: [{b: "v"}, {b: "v"}, {b: "v"}, {b: "v"}, [{b: "v"}]]}];
    assert.eq(expected, coll.find({}, proj).toArray());
    assert.eq(expected, coll.aggregate([{$project: proj}]).toArray());
    assert.eq([{a: [{b: {c: "v"}}, {b: {c: "v"}}, {b: {c: "v"}}, {b: {c: "v"}}, [{b: {c: "v"}}]]}],
              coll.find({}, {"a.b.c": {$literal: "v"}, _id: 0}).toArray());
}

function inclusionStillDropsScalars() {
    coll.drop();
    assert.commandWorked(coll.insert({a: [1, {b: 2}, 3, {}]}));
    assert.eq([{a: [{b: 2}, {}]}], coll.find({}, {"a.b": 1, _id: 0}).toArray());
}

function unknownOperatorIs31325() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1}));
    const proj = {foo: {$pop: ["bar"]}};
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), projection: proj}), 31325);
    assert.commandFailedWithCode(
        db.runCommand({findAndModify: coll.getName(), query: {_id: 1}, update: {$inc: {y: 1}}, fields: proj}),
        31325);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [{$project: proj}], cursor: {}}), 31325);
    // Inside an expression it is the expression error.
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), projection: {foo: {$add: [{$pop: 1}]}}}), 168);
}

runScenarios(scalarsBecomeObjects, inclusionStillDropsScalars, unknownOperatorIs31325);
