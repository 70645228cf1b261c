/**
 * $_internalExprEq/$_internalExprGt/$_internalExprGte/$_internalExprLt/$_internalExprLte in
 * find and $match filters: the aggregation comparison (no type bracketing, missing below
 * null), an array anywhere on the path always matches, and array operands are refused
 * with BadValue (undefined too: see the unit tests).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert([
        {_id: 0, a: 1},
        {_id: 1, a: NumberLong("5")},
        {_id: 2, a: "str"},
        {_id: 3, a: null},
        {_id: 4},
        {_id: 5, a: [1, 9]},
        {_id: 6, a: {b: 5}},
        {_id: 7, a: [{b: 0}]},
    ]));
}

function ids(filter) {
    return coll.find(filter).sort({_id: 1}).toArray().map(d => d._id);
}

function comparisons() {
    assert.eq([0, 5, 7], ids({a: {$_internalExprEq: 1}}));
    // No bracketing: the string and the object are above every number.
    assert.eq([1, 2, 5, 6, 7], ids({a: {$_internalExprGt: 1}}));
    assert.eq([1, 2, 5, 6, 7], ids({a: {$_internalExprGte: 5}}));
    assert.eq([0, 3, 4, 5, 7], ids({a: {$_internalExprLt: 5}}));
    assert.eq([0, 1, 3, 4, 5, 7], ids({a: {$_internalExprLte: 5}}));
    // null equals only null; missing is below it.
    assert.eq([3, 5, 7], ids({a: {$_internalExprEq: null}}));
    assert.eq([4, 5, 7], ids({a: {$_internalExprLt: null}}));
}

function dottedPaths() {
    assert.eq([5, 6, 7], ids({"a.b": {$_internalExprEq: 5}}));
    assert.eq([0, 1, 2, 3, 4, 5, 7], ids({"a.b": {$_internalExprLt: 5}}));
}

function sameResultsWithAnIndexAndInAggregate() {
    assert.commandWorked(coll.createIndex({a: 1}));
    assert.eq([0, 5, 7], ids({a: {$_internalExprEq: 1}}));
    assert.eq([1, 2, 5, 6, 7], ids({a: {$_internalExprGt: 1}}));
    const agg = coll.aggregate([{$match: {a: {$_internalExprLte: 1}}}, {$sort: {_id: 1}}])
                    .toArray()
                    .map(d => d._id);
    assert.eq([0, 3, 4, 5, 7], agg);
    assert.commandWorked(coll.dropIndex({a: 1}));
}

function badOperands() {
    for (const op of ["$_internalExprEq", "$_internalExprGt", "$_internalExprLte"]) {
        assert.commandFailedWithCode(
            db.runCommand({find: coll.getName(), filter: {a: {[op]: [1]}}}), ErrorCodes.BadValue);
        assert.commandFailedWithCode(
            db.runCommand({aggregate: coll.getName(), pipeline: [{$match: {a: {[op]: []}}}], cursor: {}}),
            ErrorCodes.BadValue);
    }
}

function timeseriesPartialFiltersUseThem() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const t0 = ISODate("2024-01-01T00:00:00Z");
    for (let i = 0; i < 10; i++)
        assert.commandWorked(ts.insert({t: new Date(t0.getTime() + i * 1000), m: i % 2, v: i}));
    assert.commandWorked(ts.createIndex({m: 1}, {partialFilterExpression: {v: {$gt: 5}}}));
    const bucketsIndex = db.getCollection("system.buckets." + ts.getName())
                             .getIndexes()
                             .find(ix => ix.name === "m_1");
    assert.eq({"control.max.v": {$_internalExprGt: 5}}, bucketsIndex.partialFilterExpression,
              tojson(bucketsIndex));
    assert.eq(2, ts.find({m: 1, v: {$gt: 5}}).itcount());
    ts.drop();
}

setUp();
comparisons();
dottedPaths();
sameResultsWithAnIndexAndInAggregate();
badOperands();
timeseriesPartialFiltersUseThem();
