/**
 * find projections with aggregation expressions (4.4+): computed fields make an
 * inclusion projection; they see $$ROOT/$$CURRENT, $$NOW and the command's `let`;
 * they work for findAndModify `fields` and for find on a time-series collection.
 * An unknown operator as a field's whole value fails with 31325 (upstream's projection parser,
 * as for $project; 168 inside an expression), expressions in an exclusion with 31252.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert([
        {_id: 1, a: 1, b: 2, s: "abc", arr: [{v: 1}, {v: 2}]},
        {_id: 2, a: 10, b: 20, s: "xy"},
    ]));
}

function find(projection, extra) {
    const res = assert.commandWorked(db.runCommand(
        Object.assign({find: coll.getName(), filter: {}, sort: {_id: 1}, projection}, extra || {})));
    return res.cursor.firstBatch;
}

function arithmeticAndStrings() {
    assert.eq([{_id: 1, sum: 3}, {_id: 2, sum: 30}], find({sum: {$add: ["$a", "$b"]}}));
    assert.eq([{up: "ABC"}, {up: "XY"}], find({up: {$toUpper: "$s"}, _id: 0}));
    assert.eq([{a: 1, x: 1}, {a: 10, x: 1}], find({a: 1, x: {$literal: 1}, _id: 0}));
}

function computedFieldsFollowIncludedFields() {
    const docs = find({sum: {$add: ["$a", 1]}, b: 1});
    assert.eq(["_id", "b", "sum"], Object.keys(docs[0]));
}

function dottedComputedPaths() {
    assert.eq([{o: {up: "ABC"}}, {o: {up: "XY"}}], find({"o.up": {$toUpper: "$s"}, _id: 0}));
    assert.eq([{n: {m: 2}}, {n: {m: 20}}], find({n: {m: {$multiply: ["$a", 2]}}, _id: 0}));
}

function rootCurrentAndFieldPaths() {
    const docs = find({r: "$$ROOT", _id: 0}, {filter: {_id: 2}});
    assert.eq([{r: {_id: 2, a: 10, b: 20, s: "xy"}}], docs);
    assert.eq([{c: 2}], find({c: "$$CURRENT.b", _id: 0}, {filter: {_id: 1}}));
    assert.eq([{vs: [1, 2]}], find({vs: "$arr.v", _id: 0}, {filter: {_id: 1}}));
}

function letAndNow() {
    assert.eq([{t: 101}, {t: 110}],
              find({t: {$add: ["$$base", "$a"]}, _id: 0}, {let: {base: 100}}));
    const docs = find({now: "$$NOW", _id: 0});
    assert(docs[0].now instanceof Date, tojson(docs));
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), projection: {x: "$$nope"}}), 17276);
}

function errors() {
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), projection: {x: {$bogusOp: 1}}}), 31325);
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), projection: {x: {$add: [{$bogusOp: 1}]}}}), 168);
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), projection: {a: 0, x: {$add: [1, 2]}}}), 31252);
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), projection: {x: {$add: [1, 2]}, a: 0}}), 31254);
}

function findAndModifyFields() {
    const res = assert.commandWorked(db.runCommand({
        findAndModify: coll.getName(),
        query: {_id: 1},
        update: {$inc: {a: 1}},
        new: true,
        fields: {sum: {$add: ["$a", "$b"]}, _id: 0},
    }));
    assert.eq({sum: 4}, res.value);
}

function timeseriesFind() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(ts.insert([
        {t: ISODate("2024-01-01T00:00:00Z"), m: "a", v: 1},
        {t: ISODate("2024-01-01T00:00:01Z"), m: "b", v: 2},
    ]));
    const res = assert.commandWorked(db.runCommand({
        find: ts.getName(),
        filter: {},
        sort: {t: 1},
        projection: {_id: 0, w: {$multiply: ["$v", "$$k"]}, m: 1},
        let: {k: 10},
    }));
    assert.eq([{m: "a", w: 10}, {m: "b", w: 20}], res.cursor.firstBatch);
}

for (const test of [arithmeticAndStrings, computedFieldsFollowIncludedFields, dottedComputedPaths,
                    rootCurrentAndFieldPaths, letAndNow, errors, findAndModifyFields,
                    timeseriesFind]) {
    setUp();
    test();
}
