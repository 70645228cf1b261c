/**
 * validate on a regular collection: reply shape, keys per index, documents that fail the
 * collection's validator are counted as non-compliant (a warning, still valid),
 * checkBSONConformance, views and missing collections refused, unsupported options refused.
 */
const name = jsTestName();
const coll = db[name];

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 20; i++)
        docs.push({_id: i, a: i, tags: ["x" + i, "y"], s: "str" + i});
    assert.commandWorked(coll.insertMany(docs));
    assert.commandWorked(coll.createIndex({a: 1}));
    assert.commandWorked(coll.createIndex({tags: 1}));
    assert.commandWorked(coll.createIndex({s: 1}, {partialFilterExpression: {a: {$gte: 10}}}));
}

function validShape() {
    setUp();
    const res = assert.commandWorked(db.runCommand({validate: name, full: true}));
    const expectedOrder = ["ns", "uuid", "nInvalidDocuments", "nNonCompliantDocuments", "nrecords",
                           "nIndexes", "keysPerIndex", "indexDetails", "valid", "repaired",
                           "warnings", "errors", "extraIndexEntries", "missingIndexEntries",
                           "corruptRecords", "ok"];
    assert.eq(expectedOrder, Object.keys(res), tojson(res));
    assert.eq(db.getName() + "." + name, res.ns);
    assert(res.valid, tojson(res));
    assert.eq(20, res.nrecords);
    assert.eq(4, res.nIndexes);
    assert.eq(20, res.keysPerIndex._id_);
    assert.eq(20, res.keysPerIndex.a_1);
    assert.eq(40, res.keysPerIndex.tags_1, "multikey: one key per array element");
    assert.eq(10, res.keysPerIndex.s_1, "partial index holds a >= 10 only");
}

function schemaNonCompliant() {
    coll.drop();
    assert.commandWorked(db.createCollection(name, {validator: {a: {$lt: 15}},
                                                    validationAction: "error"}));
    const docs = [];
    for (let i = 0; i < 20; i++)
        docs.push({_id: i, a: i});
    assert.commandWorked(db.runCommand({insert: name, documents: docs,
                                        bypassDocumentValidation: true}));
    const res = assert.commandWorked(db.runCommand({validate: name}));
    assert(res.valid, tojson(res));
    assert.eq(5, res.nNonCompliantDocuments, tojson(res));
    assert.eq(1, res.warnings.length, tojson(res));
    assert(res.warnings[0].startsWith("Detected one or more documents not compliant"), tojson(res));
}

function bsonConformance() {
    setUp();
    const res = assert.commandWorked(db.runCommand({validate: name, checkBSONConformance: true}));
    assert(res.valid, tojson(res));
    assert.eq(0, res.nNonCompliantDocuments, tojson(res));
}

function errors() {
    setUp();
    db[name + "_v"].drop();
    assert.commandWorked(db.runCommand({create: name + "_v", viewOn: name, pipeline: []}));
    assert.commandFailedWithCode(db.runCommand({validate: name + "_v"}),
                                 ErrorCodes.CommandNotSupportedOnView);
    assert.commandFailedWithCode(db.runCommand({validate: name + "_none"}),
                                 ErrorCodes.NamespaceNotFound);
    assert.commandFailedWithCode(db.runCommand({validate: name, metadata: true}),
                                 ErrorCodes.CommandNotSupported);
    assert.commandFailedWithCode(db.runCommand({validate: name, background: true,
                                                enforceFastCount: true}),
                                 ErrorCodes.InvalidOptions);
    db[name + "_v"].drop();
}

runScenarios(validShape, schemaNonCompliant, bsonConformance, errors);
