/**
 * Collection and view default collations in the catalog: create stores the full,
 * normalised spec (nothing for "simple"), listCollections shows it (also on the _id
 * index), a view never inherits its collection's collation, and views on views must
 * share one collation (OptionNotSupportedOnView 167).
 */
const dbc = db.getSiblingDB(jsTestName());

function setUp() {
    assert.commandWorked(dbc.dropDatabase());
}

function create(name, options) {
    return dbc.runCommand(Object.assign({create: name}, options || {}));
}

function createView(name, viewOn, pipeline, options) {
    return create(name, Object.assign({viewOn: viewOn, pipeline: pipeline}, options || {}));
}

function info(name) {
    const res = assert.commandWorked(dbc.runCommand({listCollections: 1, filter: {name: name}}));
    assert.eq(1, res.cursor.firstBatch.length, tojson(res));
    return res.cursor.firstBatch[0];
}

function createStoresTheFullSpec() {
    assert.commandWorked(create("c", {collation: {locale: "en", strength: 2}}));
    const c = info("c").options.collation;
    assert.eq("en", c.locale);
    assert.eq(2, c.strength);
    for (const f of ["caseLevel", "caseFirst", "numericOrdering", "alternate", "maxVariable",
                     "normalization", "backwards", "version"]) {
        assert(c.hasOwnProperty(f), "missing " + f + " in " + tojson(c));
    }
    assert.docEq(c, info("c").idIndex.collation);
}

function simpleCollationIsNotStored() {
    assert.commandWorked(create("s", {collation: {locale: "simple"}}));
    const i = info("s");
    assert(!i.options.hasOwnProperty("collation"), tojson(i));
    assert(!i.idIndex.hasOwnProperty("collation"), tojson(i));
}

function recreatingNeedsTheSameCollation() {
    assert.commandWorked(create("r", {collation: {locale: "fr"}}));
    assert.commandWorked(create("r", {collation: {locale: "fr"}}));
    assert.commandFailedWithCode(create("r", {collation: {locale: "en"}}),
                                 ErrorCodes.NamespaceExists);
}

function badCollationsAreRefused() {
    assert.commandFailedWithCode(create("b1", {collation: {locale: "xx_bogus"}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        create("b2", {collation: {locale: "en", unknownField: 1}}),
        ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(create("b3", {collation: {locale: "en", strength: "2"}}),
                                 ErrorCodes.TypeMismatch);
    assert.eq(0, dbc.getCollectionNames().filter((n) => n.startsWith("b")).length);
}

function idIndexMustShareTheCollation() {
    assert.commandFailedWithCode(
        dbc.runCommand({create: "i", collation: {locale: "en"},
                        idIndex: {key: {_id: 1}, name: "_id_", collation: {locale: "fr"}}}),
        ErrorCodes.BadValue);
}

function viewsDoNotInheritTheCollectionCollation() {
    assert.commandWorked(create("base", {collation: {locale: "en", strength: 2}}));
    assert.commandWorked(createView("plain", "base", []));
    assert(!info("plain").options.hasOwnProperty("collation"), tojson(info("plain")));
    assert.commandWorked(createView("fr", "base", [], {collation: {locale: "fr"}}));
    const c = info("fr").options.collation;
    assert.eq("fr", c.locale);
    assert(c.hasOwnProperty("version"), tojson(c));
}

function viewsOnViewsMustShareTheCollation() {
    assert.commandWorked(create("base2"));
    assert.commandWorked(createView("v1", "base2", [], {collation: {locale: "fr"}}));
    assert.commandFailedWithCode(createView("v2", "v1", []),
                                 ErrorCodes.OptionNotSupportedOnView);
    assert.commandFailedWithCode(createView("v3", "v1", [], {collation: {locale: "en"}}),
                                 ErrorCodes.OptionNotSupportedOnView);
    assert.commandWorked(createView("v4", "v1", [], {collation: {locale: "fr"}}));
}

function theUnderlyingViewCreatedLaterMustAlsoMatch() {
    assert.commandWorked(createView("top", "missing", [], {collation: {locale: "fr"}}));
    assert.commandFailedWithCode(
        createView("missing", "anything", [], {collation: {locale: "en"}}),
        ErrorCodes.OptionNotSupportedOnView);
    assert.commandWorked(createView("missing", "anything", [], {collation: {locale: "fr"}}));
}

for (const t of [createStoresTheFullSpec, simpleCollationIsNotStored,
                 recreatingNeedsTheSameCollation, badCollationsAreRefused,
                 idIndexMustShareTheCollation, viewsDoNotInheritTheCollectionCollation,
                 viewsOnViewsMustShareTheCollation, theUnderlyingViewCreatedLaterMustAlsoMatch]) {
    setUp();
    t();
}
