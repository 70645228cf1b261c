/**
 * Collation in reads: find (filter and sort), count and distinct compare strings with the
 * command's `collation`, else the collection's default; bad specs are refused with the
 * codes of the collation parser.
 */
const dbc = db.getSiblingDB(jsTestName());
const kCaseInsensitive = {locale: "en", strength: 2};

function setUp() {
    assert.commandWorked(dbc.dropDatabase());
    assert.commandWorked(dbc.c.insert([
        {_id: 1, s: "foo"},
        {_id: 2, s: "FOO"},
        {_id: 3, s: "Foo"},
        {_id: 4, s: "bar"},
        {_id: 5, s: "BAR"},
        {_id: 6, s: 10},
    ]));
}

function ids(cursor) {
    return cursor.toArray().map((d) => d._id);
}

function findIsCaseInsensitiveWithStrengthTwo() {
    assert.eq([1], ids(dbc.c.find({s: "foo"}).sort({_id: 1})));
    assert.eq([1, 2, 3], ids(dbc.c.find({s: "foo"}).collation(kCaseInsensitive).sort({_id: 1})));
    assert.eq([1, 2, 3],
              ids(dbc.c.find({s: {$in: ["FOO", "zzz"]}}).collation(kCaseInsensitive).sort({_id: 1})));
    assert.eq([4, 5, 6],
              ids(dbc.c.find({s: {$ne: "fOO"}}).collation(kCaseInsensitive).sort({_id: 1})));
    // Range: under strength 2 "FOO" is not greater than "foo".
    assert.eq([], ids(dbc.c.find({s: {$gt: "foo"}}).collation(kCaseInsensitive)));
    // $regex ignores the collation.
    assert.eq([1], ids(dbc.c.find({s: /^foo$/}).collation(kCaseInsensitive)));
}

function sortUsesTheCollation() {
    assert.commandWorked(dbc.n.insert([{_id: 1, v: "10"}, {_id: 2, v: "9"}, {_id: 3, v: "100"}]));
    assert.eq([1, 3, 2], ids(dbc.n.find().sort({v: 1})));
    assert.eq([2, 1, 3],
              ids(dbc.n.find().sort({v: 1}).collation({locale: "en", numericOrdering: true})));
    assert.eq([3, 1, 2],
              ids(dbc.n.find().sort({v: -1}).collation({locale: "en", numericOrdering: true})));
}

function getMoreKeepsTheCollation() {
    const docs = [];
    for (let i = 0; i < 20; i++)
        docs.push({_id: 100 + i, s: (i % 2 ? "FOO" : "foo"), k: "x" + (19 - i)});
    assert.commandWorked(dbc.c.insert(docs));
    const found = dbc.c.find({s: "foo"}).sort({k: 1}).collation(kCaseInsensitive).batchSize(2).toArray();
    assert.eq(23, found.length);
}

function countAndDistinctUseTheCollation() {
    assert.eq(1, dbc.c.count({s: "foo"}));
    assert.eq(3, dbc.c.count({s: "foo"}, {collation: kCaseInsensitive}));
    const res = assert.commandWorked(
        dbc.runCommand({distinct: "c", key: "s", collation: kCaseInsensitive}));
    assert.eq(3, res.values.length, tojson(res));  // foo, bar (first seen), 10
    assert.eq(6, dbc.c.distinct("s").length);
}

function collectionDefaultIsInherited() {
    assert.commandWorked(dbc.createCollection("d", {collation: kCaseInsensitive}));
    assert.commandWorked(dbc.d.insert([{_id: 1, s: "a"}, {_id: 2, s: "A"}, {_id: 3, s: "b"}]));
    assert.eq([1, 2], ids(dbc.d.find({s: "a"}).sort({_id: 1})));
    assert.eq(2, dbc.d.count({s: "A"}));
    assert.eq(2, dbc.d.distinct("s").length);
    // An explicit simple collation overrides the default.
    assert.eq([2], ids(dbc.d.find({s: "A"}).collation({locale: "simple"})));
}

function badSpecsAreRefused() {
    assert.commandFailedWithCode(dbc.runCommand({find: "c", collation: {locale: "xx_bogus"}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(dbc.runCommand({find: "c", collation: {locale: "en", bad: 1}}),
                                 ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(dbc.runCommand({find: "c", collation: {locale: "en", strength: "2"}}),
                                 ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(dbc.runCommand({find: "c", collation: 1}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(dbc.runCommand({count: "c", collation: {locale: "xx_bogus"}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        dbc.runCommand({distinct: "c", key: "s", collation: {locale: "en", bad: 1}}),
        ErrorCodes.FailedToParse);
    // Refused even when the collection does not exist.
    assert.commandFailedWithCode(dbc.runCommand({find: "none", collation: {locale: "xx_bogus"}}),
                                 ErrorCodes.BadValue);
}

function viewsUseTheirDefaultCollation() {
    assert.commandWorked(dbc.runCommand(
        {create: "v", viewOn: "c", pipeline: [], collation: kCaseInsensitive}));
    assert.eq([1, 2, 3], ids(dbc.v.find({s: "foo"}).sort({_id: 1})));
    assert.eq(3, dbc.v.count({s: "FOO"}));
    assert.commandFailedWithCode(
        dbc.runCommand({find: "v", filter: {}, collation: {locale: "fr"}}),
        ErrorCodes.OptionNotSupportedOnView);
    assert.commandFailedWithCode(dbc.runCommand({count: "v", collation: {locale: "fr"}}),
                                 ErrorCodes.OptionNotSupportedOnView);
    assert.commandFailedWithCode(dbc.runCommand({distinct: "v", key: "s", collation: {locale: "fr"}}),
                                 ErrorCodes.OptionNotSupportedOnView);
}

for (const t of [findIsCaseInsensitiveWithStrengthTwo, sortUsesTheCollation, getMoreKeepsTheCollation,
                 countAndDistinctUseTheCollation, collectionDefaultIsInherited,
                 badSpecsAreRefused, viewsUseTheirDefaultCollation]) {
    setUp();
    jsTestLog(t.name);
    t();
}
