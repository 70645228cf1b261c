/**
 * Pipeline-style updates (u: [stages]) on a regular collection: $set/$addFields, $project,
 * $unset, $replaceRoot/$replaceWith; `c` constants and `let` variables; upserts (from the
 * query's equalities, or the upsertSupplied document); the errors upstream gives (stages an
 * update refuses, arrayFilters, constants with a modifier update, a changed _id).
 */
const coll = db[jsTestName()];

function setUp(docs) {
    coll.drop();
    assert.commandWorked(coll.insertMany(docs));
}

function update(stmt, extra) {
    return db.runCommand(Object.assign({update: coll.getName(), updates: [stmt]}, extra || {}));
}

function setReadsTheDocument() {
    setUp([{_id: 1, a: 2, b: 3}]);
    const res = assert.commandWorked(update({q: {_id: 1}, u: [{$set: {sum: {$add: ["$a", "$b"]}}}, {$set: {twice: {$multiply: ["$sum", 2]}}}]}));
    assert.eq(1, res.n);
    assert.eq(1, res.nModified);
    assert.docEq({_id: 1, a: 2, b: 3, sum: 5, twice: 10}, coll.findOne());
}

function projectAndUnset() {
    setUp([{_id: 1, a: 1, b: 2, c: {d: 1, e: 2}, arr: [{x: 1, y: 1}, {x: 2, y: 2}]}]);
    assert.commandWorked(update({q: {_id: 1}, u: [{$unset: ["b", "c.d", "arr.y"]}]}));
    assert.docEq({_id: 1, a: 1, c: {e: 2}, arr: [{x: 1}, {x: 2}]}, coll.findOne());
    assert.commandWorked(update({q: {_id: 1}, u: [{$project: {a: 1}}]}));
    assert.docEq({_id: 1, a: 1}, coll.findOne());
}

function replaceWithKeepsId() {
    setUp([{_id: 1, x: 1, inner: {p: 1, q: [1, 2]}}]);
    assert.commandWorked(update({q: {_id: 1}, u: [{$replaceWith: "$inner"}]}));
    assert.eq({_id: 1, p: 1, q: [1, 2]}, coll.findOne());
    assert.commandWorked(update({q: {_id: 1}, u: [{$replaceRoot: {newRoot: {_id: "$_id", only: "$p"}}}]}));
    assert.eq({_id: 1, only: 1}, coll.findOne());
}

function changedIdIsImmutableField() {
    setUp([{_id: 1, x: 1}]);
    const res = update({q: {_id: 1}, u: [{$set: {_id: 2}}]});
    assert.eq(ErrorCodes.ImmutableField, res.writeErrors[0].code);
    assert.docEq({_id: 1, x: 1}, coll.findOne());
}

function noChangeIsNotModified() {
    setUp([{_id: 1, x: 1}]);
    let res = assert.commandWorked(update({q: {_id: 1}, u: [{$set: {x: 1}}]}));
    assert.eq(1, res.n);
    assert.eq(0, res.nModified);
    res = assert.commandWorked(update({q: {_id: 1}, u: []}));
    assert.eq(1, res.n);
    assert.eq(0, res.nModified);
}

function multiUpdatesEveryMatch() {
    setUp([{_id: 1, g: 1, v: 1}, {_id: 2, g: 1, v: 2}, {_id: 3, g: 2, v: 3}]);
    let res = assert.commandWorked(update({q: {g: 1}, u: [{$set: {v: {$multiply: ["$v", 10]}}}], multi: true}));
    assert.eq(2, res.nModified);
    assert.eq([10, 20, 3], coll.find().sort({_id: 1}).toArray().map(d => d.v));
    res = assert.commandWorked(update({q: {g: 1}, u: [{$set: {w: 1}}], multi: false}));
    assert.eq(1, res.nModified);
    assert.eq(1, coll.countDocuments({w: 1}));
}

function constantsAreLiterals() {
    setUp([{_id: 1, x: 1}]);
    assert.commandWorked(update({q: {_id: 1}, u: [{$set: {a: "$$foo", b: {$arrayElemAt: ["$$arr", 1]}}}],
                                 c: {foo: {$add: [1, 2]}, arr: ["p", "$x"]}}));
    assert.docEq({_id: 1, x: 1, a: {$add: [1, 2]}, b: "$x"}, coll.findOne());
}

function letVariablesInQueryAndPipeline() {
    setUp([{_id: 1, x: 5}, {_id: 2, x: 6}]);
    const res = assert.commandWorked(update(
        {q: {$expr: {$eq: ["$x", "$$target"]}}, u: [{$set: {y: {$add: ["$x", "$$inc"]}}}]},
        {let: {target: 6, inc: 100}}));
    assert.eq(1, res.nModified);
    assert.docEq({_id: 2, x: 6, y: 106}, coll.findOne({_id: 2}));
    assert.docEq({_id: 1, x: 5}, coll.findOne({_id: 1}));
}

function nowIsADate() {
    setUp([{_id: 1}]);
    assert.commandWorked(update({q: {_id: 1}, u: [{$set: {at: "$$NOW"}}]}));
    assert(coll.findOne().at instanceof Date);
}

function upsertFromQueryEqualities() {
    coll.drop();
    let res = assert.commandWorked(update({q: {_id: 7, a: 1}, u: [{$set: {b: {$add: ["$a", 1]}}}], upsert: true}));
    assert.eq([{index: 0, _id: 7}], res.upserted);
    assert.docEq({_id: 7, a: 1, b: 2}, coll.findOne({_id: 7}));
    res = assert.commandWorked(update({q: {k: "z"}, u: [{$project: {k: 1}}], upsert: true}));
    assert.eq(1, res.upserted.length);
    const doc = coll.findOne({k: "z"});
    assert.eq(["_id", "k"], Object.keys(doc));
}

function upsertSuppliedInsertsTheDocument() {
    coll.drop();
    assert.commandWorked(update({q: {_id: "s"}, u: [{$set: {x: 1}}], upsert: true, upsertSupplied: true,
                                 c: {new: {supplied: true}}}));
    assert.docEq({_id: "s", supplied: true}, coll.findOne({_id: "s"}));
    // When the document exists, the pipeline runs.
    assert.commandWorked(update({q: {_id: "s"}, u: [{$set: {x: 1}}], upsert: true, upsertSupplied: true,
                                 c: {new: {supplied: false}}}));
    assert.docEq({_id: "s", supplied: true, x: 1}, coll.findOne({_id: "s"}));
    for (const stmt of [{upsert: false, c: {new: {}}}, {upsert: true}, {upsert: true, c: {}},
                        {upsert: true, c: {new: "str"}}]) {
        assert.commandFailedWithCode(
            update(Object.assign({q: {_id: "t"}, u: [{$set: {x: 1}}], upsertSupplied: true}, stmt)),
            ErrorCodes.FailedToParse, tojson(stmt));
    }
}

function refusedStagesAndOptions() {
    setUp([{_id: 1, x: 1}]);
    for (const stage of [{$match: {x: 1}}, {$sort: {x: 1}}, {$limit: 1}, {$group: {_id: null}},
                         {$facet: {a: [{$match: {}}]}}, {$lookup: {from: "o", as: "a", localField: "x", foreignField: "y"}},
                         {$count: "n"}, {$indexStats: {}}]) {
        assert.commandFailedWithCode(update({q: {_id: 1}, u: [stage]}), ErrorCodes.InvalidOptions, tojson(stage));
    }
    assert.commandFailedWithCode(update({q: {_id: 1}, u: [{$noSuchStage: {}}]}), 40324);
    assert.commandFailedWithCode(update({q: {_id: 1}, u: [{$set: {x: 1}}], arrayFilters: [{"e.x": 1}]}),
                                 ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(update({q: {_id: 1}, u: {$set: {x: 1}}, c: {a: 1}}), 51198);
    assert.commandFailedWithCode(update({q: {_id: 1}, u: {x: 1}, c: {}}), 51198);
    assert.commandFailedWithCode(update({q: {_id: 1}, u: {$addFields: {x: 1}}}), ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(update({q: {_id: 1}, u: [{$set: {x: "$$undefinedVar"}}]}), 17276);
    assert.docEq({_id: 1, x: 1}, coll.findOne());
}

function findAndModifyAndShellHelpers() {
    setUp([{_id: 1, n: 1}, {_id: 2, n: 2}]);
    const res = assert.commandWorked(db.runCommand(
        {findAndModify: coll.getName(), query: {_id: 1}, update: [{$set: {n: {$add: ["$n", "$$d"]}}}], new: true,
         let: {d: 41}}));
    assert.docEq({_id: 1, n: 42}, res.value);
    assert.commandFailedWithCode(
        db.runCommand({findAndModify: coll.getName(), query: {_id: 1}, update: [{$skip: 1}]}),
        ErrorCodes.InvalidOptions);
    const r1 = coll.updateOne({_id: 2}, [{$set: {m: "$n"}}]);
    assert.eq(1, r1.modifiedCount);
    const r2 = coll.updateMany({}, [{$unset: "m"}]);
    assert.eq(2, r2.matchedCount);
    assert.eq(1, r2.modifiedCount);
    assert.docEq({_id: 2, n: 2}, coll.findOne({_id: 2}));
    const r3 = coll.findOneAndUpdate({_id: 2}, [{$set: {n: 3}}], {returnDocument: "after"});
    assert.eq(3, r3.n);
}

runScenarios(setReadsTheDocument, projectAndUnset, replaceWithKeepsId, changedIdIsImmutableField,
             noChangeIsNotModified, multiUpdatesEveryMatch, constantsAreLiterals,
             letVariablesInQueryAndPipeline, nowIsADate, upsertFromQueryEqualities,
             upsertSuppliedInsertsTheDocument, refusedStagesAndOptions, findAndModifyAndShellHelpers);
