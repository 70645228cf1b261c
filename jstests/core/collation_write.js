/**
 * Collation in writes: update and delete statements (each with its own `collation`),
 * findAndModify, array filters and $min/$max/$addToSet/$pull compare strings with the
 * statement's collation, else the collection's default.
 */
const dbc = db.getSiblingDB(jsTestName());
const kCaseInsensitive = {locale: "en", strength: 2};

function setUp() {
    assert.commandWorked(dbc.dropDatabase());
    assert.commandWorked(dbc.c.insert([
        {_id: 1, s: "foo", a: ["x", "Y"]},
        {_id: 2, s: "FOO", a: ["X"]},
        {_id: 3, s: "bar", a: []},
    ]));
}

function updateMatchesByTheStatementCollation() {
    let res = assert.commandWorked(dbc.runCommand({
        update: "c",
        updates: [
            {q: {s: "foo"}, u: {$set: {t: 1}}, multi: true, collation: kCaseInsensitive},
            {q: {s: "BAR"}, u: {$set: {t: 2}}},  // simple: no match
        ],
    }));
    assert.eq(2, res.n, tojson(res));
    assert.eq(2, res.nModified, tojson(res));
    assert.eq(2, dbc.c.find({t: 1}).itcount());
    assert.eq(0, dbc.c.find({t: 2}).itcount());
}

function deleteMatchesByTheStatementCollation() {
    let res = assert.commandWorked(dbc.runCommand({
        delete: "c",
        deletes: [{q: {s: "BAR"}, limit: 0}, {q: {s: "Foo"}, limit: 0, collation: kCaseInsensitive}],
    }));
    assert.eq(2, res.n, tojson(res));
    assert.eq([3], dbc.c.find().toArray().map((d) => d._id));
}

function findAndModifyUsesTheCollation() {
    const res = assert.commandWorked(dbc.runCommand({
        findAndModify: "c",
        query: {s: "BAR"},
        update: {$set: {hit: true}},
        new: true,
        collation: kCaseInsensitive,
    }));
    assert.eq(3, res.value._id, tojson(res));
    assert.commandFailedWithCode(
        dbc.runCommand({findAndModify: "c", query: {}, remove: true, collation: {locale: "xx_bogus"}}),
        ErrorCodes.BadValue);
}

function arrayFiltersAndOperatorsUseTheCollation() {
    assert.commandWorked(dbc.runCommand({
        update: "c",
        updates: [{
            q: {_id: 1},
            u: {$set: {"a.$[e]": "z"}},
            arrayFilters: [{e: "y"}],
            collation: kCaseInsensitive,
        }],
    }));
    assert.eq(["x", "z"], dbc.c.findOne({_id: 1}).a);
    assert.commandWorked(dbc.runCommand({
        update: "c",
        updates: [{q: {_id: 2}, u: {$addToSet: {a: "x"}}, collation: kCaseInsensitive}],
    }));
    assert.eq(["X"], dbc.c.findOne({_id: 2}).a);
    assert.commandWorked(dbc.runCommand({
        update: "c",
        updates: [{q: {_id: 2}, u: {$pull: {a: "x"}}, collation: kCaseInsensitive}],
    }));
    assert.eq([], dbc.c.findOne({_id: 2}).a);
    // $max: "FOO" is not greater than "foo" under strength 2, so nothing changes.
    assert.commandWorked(dbc.runCommand({
        update: "c",
        updates: [{q: {_id: 1}, u: {$max: {s: "FOO"}}, collation: kCaseInsensitive}],
    }));
    assert.eq("foo", dbc.c.findOne({_id: 1}).s);
}

function collectionDefaultIsInherited() {
    assert.commandWorked(dbc.createCollection("d", {collation: kCaseInsensitive}));
    assert.commandWorked(dbc.d.insert([{_id: 1, s: "a"}, {_id: 2, s: "A"}]));
    let res = assert.commandWorked(dbc.d.updateMany({s: "A"}, {$set: {t: 1}}));
    assert.eq(2, res.matchedCount, tojson(res));
    res = assert.commandWorked(dbc.d.deleteMany({s: "a"}, {collation: {locale: "simple"}}));
    assert.eq(1, res.deletedCount, tojson(res));
    assert.eq(1, dbc.d.find().itcount());
}

function badSpecsAreWriteErrors() {
    let res = dbc.runCommand(
        {update: "c", updates: [{q: {}, u: {$set: {x: 1}}, collation: {locale: "xx_bogus"}}]});
    assert.commandFailedWithCode(res, ErrorCodes.BadValue);
    res = dbc.runCommand({delete: "c", deletes: [{q: {}, limit: 0, collation: {locale: "en", z: 1}}]});
    assert.commandFailedWithCode(res, ErrorCodes.FailedToParse);
    assert.eq(3, dbc.c.find().itcount());
}

for (const t of [updateMatchesByTheStatementCollation, deleteMatchesByTheStatementCollation,
                 findAndModifyUsesTheCollation, arrayFiltersAndOperatorsUseTheCollation,
                 collectionDefaultIsInherited, badSpecsAreWriteErrors]) {
    setUp();
    jsTestLog(t.name);
    t();
}
