/**
 * Stages a $facet refuses ($facet, $documents) are refused also in the sub-pipeline of a
 * $lookup or $unionWith inside it (40600, naming the enclosing stage), before anything else
 * about them is checked. And $$IS_MR / $$JS_SCOPE parse (explain works) but cannot be read
 * (51144).
 */
const coll = db[jsTestName()];

function agg(pipeline) {
    return db.runCommand({aggregate: coll.getName(), pipeline: pipeline, cursor: {}});
}

function nestedFacetRefused() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, a: 1}));
    let res = agg([{$facet: {x: [{$facet: {y: []}}]}}]);
    assert.commandFailedWithCode(res, 40600);
    assert(res.errmsg.includes("$facet is not allowed to be used within a $facet stage"), res);
    res = agg([{$facet: {x: [{$lookup: {from: "other", pipeline: [{$facet: {y: [{$match: {}}]}}], as: "j"}}]}}]);
    assert.commandFailedWithCode(res, 40600);
    assert(res.errmsg.includes("$facet inside of $lookup"), res);
    res = agg([{$facet: {x: [{$unionWith: {coll: "other", pipeline: [{$facet: {y: [{$match: {}}]}}]}}]}}]);
    assert.commandFailedWithCode(res, 40600);
    assert(res.errmsg.includes("$facet inside of $unionWith"), res);
    res = agg([{$facet: {x: [{$lookup: {pipeline: [{$documents: [{a: 1}]}], as: "j"}}]}}]);
    assert.commandFailedWithCode(res, 40600);
    assert(res.errmsg.includes("$documents inside of $lookup"), res);
    // Outside a $facet the same sub-pipelines are fine.
    assert.eq(1, coll.aggregate([{$lookup: {from: "other", pipeline: [{$facet: {y: [{$match: {}}]}}], as: "j"}}]).itcount());
}

function mapReduceVariables() {
    coll.drop();
    assert.commandWorked(coll.insert({}));
    for (const v of ["$$IS_MR", "$$JS_SCOPE"]) {
        assert.commandWorked(db.runCommand({explain: {aggregate: coll.getName(), pipeline: [{$group: {_id: v}}], cursor: {}}, verbosity: "queryPlanner"}));
        assert.commandFailedWithCode(agg([{$group: {_id: v}}]), 51144);
    }
}

runScenarios(nestedFacetRefused, mapReduceVariables);
