/**
 * A computed field under a path that crosses an array ({"a.b": <expr>}) replaces the array's
 * scalars with objects holding the computed field, in find as in $project.
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

runScenarios(scalarsBecomeObjects, inclusionStillDropsScalars);
