/**
 * The bucket predicates of a time-series query are written as upstream writes them:
 * control.min/max comparisons with $_internalExprLte/Gte/Lt/Gt (no type bracketing; an array
 * matches), after the closed-bucket filter. explain of a delete/update shows that bucket query
 * as parsedQuery, flattened and in canonical order; the statement's collation decides whether
 * string comparisons of control values may be used. An index on a measurement field is used
 * for an equality through those predicates. Results stay exact for NaN, arrays, nulls and
 * values of other types.
 */
const coll = db[jsTestName()];
const t = ISODate("2021-07-12T16:00:00Z");
const closed = {"control.closed": {$not: {$eq: true}}};

function reset(options) {
    coll.drop();
    assert.commandWorked(db.createCollection(
        coll.getName(), Object.assign({timeseries: {timeField: "time", metaField: "tag"}}, options || {})));
}

function explainDelete(q, collation) {
    const del = {q: q, limit: 0};
    if (collation)
        del.collation = collation;
    return assert.commandWorked(
        db.runCommand({explain: {delete: coll.getName(), deletes: [del]}, verbosity: "queryPlanner"}));
}

// parsedQuery and TS_MODIFY bucketFilter in upstream's form.
reset();
assert.commandWorked(coll.insert([
    {time: t, tag: "A", str: "HELLO"},
    {time: t, tag: "A", str: "hello"},
    {time: t, tag: "B", str: "goodbye"},
]));
let exp = explainDelete({str: "hello"});
assert.eq({
    $and: [
        closed,
        {"control.max.str": {$_internalExprGte: "hello"}},
        {"control.min.str": {$_internalExprLte: "hello"}},
    ]
},
          exp.queryPlanner.parsedQuery, tojson(exp));
assert.eq("TS_MODIFY", exp.queryPlanner.winningPlan.stage, tojson(exp));
assert.eq({
    $and: [
        closed,
        {
            $and: [
                {"control.max.str": {$_internalExprGte: "hello"}},
                {"control.min.str": {$_internalExprLte: "hello"}},
            ]
        },
    ]
},
          exp.queryPlanner.winningPlan.bucketFilter, tojson(exp));

exp = explainDelete({tag: "A"});
assert.eq({$and: [{meta: {$eq: "A"}}, closed]}, exp.queryPlanner.parsedQuery, tojson(exp));
assert.eq("DELETE", exp.queryPlanner.winningPlan.stage, tojson(exp));

exp = explainDelete({str: {$gt: "a"}});
assert.eq({$and: [closed, {"control.max.str": {$_internalExprGt: "a"}}]}, exp.queryPlanner.parsedQuery,
          tojson(exp));

// Another collation than the collection's: no control predicate on strings.
exp = explainDelete({str: "Hello"}, {locale: "en", strength: 2});
assert.eq(closed, exp.queryPlanner.parsedQuery, tojson(exp));
assert.eq(2, assert.commandWorked(db.runCommand({
                 delete: coll.getName(),
                 deletes: [{q: {str: "Hello"}, limit: 0, collation: {locale: "en", strength: 2}}]
             })).n);
assert.eq(1, coll.find().itcount());

// Time predicates too.
exp = explainDelete({time: {$lt: t}});
const pq = tojson(exp.queryPlanner.parsedQuery);
assert(pq.includes("$_internalExprLt"), pq);
assert(!pq.includes('"$lt" : ISODate'), pq);

// Exact results whatever the values' types: buckets holding NaN, arrays, nulls, mixed types.
reset();
const docs = [
    {_id: 0, time: t, tag: 1, x: NaN},
    {_id: 1, time: t, tag: 1, x: 5},
    {_id: 2, time: t, tag: 2, x: [1, 10]},
    {_id: 3, time: t, tag: 3, x: null},
    {_id: 4, time: t, tag: 3, x: 2},
    {_id: 5, time: t, tag: 4, x: "s"},
    {_id: 6, time: t, tag: 5},
    {_id: 7, time: t, tag: 6, x: [[3]]},
];
assert.commandWorked(coll.insert(docs));
const plain = db[jsTestName() + "_plain"];
plain.drop();
assert.commandWorked(plain.insert(docs));
const queries = [
    {x: 5}, {x: NaN}, {x: {$lt: 3}}, {x: {$lte: 2}}, {x: {$gt: 4}}, {x: {$gte: 10}},
    {x: {$gt: 20}}, {x: {$lt: 0}}, {x: "s"}, {x: {$gt: "a"}}, {x: null}, {x: {$gte: NaN}},
    {x: {$lte: NaN}}, {x: 10}, {x: 1}, {x: {$gt: 2, $lt: 6}}, {x: {$in: [2, 10]}},
];
function ids(c, q) {
    return c.find(q, {_id: 1}).sort({_id: 1}).toArray().map(d => d._id);
}
for (const q of queries)
    assert.eq(ids(plain, q), ids(coll, q), tojson(q));

// A measurement index is used for an equality: {x: 1} is {control.min.x: 1, control.max.x: 1}.
reset();
const many = [];
for (let i = 0; i < 200; ++i)
    many.push({time: new Date(t.getTime() + i * 1000), tag: i % 4, x: i});
assert.commandWorked(coll.insert(many));
assert.commandWorked(coll.createIndex({x: 1}));
const e = coll.find({x: 17}).explain();
const ixscan = tojson(e).includes('"IXSCAN"');
assert(ixscan, tojson(e));
assert.eq(1, coll.find({x: 17}).itcount());
assert.eq(17, coll.find({x: 17}).toArray()[0].x);
assert.eq(7, coll.find({x: {$gte: 3, $lt: 10}}).itcount());
// Arrays cannot be stored in an indexed measurement field (upstream's 5930501), so such an
// index is never multikey.
assert.commandFailedWithCode(coll.insert({time: t, tag: 9, x: [1000, 2000]}), 5930501);
