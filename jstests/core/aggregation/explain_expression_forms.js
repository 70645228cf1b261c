// Explain prints stages and $expr filters as upstream does: expressions parsed and serialised,
// constants as {$const: ...}, operators with an argument array; $project lists _id, kept
// fields as true/false, then computed fields; $and/$or with a deciding constant are that constant.
const coll = db.explain_expression_forms;
coll.drop();
assert.commandWorked(coll.insert({_id: 1, x: 2, c: 5}));

function stageOf(pipeline, name) {
    const explain = coll.explain().aggregate([{$_internalInhibitOptimization: {}}].concat(pipeline));
    const st = explain.stages.find((s) => s.hasOwnProperty(name));
    assert(st, tojson(explain));
    return st[name];
}
assert.docEq({_id: true, result: {$const: false}}, stageOf([{$project: {result: {$and: [0, "$x"]}}}], "$project"));
assert.docEq({_id: true, result: {$const: true}}, stageOf([{$project: {result: {$or: [1, "$x"]}}}], "$project"));
assert.docEq({_id: true, result: {$and: ["$x", "$x"]}},
             stageOf([{$project: {result: {$and: ["$x", "$x"]}}}], "$project"));
assert.docEq({_id: true, a: true, r: {$add: ["$x", {$const: 1}]}, b: {c: true}},
             stageOf([{$project: {a: 1, r: {$add: ["$x", 1]}, "b.c": 1}}], "$project"));
assert.docEq({a: false, _id: true}, stageOf([{$project: {a: 0}}], "$project"));
assert.docEq({a: false, b: false, _id: true}, stageOf([{$unset: ["a", "b"]}], "$project"));
assert.docEq({a: {b: {$const: 1}}}, stageOf([{$set: {"a.b": 1}}], "$set"));
assert.docEq({h: {$toUpper: ["$x"]}}, stageOf([{$addFields: {h: {$toUpper: "$x"}}}], "$addFields"));

// The explained stages still run as written.
assert.eq([{_id: 1, result: false}], coll.aggregate([{$project: {result: {$and: [0, "$x"]}}}]).toArray());

// A $expr filter prints its constants as {$const: ...}.
const explain = coll.explain().find({$expr: {$lt: ["$c", 800]}}).finish();
assert.docEq({$expr: {$lt: ["$c", {$const: 800}]}}, explain.queryPlanner.parsedQuery, tojson(explain));
assert.eq(1, coll.find({$expr: {$lt: ["$c", 800]}}).itcount());

// An empty $addFields/$set is dropped; the documents pass unchanged.
for (const name of ["$addFields", "$set"]) {
    const ex = coll.explain().aggregate([{$_internalInhibitOptimization: {}}, {[name]: {}}]);
    assert(!ex.stages.some((s) => s.hasOwnProperty(name)), tojson(ex));
    assert.eq([{_id: 1, x: 2, c: 5}], coll.aggregate([{[name]: {}}]).toArray());
}
