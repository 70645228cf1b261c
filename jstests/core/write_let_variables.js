/**
 * The `let` of update, delete and findAndModify defines variables that $expr in their filters
 * reads (also when an upsert seeds its document from the filter, and on time-series views).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([{_id: 1, a: 1}, {_id: 2, a: 2}, {_id: 3, a: 3}]));
}

function updateFilter() {
    setUp();
    const res = assert.commandWorked(db.runCommand({
        update: coll.getName(),
        updates: [{q: {$expr: {$gte: ["$a", "$$min"]}}, u: {$set: {big: true}}, multi: true}],
        let: {min: {$add: [1, 1]}},
    }));
    assert.eq(2, res.nModified);
    assert.eq([2, 3], coll.find({big: true}).sort({_id: 1}).toArray().map(d => d._id));
}

function upsertWithLetFilter() {
    setUp();
    const res = assert.commandWorked(db.runCommand({
        update: coll.getName(),
        updates: [{q: {_id: 9, $expr: {$eq: ["$a", "$$v"]}}, u: {$set: {up: 1}}, upsert: true}],
        let: {v: 99},
    }));
    assert.eq([{index: 0, _id: 9}], res.upserted);
    assert.docEq({_id: 9, up: 1}, coll.findOne({_id: 9}));
}

function deleteFilter() {
    setUp();
    const res = assert.commandWorked(db.runCommand({
        delete: coll.getName(),
        deletes: [{q: {$expr: {$lt: ["$a", "$$max"]}}, limit: 0}],
        let: {max: 3},
    }));
    assert.eq(2, res.n);
    assert.eq([3], coll.find().toArray().map(d => d._id));
}

function findAndModifyFilter() {
    setUp();
    const res = assert.commandWorked(db.runCommand({
        findAndModify: coll.getName(), query: {$expr: {$eq: ["$a", "$$x"]}}, update: {$inc: {a: 10}},
        new: true, let: {x: 2},
    }));
    assert.docEq({_id: 2, a: 12}, res.value);
}

function undefinedVariableFails() {
    setUp();
    const res = db.runCommand({update: coll.getName(), updates: [{q: {$expr: {$eq: ["$a", "$$nope"]}}, u: {$set: {b: 1}}}]});
    assert.eq(17276, res.writeErrors[0].code);
}

function timeseriesDeleteAndUpdate() {
    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const t0 = ISODate("2024-01-01T00:00:00Z").getTime();
    assert.commandWorked(ts.insertMany([0, 1, 2, 3].map(i => ({t: new Date(t0 + i), m: 1, v: i}))));
    let res = assert.commandWorked(db.runCommand({
        update: ts.getName(), updates: [{q: {$expr: {$gte: ["$v", "$$lo"]}}, u: {$set: {hi: true}}, multi: true}],
        let: {lo: 2}}));
    assert.eq(2, res.nModified);
    res = assert.commandWorked(db.runCommand({
        delete: ts.getName(), deletes: [{q: {$expr: {$lt: ["$v", "$$lo"]}}, limit: 0}], let: {lo: 1}}));
    assert.eq(1, res.n);
    assert.eq(3, ts.countDocuments({}));
}

runScenarios(updateFilter, upsertWithLetFilter, deleteFilter, findAndModifyFilter, undefinedVariableFails,
             timeseriesDeleteAndUpdate);
