/**
 * A $match after $addFields/$set/$project (exclusion) or $lookup is split as upstream splits it: the
 * conjuncts (top-level predicates, through $and and a one-child $or) that read none of the
 * fields the stage computes move before it, the others stay after it. So a computation that
 * would fail on documents the moved part rejects is never evaluated on them.
 */
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(coll.insert([{_id: 0}, {_id: 1}, {_id: 2}, {_id: 3}, {_id: 4}]));

// $sqrt of a negative number fails (28714): only _id 4 may reach the $addFields.
const trap = {$addFields: {trap: {$sqrt: {$subtract: ["$_id", 4]}}}};
assert.eq([], coll.aggregate([trap, {$match: {$or: [{_id: 4, trap: {$ne: 0}}]}}]).toArray());
assert.eq([{_id: 4, trap: 0}], coll.aggregate([trap, {$match: {_id: 4, trap: 0}}]).toArray());
assert.eq([{_id: 4, trap: 0}],
          coll.aggregate([trap, {$match: {$and: [{trap: {$gte: 0}}, {_id: {$gte: 4}}]}}]).toArray());

// The moved part is what the cursor stage reads; the rest stays after the $addFields.
const explain = coll.explain().aggregate([trap, {$match: {_id: 4, trap: 0}}]);
const stages = explain.stages;
assert.eq({_id: {$eq: 4}}, stages[0].$cursor.queryPlanner.parsedQuery, tojson(explain));
assert(stages.some(s => s.$match && tojson(s.$match).includes("trap")), tojson(explain));

// A $match reading a computed field in every branch of an $or is not split.
assert.throwsWithCode(() => coll.aggregate([trap, {$match: {$or: [{_id: 1}, {trap: 0}]}}]).toArray(), 28714);

// Results equal those of the unoptimised order.
const add = {$addFields: {x: {$add: ["$_id", 1]}}};
assert.eq([{_id: 2, x: 3}, {_id: 3, x: 4}],
          coll.aggregate([add, {$match: {_id: {$gte: 2}, x: {$lt: 5}}}, {$sort: {_id: 1}}]).toArray());

// After a $lookup: what reads nothing of `as` runs before the join (fewer inner runs).
const other = db[jsTestName() + "_other"];
other.drop();
assert.commandWorked(other.insert([{k: 3}, {k: 4}]));
const lookupPipeline = [
    {$lookup: {from: other.getName(), localField: "_id", foreignField: "k", as: "j"}},
    {$match: {_id: {$gte: 3}, j: {$size: 1}}},
    {$sort: {_id: 1}},
];
assert.eq([3, 4], coll.aggregate(lookupPipeline).toArray().map(d => d._id));
const lookupExplain = coll.explain().aggregate(lookupPipeline);
assert.eq({_id: {$gte: 3}}, lookupExplain.stages[0].$cursor.queryPlanner.parsedQuery, tojson(lookupExplain));

// An $expr moves by the fields it reads; one drawing random numbers ($rand, $sampleRate)
// stays where it is.
const exprPipeline = [
    {$lookup: {from: other.getName(), localField: "_id", foreignField: "k", as: "j"}},
    {$match: {$and: [{$expr: {$lt: ["$_id", 4]}}, {$expr: {$lt: [{$rand: {}}, 2]}}]}},
];
assert.eq(5 - 1, coll.aggregate(exprPipeline).itcount());
const exprExplain = coll.explain().aggregate(exprPipeline);
assert.eq({$expr: {$lt: ["$_id", {$const: 4}]}}, exprExplain.stages[0].$cursor.queryPlanner.parsedQuery,
          tojson(exprExplain));
assert(tojson(exprExplain.stages.find(s => s.$match)).includes("$rand"), tojson(exprExplain));
