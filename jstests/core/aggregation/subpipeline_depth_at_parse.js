// The nesting limit of sub-pipelines (20) holds at parse time, also when nothing would run them
// (the collection does not exist).
const coll = db.subpipeline_depth_at_parse;
coll.drop();

function nested(stageName, depth) {
    const leaf = stageName === "$lookup" ? {from: coll.getName(), as: "r", pipeline: []}
                                         : {coll: coll.getName(), pipeline: []};
    let stage = {[stageName]: leaf};
    for (let i = 0; i < depth; i++)
        stage = {[stageName]: Object.assign({}, leaf, {pipeline: [stage]})};
    return stage;
}

for (const name of ["$unionWith", "$lookup"]) {
    assert.commandWorked(db.runCommand({aggregate: coll.getName(), pipeline: [nested(name, 19)], cursor: {}}));
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [nested(name, 20)], cursor: {}}),
        ErrorCodes.MaxSubPipelineDepthExceeded, name);
    // A view definition is parsed the same way.
    assert.commandFailedWithCode(
        db.runCommand({create: "subpipeline_depth_view", viewOn: coll.getName(), pipeline: [nested(name, 20)]}),
        ErrorCodes.MaxSubPipelineDepthExceeded, name);
}
