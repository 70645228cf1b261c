/**
 * $out replaces a collection (keeping its indexes); $merge inserts/updates by the
 * 'on' fields with the whenMatched/whenNotMatched modes.
 */
const src = db[jsTestName() + "_src"];
const target = db[jsTestName() + "_target"];

function setUp() {
    src.drop();
    target.drop();
    assert.commandWorked(src.insertMany([{_id: 1, a: 1}, {_id: 2, a: 2}, {_id: 3, a: 3}]));
}

function outReplaces() {
    assert.commandWorked(target.insert({_id: 99}));
    assert.commandWorked(target.createIndex({a: 1}));
    assert.eq([], src.aggregate([{$match: {a: {$gte: 2}}}, {$out: target.getName()}]).toArray());
    assert.eq([{_id: 2, a: 2}, {_id: 3, a: 3}], target.find().sort({_id: 1}).toArray());
    assert.eq(2, target.getIndexes().length, "indexes of the old target are kept");
}

function outMustBeLast() {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: src.getName(), cursor: {},
                       pipeline: [{$out: target.getName()}, {$match: {}}]}),
        40601);
}

function mergeModes() {
    target.drop();
    assert.commandWorked(target.insertMany([{_id: 1, a: 100, keep: true}]));
    src.aggregate([{$merge: {into: target.getName()}}]);
    assert.eq([{_id: 1, a: 1, keep: true}, {_id: 2, a: 2}, {_id: 3, a: 3}],
              target.find().sort({_id: 1}).toArray());
    src.aggregate([{$set: {a: 0}}, {$merge: {into: target.getName(), whenMatched: "replace"}}]);
    assert.eq({_id: 1, a: 0}, target.findOne({_id: 1}));
    src.aggregate([{$merge: {into: target.getName(), whenMatched: "keepExisting"}}]);
    assert.eq({_id: 1, a: 0}, target.findOne({_id: 1}));
    src.aggregate([{$merge: {into: target.getName(),
                             whenMatched: [{$set: {a: {$add: ["$a", "$$new.a"]}}}]}}]);
    assert.eq({_id: 2, a: 2}, target.findOne({_id: 2}));
    assert.commandFailedWithCode(
        db.runCommand({aggregate: src.getName(), cursor: {},
                       pipeline: [{$merge: {into: target.getName(), whenMatched: "fail"}}]}),
        ErrorCodes.DuplicateKey);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: src.getName(), cursor: {},
                       pipeline: [{$set: {_id: {$add: ["$_id", 100]}}},
                                  {$merge: {into: target.getName(), whenNotMatched: "fail"}}]}),
        13113);
    src.aggregate([{$set: {_id: {$add: ["$_id", 100]}}},
                   {$merge: {into: target.getName(), whenNotMatched: "discard"}}]);
    assert.eq(3, target.count());
}

/** On fields other than _id, a matched document keeps its _id: a different one is ImmutableField. */
function mergeOnOtherFieldsKeepsId() {
    const target = db[jsTestName() + "_on"];
    target.drop();
    assert.commandWorked(target.createIndex({k: 1}, {unique: true}));
    assert.commandWorked(target.insert({_id: "t", k: 1, v: 0}));
    const src = db[jsTestName() + "_on_src"];
    src.drop();
    assert.commandWorked(src.insert({_id: "s", k: 1, v: 5}));
    for (const whenMatched of ["replace", "merge"]) {
        assert.commandFailedWithCode(
            db.runCommand({aggregate: src.getName(), cursor: {},
                           pipeline: [{$merge: {into: target.getName(), on: "k", whenMatched: whenMatched}}]}),
            ErrorCodes.ImmutableField, whenMatched);
    }
    // Without the incoming _id, replace keeps the target's.
    src.aggregate([{$project: {_id: 0}}, {$merge: {into: target.getName(), on: "k", whenMatched: "replace"}}]);
    assert.eq([{_id: "t", k: 1, v: 5}], target.find().toArray());
    // A whenMatched pipeline may not change it either, and keeps it when it drops it.
    assert.commandFailedWithCode(
        db.runCommand({aggregate: src.getName(), cursor: {},
                       pipeline: [{$merge: {into: target.getName(), on: "k", whenMatched: [{$set: {_id: "x"}}]}}]}),
        ErrorCodes.ImmutableField);
    src.aggregate([{$merge: {into: target.getName(), on: "k", whenMatched: [{$project: {_id: 0, k: 1, w: "$$new.v"}}]}}]);
    assert.eq([{_id: "t", k: 1, w: 5}], target.find().toArray());
}

runScenarios(setUp, outReplaces, outMustBeLast, mergeModes, mergeOnOtherFieldsKeepsId);
