/**
 * Compound, multikey, sparse, partial, hidden and unique indexes answer
 * queries correctly; hint picks an index; the usual errors carry upstream codes.
 */
const coll = db[jsTestName()];

function stages(plan) {
    const out = [];
    (function walk(p) {
        if (!p || typeof p !== "object") return;
        if (p.stage) out.push(p.stage);
        walk(p.inputStage);
        walk(p.queryPlan);
        (p.inputStages || []).forEach(walk);
    })(plan);
    return out;
}

function winningStages(filter, hint) {
    const cmd = {find: coll.getName(), filter: filter};
    if (hint) cmd.hint = hint;
    const res = assert.commandWorked(db.runCommand({explain: cmd, verbosity: "queryPlanner"}));
    return stages(res.queryPlanner.winningPlan);
}

function ids(cursor) {
    return cursor.toArray().map((d) => d._id).sort((x, y) => x - y);
}

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 20; i++) {
        docs.push({_id: i, a: i % 4, b: i, tags: ["t" + (i % 3), "all"]});
    }
    docs.push({_id: 100, s: 1, p: 10});
    docs.push({_id: 101, s: 2, p: 3});
    assert.commandWorked(coll.insertMany(docs));
}

function compoundIndex() {
    assert.commandWorked(coll.createIndex({a: 1, b: -1}));
    assert.eq([17, 13, 9], coll.find({a: 1, b: {$gte: 9}}).hint({a: 1, b: -1}).toArray().map((d) => d._id));
    assert.includes(winningStages({a: 1, b: {$gte: 9}}), "IXSCAN");
}

function multikeyIndex() {
    assert.commandWorked(coll.createIndex({tags: 1}));
    assert.eq([1, 4, 7, 10, 13, 16, 19], ids(coll.find({tags: "t1"}).hint({tags: 1})));
    assert.eq(20, coll.find({tags: "all"}).hint({tags: 1}).itcount());
    assert.includes(winningStages({tags: "t1"}), "IXSCAN");
}

function parallelArraysRejected() {
    assert.commandWorked(coll.createIndex({x: 1, y: 1}));
    assert.commandFailedWithCode(coll.insert({_id: 200, x: [1, 2], y: [3, 4]}),
                                 ErrorCodes.CannotIndexParallelArrays);
    // Two key fields through the same array are not parallel: every combination is a key.
    assert.commandWorked(coll.createIndex({"p.b": 1, "p.c": 1}));
    assert.commandWorked(coll.insert({_id: 201, p: [{b: 1, c: 2}, {b: 3, c: 4}]}));
    assert.eq([201], ids(coll.find({"p.b": 1, "p.c": 4}).hint({"p.b": 1, "p.c": 1})));
    assert.eq([], ids(coll.find({p: {$elemMatch: {b: 1, c: 4}}})));
    assert.commandFailedWithCode(coll.insert({_id: 202, p: [{b: 1}], q: 1, x: [1], y: [2]}),
                                 ErrorCodes.CannotIndexParallelArrays);
    assert.commandWorked(coll.deleteOne({_id: 201}));
}

function sparseIndexSkipsMissingFields() {
    assert.commandWorked(coll.createIndex({s: 1}, {sparse: true}));
    assert.eq([100, 101], ids(coll.find().hint({s: 1})));
    assert.eq([100], ids(coll.find({s: 1})));
}

function partialIndex() {
    assert.commandWorked(coll.createIndex({p: 1}, {partialFilterExpression: {p: {$gt: 5}}}));
    assert.eq([100], ids(coll.find({p: {$gt: 6}})));
    assert.eq([100, 101], ids(coll.find({p: {$gt: 1}})));
    // The index cannot answer a query wider than its filter.
    assert.includes(winningStages({p: {$gt: 1}}), "COLLSCAN");
}

function hiddenIndex() {
    assert.commandWorked(coll.createIndex({b: 1}, {hidden: true}));
    const spec = coll.getIndexes().find((ix) => ix.name === "b_1");
    assert.eq(true, spec.hidden, tojson(spec));
    assert.includes(winningStages({b: 5}), "COLLSCAN");
    // A hidden index cannot be hinted, by name or by key.
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {b: 5}, hint: "b_1"}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {b: 5}, hint: {b: 1}}), ErrorCodes.BadValue);
    assert.commandWorked(db.runCommand({collMod: coll.getName(), index: {name: "b_1", hidden: false}}));
    assert.includes(winningStages({b: 5}), "IXSCAN");
}

function uniqueIndex() {
    // Many documents lack u, so u: null is duplicated and the build fails.
    assert.commandFailedWithCode(coll.createIndex({u: 1}, {unique: true}), ErrorCodes.DuplicateKey);
    const other = db[jsTestName() + "_unique"];
    other.drop();
    assert.commandWorked(other.createIndex({u: 1}, {unique: true}));
    assert.commandWorked(other.insert({_id: 1, u: 1}));
    assert.commandFailedWithCode(other.insert({_id: 2, u: 1}), ErrorCodes.DuplicateKey);
    assert.commandWorked(other.insert({_id: 3}));
    assert.commandFailedWithCode(other.insert({_id: 4}), ErrorCodes.DuplicateKey);
    assert.eq(2, other.find().itcount());
}

function hintOnUnknownIndexFails() {
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {}, hint: {nope: 1}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {}, hint: "nope_1"}),
                                 ErrorCodes.BadValue);
}

runScenarios(setUp, compoundIndex, multikeyIndex, parallelArraysRejected, sparseIndexSkipsMissingFields,
             partialIndex, hiddenIndex, uniqueIndex, hintOnUnknownIndexFails);
