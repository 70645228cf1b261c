/**
 * collMod on a view: viewOn and pipeline together replace the definition; collection options
 * are refused with InvalidOptions; collectionUUID fails with CollectionUUIDMismatch (a view has
 * no UUID) and reports the collection that has it.
 */
const base = db[jsTestName() + "_base"];
const viewName = jsTestName() + "_view";

function setUp() {
    base.drop();
    db[viewName].drop();
    assert.commandWorked(base.insert([{_id: 1, a: 1}, {_id: 2, a: 2}]));
    assert.commandWorked(db.createView(viewName, base.getName(), [{$match: {a: 1}}]));
}

function modifiesPipeline() {
    setUp();
    assert.eq(1, db[viewName].find().itcount());
    assert.commandWorked(
        db.runCommand({collMod: viewName, viewOn: base.getName(), pipeline: [{$match: {a: {$gte: 1}}}]}));
    assert.eq(2, db[viewName].find().itcount());
    assert.commandFailedWithCode(db.runCommand({collMod: viewName, pipeline: []}),
                                 ErrorCodes.InvalidOptions);
}

function refusesCollectionOptions() {
    setUp();
    for (const opt of [{validator: {}}, {validationLevel: "off"}, {validationAction: "warn"},
                       {index: {name: "a_1", hidden: true}}, {expireAfterSeconds: 5},
                       {cappedSize: 4096}, {changeStreamPreAndPostImages: {enabled: true}},
                       {timeseries: {granularity: "hours"}}]) {
        assert.commandFailedWithCode(db.runCommand(Object.assign({collMod: viewName}, opt)),
                                     ErrorCodes.InvalidOptions, tojson(opt));
    }
}

function collectionUUID() {
    setUp();
    const uuid = db.getCollectionInfos({name: base.getName()})[0].info.uuid;
    assert.commandWorked(db.runCommand({collMod: base.getName(), collectionUUID: uuid}));
    let res = db.runCommand({collMod: viewName, collectionUUID: uuid});
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch);
    assert.eq(db.getName(), res.db);
    assert.eq(uuid, res.collectionUUID);
    assert.eq(viewName, res.expectedCollection);
    assert.eq(base.getName(), res.actualCollection);
    res = db.runCommand({collMod: "missing", collectionUUID: UUID()});
    assert.commandFailedWithCode(res, ErrorCodes.CollectionUUIDMismatch);
    assert.eq(null, res.actualCollection);
    assert.commandFailedWithCode(db.runCommand({collMod: base.getName(), collectionUUID: "x"}),
                                 ErrorCodes.TypeMismatch);
}

runScenarios(modifiesPipeline, refusesCollectionOptions, collectionUUID);
