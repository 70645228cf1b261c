/**
 * aggregate with a `collation` ({locale: "en", strength: 2}: case-insensitive): $group
 * merges keys equal under it, $sort uses it (numericOrdering orders digit runs as
 * numbers), $match and $expr compare with it, $lookup joins with it, and a collection's
 * default collation applies when the request gives none.
 */
const coll = db[jsTestName()];
const other = db[jsTestName() + "_other"];
const caseInsensitive = {locale: "en", strength: 2};

function setUp() {
    coll.drop();
    other.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, k: "a", n: "10"},
        {_id: 2, k: "A", n: "9"},
        {_id: 3, k: "b", n: "100"},
    ]));
    assert.commandWorked(other.insertMany([{_id: 1, key: "B"}, {_id: 2, key: "z"}]));
}

function groupMergesCaseVariants() {
    const res = coll.aggregate([{$group: {_id: "$k", c: {$sum: 1}}}, {$sort: {c: -1}}],
                               {collation: caseInsensitive})
                    .toArray();
    assert.eq(2, res.length, tojson(res));
    assert.eq(2, res[0].c);
    // Without a collation the three keys stay apart.
    assert.eq(3, coll.aggregate([{$group: {_id: "$k"}}]).toArray().length);
}

function sortWithNumericOrdering() {
    const res = coll.aggregate([{$sort: {n: 1}}], {collation: {locale: "en", numericOrdering: true}})
                    .toArray();
    assert.eq(["9", "10", "100"], res.map(d => d.n));
    const simple = coll.aggregate([{$sort: {n: 1}}]).toArray();
    assert.eq(["10", "100", "9"], simple.map(d => d.n));
}

function matchIsCaseInsensitive() {
    assert.eq(2, coll.aggregate([{$match: {k: "A"}}], {collation: caseInsensitive}).itcount());
    assert.eq(
        2,
        coll.aggregate([{$match: {$expr: {$eq: ["$k", "a"]}}}], {collation: caseInsensitive})
            .itcount());
    assert.eq(1, coll.aggregate([{$match: {k: "A"}}]).itcount());
}

function lookupUsesTheCollation() {
    const res = coll.aggregate([
                        {$match: {_id: 3}},
                        {$lookup: {from: other.getName(), localField: "k", foreignField: "key",
                                   as: "j"}},
                    ],
                               {collation: caseInsensitive})
                    .toArray();
    assert.eq(1, res[0].j.length, tojson(res));
    const simple = coll.aggregate([
                           {$match: {_id: 3}},
                           {$lookup: {from: other.getName(), localField: "k",
                                      foreignField: "key", as: "j"}},
                       ])
                       .toArray();
    assert.eq(0, simple[0].j.length);
}

function collectionDefaultApplies() {
    const withDefault = db[jsTestName() + "_ci"];
    withDefault.drop();
    assert.commandWorked(db.createCollection(withDefault.getName(), {collation: caseInsensitive}));
    assert.commandWorked(withDefault.insertMany([{k: "x"}, {k: "X"}]));
    assert.eq(1, withDefault.aggregate([{$group: {_id: "$k"}}]).toArray().length);
    // An explicit simple collation overrides the default.
    assert.eq(2,
              withDefault.aggregate([{$group: {_id: "$k"}}], {collation: {locale: "simple"}})
                  .toArray()
                  .length);
}

function badCollationsAreRejected() {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [], cursor: {},
                       collation: {locale: "en", bogus: 1}}),
        ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [], cursor: {},
                       collation: {locale: "en", strength: 9}}),
        ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: coll.getName(), pipeline: [], cursor: {},
                       collation: {locale: "xx_nonexistent"}}),
        ErrorCodes.BadValue);
}

setUp();
groupMergesCaseVariants();
sortWithNumericOrdering();
matchIsCaseInsensitive();
lookupUsesTheCollation();
collectionDefaultApplies();
badCollationsAreRejected();
