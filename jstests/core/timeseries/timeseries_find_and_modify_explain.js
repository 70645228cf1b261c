// explain of findAndModify on a time-series collection: the TS_MODIFY plan (deleteOne or
// updateOne) over the buckets, with the hinted index below it; executionStats writes nothing.
const coll = db.ts_fam_explain;
coll.drop();
assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
for (let i = 0; i < 10; i++)
    assert.commandWorked(coll.insert({t: new Date(1700000000000 + i * 1000), m: i % 2, x: i}));
assert.commandWorked(coll.createIndex({x: 1}));

function winning(cmd) {
    const e = assert.commandWorked(db.runCommand({explain: cmd, verbosity: "executionStats"}));
    assert.eq("TS_MODIFY", e.queryPlanner.winningPlan.stage, tojson(e));
    assert.eq("TS_MODIFY", e.executionStats.executionStages.stage, tojson(e));
    return e.queryPlanner.winningPlan;
}
let plan = winning({findAndModify: coll.getName(), query: {m: 1}, remove: true});
assert.eq("deleteOne", plan.opType);
plan = winning({findAndModify: coll.getName(), query: {x: {$gte: 3}}, remove: true, hint: {x: 1}});
assert.eq("IXSCAN", plan.inputStage.inputStage.stage, tojson(plan));
assert.eq({"control.min.x": 1, "control.max.x": 1}, plan.inputStage.inputStage.keyPattern);
plan = winning({findAndModify: coll.getName(), query: {m: 0}, update: {$set: {y: 1}}});
assert.eq("updateOne", plan.opType);
assert.commandFailedWithCode(db.runCommand({explain: {findAndModify: coll.getName(), query: {}}}),
                             ErrorCodes.FailedToParse);

// Nothing was deleted or updated.
assert.eq(10, coll.find().itcount());
assert.eq(0, coll.find({y: 1}).itcount());
