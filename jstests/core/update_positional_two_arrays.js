/**
 * A positional `$` when the filter walks two arrays: the filter is read in upstream's canonical
 * form (nested $and flattened, then by predicate kind, then path), and the array of the
 * predicate read last sets the position, whatever order the filter was written in. Updates and
 * find projections alike.
 */
const coll = db[jsTestName()];

function reset() {
    coll.drop();
    assert.commandWorked(coll.insertOne({_id: 1, tag: [1, 2, 3, 4], f: [4, 3, 2, 1]}));
}

// `tag` sorts after `f` (same kind): tag's first match, index 2, is the position.
function laterPathSetsPosition() {
    for (const filter of [{tag: {$gt: 2}, f: {$gt: 2}}, {f: {$gt: 2}, tag: {$gt: 2}}]) {
        reset();
        assert.commandWorked(coll.updateOne(filter, {$set: {"tag.$": 20, "f.$": 10}}));
        assert.docEq({_id: 1, tag: [1, 2, 20, 4], f: [4, 3, 10, 1]}, coll.findOne(), tojson(filter));
    }
}

// The kind comes first: $eq sorts before $gt, so `f: {$gt: 2}` (index 0) is read last.
function kindBeforePath() {
    reset();
    assert.commandWorked(coll.updateOne({f: {$gt: 2}, tag: 3}, {$set: {"tag.$": 30}}));
    assert.docEq({_id: 1, tag: [30, 2, 3, 4], f: [4, 3, 2, 1]}, coll.findOne());
}

// A nested $and is flattened first (upstream's normal form): {f: ..., $and: [{tag: ...}]} reads
// like {f: ..., tag: ...}, and a one-child $and like its child.
function nestedAndIsFlattened() {
    for (const filter of [{f: {$gt: 2}, $and: [{tag: {$gt: 2}}]}, {$and: [{tag: {$gt: 2}, f: {$gt: 2}}]}]) {
        reset();
        assert.commandWorked(coll.updateOne(filter, {$set: {"f.$": 10}}));
        assert.docEq({_id: 1, tag: [1, 2, 3, 4], f: [4, 3, 10, 1]}, coll.findOne(), tojson(filter));
    }
}

function projectionSamePosition() {
    reset();
    const doc = coll.findOne({f: {$gt: 2}, tag: {$gt: 2}}, {_id: 0, "f.$": 1});
    assert.docEq({f: [2]}, doc);
}

runScenarios(laterPathSetsPosition, kindBeforePath, nestedAndIsFlattened, projectionSamePosition);
