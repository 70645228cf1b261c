/**
 * A $expr over a truthy constant ({$expr: true}, {$expr: "foo"}) matches every document and is
 * optimised away: explain shows no filter for it, alone or beside other predicates, in find
 * and aggregate, on plain and time-series collections.
 */
const coll = db[jsTestName()];

function winningFilter(explain) {
    const qp = explain.queryPlanner || explain.stages[0].$cursor.queryPlanner;
    return qp.winningPlan.filter;
}

function plainCollection() {
    coll.drop();
    assert.commandWorked(coll.insert([{foo: 1}, {foo: 0}]));
    assert.eq(undefined, winningFilter(coll.find({$expr: true}).explain()));
    assert.eq(undefined, winningFilter(coll.explain().aggregate([{$match: {$expr: "foo"}}])));
    assert.eq({$expr: "$foo"},
              winningFilter(coll.find({$and: [{$expr: "foo"}, {$expr: "$foo"}]}).explain()));
    assert.eq(2, coll.find({$expr: true}).itcount());
    assert.eq(1, coll.find({$and: [{$expr: 1}, {$expr: "$foo"}]}).itcount());
    assert.eq(0, coll.find({$expr: 0}).itcount());
    assert.eq(2, coll.aggregate([{$match: {$expr: true}}]).itcount());
}

function timeseriesCollection() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t"}}));
    assert.commandWorked(ts.insert([{t: ISODate(), v: 1}, {t: ISODate(), v: 2}]));
    assert.eq(2, ts.find({$expr: true}).itcount());
    assert.eq(1, ts.aggregate([{$match: {$and: [{$expr: "x"}, {v: 2}]}}]).itcount());
}

runScenarios(plainCollection, timeseriesCollection);
