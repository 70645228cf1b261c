/**
 * create with `timeseries` and `collation` (spec §1.3-§1.6, §4.4): the full collation spec
 * is stored on the buckets collection and the view, shown by listCollections, given to the
 * default {meta, time} index, and compared semantically by an idempotent re-create.
 */
function createColl(n, o) {
    return db.runCommand(Object.assign({create: n}, o || {}));
}
const name = jsTestName();
const ts = {timeField: "t", metaField: "m"};
const enStrength2 = {
    locale: "en",
    caseLevel: false,
    caseFirst: "off",
    strength: 2,
    numericOrdering: false,
    alternate: "non-ignorable",
    maxVariable: "punct",
    normalization: false,
    backwards: false,
    version: "57.1"
};

function setUp() {
    db[name].drop();
    assert.commandWorked(createColl(name, {timeseries: ts, collation: {locale: "en", strength: 2}}));
}

function listCollectionsShowsFullSpec() {
    setUp();
    const view = db.getCollectionInfos({name: name})[0];
    assert.eq("timeseries", view.type, tojson(view));
    assert.docEq(enStrength2, view.options.collation, tojson(view));
    const buckets = db.getCollectionInfos({name: "system.buckets." + name})[0];
    assert.docEq(enStrength2, buckets.options.collation, tojson(buckets));
}

function defaultIndexHasCollation() {
    setUp();
    const res = assert.commandWorked(db.runCommand({listIndexes: "system.buckets." + name}));
    const idx = res.cursor.firstBatch.filter(i => i.name === "m_1_t_1");
    assert.eq(1, idx.length, tojson(res));
    assert.docEq({meta: 1, "control.min.t": 1, "control.max.t": 1}, idx[0].key);
    assert.docEq(enStrength2, idx[0].collation, tojson(idx[0]));
    // Through the view: the user key, same collation.
    const viewIdx = assert.commandWorked(db.runCommand({listIndexes: name})).cursor.firstBatch;
    assert.eq(1, viewIdx.length, tojson(viewIdx));
    assert.docEq({m: 1, t: 1}, viewIdx[0].key);
    assert.docEq(enStrength2, viewIdx[0].collation, tojson(viewIdx[0]));
}

function idempotentCreateComparesSemantically() {
    setUp();
    assert.commandWorked(createColl(name, {timeseries: ts, collation: {locale: "en", strength: 2}}));
    assert.commandWorked(createColl(name, {timeseries: ts, collation: enStrength2}));
    assert.commandFailedWithCode(createColl(name, {timeseries: ts, collation: {locale: "en"}}),
                                 ErrorCodes.NamespaceExists);
    assert.commandFailedWithCode(createColl(name, {timeseries: ts}), ErrorCodes.NamespaceExists);
    assert.commandFailedWithCode(createColl(name, {timeseries: ts, collation: {locale: "fr"}}),
                                 ErrorCodes.NamespaceExists);
}

function simpleCollationIsNotStored() {
    db[name].drop();
    assert.commandWorked(createColl(name, {timeseries: ts, collation: {locale: "simple"}}));
    const view = db.getCollectionInfos({name: name})[0];
    assert.eq(undefined, view.options.collation, tojson(view));
    assert.commandWorked(createColl(name, {timeseries: ts}));
}

function invalidCollationsFail() {
    db[name].drop();
    assert.commandFailedWithCode(createColl(name, {timeseries: ts, collation: {locale: "xx_bogus"}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        createColl(name, {timeseries: ts, collation: {locale: "en", unknownField: 1}}),
        ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(createColl(name, {timeseries: ts, collation: {locale: "en", strength: "2"}}),
                                 ErrorCodes.TypeMismatch);
    assert.eq(0, db.getCollectionInfos({name: name}).length);
    assert.eq(0, db.getCollectionInfos({name: "system.buckets." + name}).length);
}

function partialIndexWithCollationConflicts() {
    setUp();
    assert.commandFailedWithCode(db[name].createIndex({m: 1}, {
        partialFilterExpression: {m: {$gt: "a"}},
        collation: {locale: "en"}
    }),
                                 ErrorCodes.IndexOptionsConflict);
    assert.commandWorked(db[name].createIndex({x: 1}, {collation: {locale: "fr"}, name: "x_fr"}));
    const idx = assert.commandWorked(db.runCommand({listIndexes: name}))
                    .cursor.firstBatch.filter(i => i.name === "x_fr");
    assert.eq(1, idx.length);
    assert.eq("fr", idx[0].collation.locale, tojson(idx[0]));
}

runScenarios(listCollectionsShowsFullSpec,
             defaultIndexHasCollation,
             idempotentCreateComparesSemantically,
             simpleCollationIsNotStored,
             invalidCollationsFail,
             partialIndexWithCollationConflicts);
