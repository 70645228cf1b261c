/**
 * An aggregate on a collection that does not exist returns an empty cursor (as
 * mongosh's connect-time aggregate on admin.atlascli expects).
 */
function emptyCursorOnMissingCollection() {
    const res = assert.commandWorked(db.getSiblingDB("admin").runCommand(
        {aggregate: "atlascli", pipeline: [{$match: {managedClusterType: "atlasCliDeployment"}},
                                           {$count: "count"}],
         cursor: {}}));
    assert.eq([], res.cursor.firstBatch);
    assert.eq(0, res.cursor.id);
}

function groupOnMissingCollection() {
    assert.eq([], db.no_such_coll_agg.aggregate([{$group: {_id: null, n: {$sum: 1}}}]).toArray());
}

runScenarios(emptyCursorOnMissingCollection, groupOnMissingCollection);
