/**
 * explain of delete and update on a time-series view (spec §5.5): a TS_MODIFY plan with
 * opType, bucketFilter (closed buckets excluded) and residualFilter over the bucket scan; a
 * plain DELETE over the scan when nothing is left to test per measurement; executionStats
 * counts measurements and unpacked buckets without changing anything.
 */
const coll = db[jsTestName()];
const t0 = ISODate("2024-03-01T00:00:00Z").getTime();

function setUp() {
    coll.drop();
    assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const docs = [];
    for (let i = 0; i < 12; ++i)
        docs.push({_id: i, t: new Date(t0 + i * 1000), m: i % 3, v: i});
    assert.commandWorked(coll.insertMany(docs));
}

function explainOf(cmd, verbosity) {
    return assert.commandWorked(db.runCommand({explain: cmd, verbosity: verbosity || "queryPlanner"}));
}

function deleteManyWithResidual() {
    setUp();
    const exp = explainOf({delete: coll.getName(), deletes: [{q: {m: 1, v: {$gt: 4}}, limit: 0}]});
    const plan = exp.queryPlanner.winningPlan;
    assert.eq("TS_MODIFY", plan.stage, tojson(exp));
    assert.eq("deleteMany", plan.opType);
    assert.eq({m: 1, v: {$gt: 4}}, plan.residualFilter);
    assert(tojson(plan.bucketFilter).includes("control.closed"), tojson(plan));
    assert(tojson(plan.bucketFilter).includes("meta"), tojson(plan));
    assert(plan.inputStage, tojson(plan));
    assert.eq(db.getName() + ".system.buckets." + coll.getName(), exp.queryPlanner.namespace);
}

function deleteOneOpType() {
    setUp();
    const plan = explainOf({delete: coll.getName(), deletes: [{q: {v: 3}, limit: 1}]}).queryPlanner.winningPlan;
    assert.eq("TS_MODIFY", plan.stage);
    assert.eq("deleteOne", plan.opType);
}

function metaOnlyDeleteIsPlainDelete() {
    setUp();
    for (const q of [{}, {m: 2}]) {
        const plan = explainOf({delete: coll.getName(), deletes: [{q: q, limit: 0}]}).queryPlanner.winningPlan;
        assert.eq("DELETE", plan.stage, tojson(plan));
        // {} scans the collection; {m: 2} may use the default {meta, control.min.t} index.
        if (Object.keys(q).length === 0)
            assert.eq("COLLSCAN", plan.inputStage.stage, tojson(plan));
        assert(tojson(plan.inputStage).includes("control.closed"), tojson(plan));
    }
}

function executionStatsCountWithoutWriting() {
    setUp();
    const exp = explainOf({delete: coll.getName(), deletes: [{q: {v: {$gte: 6}}, limit: 0}]}, "executionStats");
    const stages = exp.executionStats.executionStages;
    assert.eq("TS_MODIFY", stages.stage, tojson(exp));
    assert.eq(6, stages.nMeasurementsDeleted, tojson(stages));
    assert.gte(stages.nBucketsUnpacked, 1, tojson(stages));
    assert.eq(12, coll.countDocuments({}));

    const upd = explainOf({update: coll.getName(), updates: [{q: {m: 0}, u: {$set: {v: 0}}, multi: true}]},
                          "executionStats");
    const us = upd.executionStats.executionStages;
    assert.eq("updateMany", upd.queryPlanner.winningPlan.opType, tojson(upd));
    assert.eq(4, us.nMeasurementsMatched, tojson(us));
    assert.eq(3, us.nMeasurementsUpdated, tojson(us));
    assert.eq(3, coll.countDocuments({m: 0, v: {$ne: 0}}));  // nothing was written
}

function updateOneOpType() {
    setUp();
    const plan = explainOf({update: coll.getName(), updates: [{q: {v: 1}, u: {$set: {w: 1}}}]}).queryPlanner.winningPlan;
    assert.eq("TS_MODIFY", plan.stage);
    assert.eq("updateOne", plan.opType);
}

runScenarios(deleteManyWithResidual, deleteOneOpType, metaOnlyDeleteIsPlainDelete,
             executionStatsCountWithoutWriting, updateOneOpType);
