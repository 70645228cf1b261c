/**
 * $documents: the source of {aggregate: 1}, and of a $lookup or $unionWith sub-pipeline that
 * names no collection. Over a collection it is InvalidNamespace; its elements must be objects
 * (40228).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert([{_id: 1, k: 1}, {_id: 2, k: 2}]));
}

function agg(pipeline, target) {
    return db.runCommand({aggregate: target === undefined ? coll.getName() : target,
                          pipeline: pipeline, cursor: {}});
}

function lookupWithoutFrom() {
    setUp();
    const res = coll.aggregate([
                        {$lookup: {localField: "k", foreignField: "x",
                                   pipeline: [{$documents: [{x: 1}, {x: 3}]}], as: "j"}},
                        {$sort: {_id: 1}}
                    ])
                    .toArray();
    assert.eq([{_id: 1, k: 1, j: [{x: 1}]}, {_id: 2, k: 2, j: []}], res);
    const withLet = coll.aggregate([
                            {$lookup: {let: {k: "$k"},
                                       pipeline: [{$documents: [{x: 2}]},
                                                  {$match: {$expr: {$eq: ["$x", "$$k"]}}}],
                                       as: "j"}},
                            {$sort: {_id: 1}}
                        ])
                        .toArray();
    assert.eq([[], [{x: 2}]], withLet.map(d => d.j));
    assert.commandFailedWithCode(agg([{$lookup: {pipeline: [{$match: {}}], as: "j"}}]),
                                 ErrorCodes.FailedToParse);
}

function unionWithWithoutColl() {
    setUp();
    assert.eq(3, coll.aggregate([{$unionWith: {pipeline: [{$documents: [{x: 1}]}]}}]).itcount());
    assert.commandFailedWithCode(agg([{$unionWith: {pipeline: [{$match: {}}]}}]),
                                 ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(agg([{$unionWith: {pipeline: [{$documents: [{x: 1}]}]}}], 1),
                                 ErrorCodes.InvalidNamespace);
}

function placement() {
    setUp();
    assert.commandFailedWithCode(agg([{$documents: [{a: 1}]}]), ErrorCodes.InvalidNamespace);
    assert.commandFailedWithCode(agg([{$match: {}}, {$documents: [{a: 1}]}]), 40602);
    assert.commandFailedWithCode(agg([{$match: {}}, {$documents: [{a: 1}]}], 1),
                                 ErrorCodes.InvalidNamespace);
}

function elementsMustBeObjects() {
    assert.commandFailedWithCode(agg([{$documents: [1, 2]}], 1), 40228);
    assert.commandFailedWithCode(agg([{$documents: [{a: 1}, 2]}], 1), 40228);
    assert.eq([{a: 1}], db.aggregate([{$documents: [{a: 1}]}]).toArray());
}

runScenarios(lookupWithoutFrom, unionWithWithoutColl, placement, elementsMustBeObjects);
