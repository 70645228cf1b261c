/**
 * {$sampleRate: r} matches documents at random with probability r, as upstream's
 * {$expr: {$lt: [{$rand: {}}, {$const: r}]}} (which explain shows); a rate outside [0, 1] or
 * not a number is BadValue. $and/$or with a constant operand that decides them are that
 * constant, its other operands never evaluated.
 */
const coll = db[jsTestName()];
coll.drop();
const docs = [];
for (let i = 0; i < 1000; ++i)
    docs.push({_id: i, x: i % 2});
assert.commandWorked(coll.insert(docs));

assert.eq(0, coll.find({$sampleRate: 0}).itcount());
assert.eq(1000, coll.find({$sampleRate: 1}).itcount());
const half = coll.find({$sampleRate: 0.5}).itcount();
assert(half > 350 && half < 650, "sampled " + half);
assert.eq(0, coll.aggregate([{$match: {$sampleRate: 0.3, x: 5}}]).itcount());
for (const bad of ["a", 1.5, -0.5, null])
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {$sampleRate: bad}}),
                                 ErrorCodes.BadValue, tojson(bad));
const parsed = coll.find({$sampleRate: 0.25}).explain().queryPlanner.parsedQuery;
assert.eq({$expr: {$lt: [{$rand: {}}, {$const: 0.25}]}}, parsed, tojson(parsed));

// A deciding constant makes the whole $and/$or that constant: the other operands are never
// evaluated, so a division by zero before it does not fail.
const z = {$divide: [1, "$x"]};  // x is 0 for even _id
assert.eq([{_id: 0, r: false}], coll.aggregate([{$match: {_id: 0}}, {$project: {r: {$and: [z, 0]}}}]).toArray());
assert.eq([{_id: 0, r: true}], coll.aggregate([{$match: {_id: 0}}, {$project: {r: {$or: [z, "a"]}}}]).toArray());
assert.throwsWithCode(() => coll.aggregate([{$match: {_id: 0}}, {$project: {r: {$and: [z, 1]}}}]).toArray(), 16608);
assert.eq([{_id: 0, r: false}], coll.aggregate([{$match: {_id: 0}}, {$project: {r: {$and: [0, "$x"]}}}]).toArray());
assert.eq([{_id: 1, r: true}], coll.aggregate([{$match: {_id: 1}}, {$project: {r: {$and: [1, "$x"]}}}]).toArray());
