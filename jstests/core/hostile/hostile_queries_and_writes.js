/**
 * Hostile find filters, nesting, updates and inserts: deep nesting is refused at parse time
 * with upstream's codes, array padding and document growth stop at upstream's limits, and
 * expensive-but-legal requests finish. mongod stays up and its memory bounded
 * (jstests/libs/hostile.js).
 */
load("jstests/libs/hostile.js");

const coll = db.hostile_queries;
coll.drop();
assert.commandWorked(coll.insert([{_id: 1, a: [1, 2, 3], s: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"},
                                  {_id: 2, a: [], s: "b"}]));

const find = (filter, extra = {}) =>
    db.runCommand(Object.assign({find: coll.getName(), filter}, extra));
const nest = (depth, leaf, wrap) => {
    let q = leaf;
    for (let i = 0; i < depth; i++)
        q = wrap(q);
    return q;
};

function nestingRefusedAtParseTime() {
    hostileCase("$and nested 250 levels", () => find(nest(250, {a: 1}, (q) => ({$and: [q]}))),
                {codes: [ErrorCodes.Overflow], seconds: 10});
    hostileCase("$and nested 150 levels", () => find(nest(150, {a: 1}, (q) => ({$and: [q]}))),
                {codes: [ErrorCodes.Overflow, ErrorCodes.BadValue]});
    hostileCase("$and nested 90 levels works", () => find(nest(90, {a: 1}, (q) => ({$and: [q]}))));
    hostileCase("$elemMatch nested 150 levels",
                () => find({a: nest(150, {$gt: 0}, (q) => ({$elemMatch: q}))}),
                {codes: [ErrorCodes.BadValue]});
    hostileCase("$not nested 150 levels", () => find({a: nest(150, {$gt: 0}, (q) => ({$not: q}))}),
                {codes: [ErrorCodes.BadValue], anyOutcome: true});
    hostileCase("an expression nested 190 levels in $expr",
                () => find({$expr: nest(190, 1, (q) => ({$add: [q, 1]}))}), {anyOutcome: true});
    hostileCase("inserting a document nested 300 levels",
                () => db.runCommand({insert: coll.getName(), documents: [nest(300, {}, (d) => ({x: d}))]}),
                {codes: [ErrorCodes.Overflow]});
    hostileCase("a filter of 100,000 $or branches",
                () => find({$or: Array.from({length: 100000}, (_, i) => ({a: i}))}));
    hostileCase("$in of a million values", () => find({a: {$in: Array.from({length: 1000000}, (_, i) => i)}}));
}

function expensiveButLegalQueries() {
    hostileCase("a backtracking regex", () => find({s: {$regex: "^(a+)+$"}}), {anyOutcome: true});
    hostileCase("skip and limit at the ends of the long range",
                () => find({}, {skip: NumberLong("9223372036854775807"), limit: NumberLong("9223372036854775807")}),
                {anyOutcome: true});
    hostileCase("a negative skip", () => find({}, {skip: -1}), {codes: [ErrorCodes.BadValue]});
    hostileCase("a projection $slice at the int limits",
                () => find({}, {projection: {a: {$slice: [-2147483648, 2147483647]}}}));
    hostileCase("a sort on a field path of 100 components",
                () => find({}, {sort: {[Array(100).fill("x").join(".")]: 1}}));
}

function updatesStopAtUpstreamLimits() {
    hostileCase("$set of array index one billion",
                () => db.runCommand({update: coll.getName(), updates: [{q: {_id: 2}, u: {$set: {"a.1000000000": 1}}}]}),
                {codes: [ErrorCodes.CannotBackfillArray]});
    hostileCase("$set of an array index past 2^64",
                () => db.runCommand({update: coll.getName(), updates: [{q: {_id: 2}, u: {$set: {"a.99999999999999999999999": 1}}}]}),
                {codes: [ErrorCodes.CannotBackfillArray]});
    hostileCase("$set of array index 1000 works",
                () => db.runCommand({update: coll.getName(), updates: [{q: {_id: 2}, u: {$set: {"a.1000": 1}}}]}));
    const big = "z".repeat(4 << 20);
    hostileCase("$push growing a document past 16 MB", () => {
        let res;
        for (let i = 0; i < 6; i++) {
            res = db.runCommand({update: coll.getName(), updates: [{q: {_id: 1}, u: {$push: {big}}}]});
            if (res.ok === 0 || res.writeErrors)
                break;
        }
        return res;
    }, {codes: [ErrorCodes.BSONObjectTooLarge, 17419]});
    hostileCase("an update pipeline building a 40 MB document",
                () => db.runCommand({update: coll.getName(), updates: [{q: {_id: 2}, u: [{$set: {r: {$range: [0, 4000000]}}}]}]}),
                {anyOutcome: true});
    hostileCase("$inc overflowing the largest long", () => db.runCommand({update: coll.getName(), updates: [
                    {q: {_id: 2}, u: {$set: {n: NumberLong("9223372036854775807")}}},
                    {q: {_id: 2}, u: {$inc: {n: 1}}}]}),
                {codes: [ErrorCodes.BadValue]});
}

nestingRefusedAtParseTime();
expensiveButLegalQueries();
updatesStopAtUpstreamLimits();

print("hostile: peak RSS of mongod so far " + hostilePeakRssMB().toFixed(0) + " MB");
