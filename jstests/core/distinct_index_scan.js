/**
 * distinct over an index on the key (DISTINCT_SCAN + FETCH, one document per distinct indexed
 * value) returns what a collection scan returns: null and missing values, numbers of different
 * types, strings under an index collation, filters on the key, and a multikey index (not used).
 * (Filters the bounds decide exactly are covered instead: distinct_covered.js.)
 */
const indexed = db[jsTestName() + "_indexed"];
const plain = db[jsTestName() + "_plain"];

function setUp() {
    indexed.drop();
    plain.drop();
    const docs = [];
    for (let i = 0; i < 300; i++) {
        const d = {_id: i, b: i % 7};
        if (i % 11 == 0)
            d.a = null;
        else if (i % 13 == 0)
            d.a = NumberLong(String(i % 5));
        else if (i % 17 != 0)  // some documents have no `a`
            d.a = i % 3 == 0 ? "s" + (i % 4) : (i % 2 == 0 ? i % 5 : (i % 5) + 0.5);
        docs.push(d);
    }
    // Only a missing value at the start of the null key: null must still be reported.
    docs.push({_id: -1});
    assert.commandWorked(indexed.insertMany(docs));
    assert.commandWorked(plain.insertMany(docs));
    assert.commandWorked(indexed.createIndex({a: 1, b: 1}));
}

function assertSame(key, query, options) {
    const got = indexed.distinct(key, query, options);
    const expected = plain.distinct(key, query, options);
    assert.eq(tojson(expected), tojson(got), tojson({key, query, options}));
}

function sameValuesAsACollectionScan() {
    assertSame("a", {});
    assertSame("a", {a: {$gt: 1}});
    assertSame("a", {a: {$in: [null, 2, "s1"]}});
    assertSame("a", {a: {$exists: false}});
    assertSame("a", {a: {$type: "long"}});  // not decided per key: falls back to a scan
    assertSame("a", {a: /^s/});
    assertSame("a", {b: 3});
    assertSame("b", {});
}

function nullOnlyFromMissingDocuments() {
    const c = db[jsTestName() + "_missing"];
    c.drop();
    assert.commandWorked(c.insertMany([{_id: 1}, {_id: 2, a: 1}, {_id: 3, a: null}, {_id: 4}]));
    assert.commandWorked(c.createIndex({a: 1}));
    assert.eq([null, 1], c.distinct("a"));
    assert.eq([1], c.distinct("a", {_id: {$ne: 3}}));
}

function collatedIndex() {
    const c = db[jsTestName() + "_collated"];
    const p = db[jsTestName() + "_collated_plain"];
    c.drop();
    p.drop();
    const docs = [{_id: 1, a: "x"}, {_id: 2, a: "X"}, {_id: 3, a: "y"}, {_id: 4, a: "Y"}];
    assert.commandWorked(c.insertMany(docs));
    assert.commandWorked(p.insertMany(docs));
    const ci = {locale: "en", strength: 2};
    assert.commandWorked(c.createIndex({a: 1}, {collation: ci}));
    assert.eq(tojson(p.distinct("a", {}, {collation: ci})), tojson(c.distinct("a", {}, {collation: ci})));
    assert.eq(tojson(p.distinct("a")), tojson(c.distinct("a")));
}

function multikeyIndexIsNotUsed() {
    assert.commandWorked(indexed.insert({_id: 1000, a: [1, 99]}));
    assert.commandWorked(plain.insert({_id: 1000, a: [1, 99]}));
    assertSame("a", {});
}

setUp();
sameValuesAsACollectionScan();
nullOnlyFromMissingDocuments();
collatedIndex();
multikeyIndexIsNotUsed();
