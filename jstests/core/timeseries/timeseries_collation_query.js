/**
 * Queries on a time-series collection with a default collation give the same results as
 * on a regular collection with that collation, with and without an explicit query
 * collation: bucket-level string predicates are only used when the query's collation is
 * the collection's (spec §5.3.1), and the $group min/max rewrite likewise (§5.4).
 */
function createColl(n, o) {
    return db.runCommand(Object.assign({create: n}, o || {}));
}
const tsName = jsTestName() + "_ts";
const plainName = jsTestName() + "_plain";
const collation = {locale: "en", strength: 2};
const t0 = ISODate("2024-01-01T00:00:00Z");
const words = ["a", "A", "b", "B", "c", "C", "apple", "Apple", "zeta", "Zeta", "é", "E"];

function setUp() {
    db[tsName].drop();
    db[plainName].drop();
    assert.commandWorked(
        createColl(tsName, {timeseries: {timeField: "t", metaField: "m"}, collation: collation}));
    assert.commandWorked(createColl(plainName, {collation: collation}));
    const docs = [];
    for (let i = 0; i < words.length * 3; i++) {
        docs.push({
            _id: i,
            t: new Date(t0.getTime() + i * 60 * 1000),
            m: i % 3 === 0 ? "x" : "X",
            s: words[i % words.length],
            n: i
        });
    }
    assert.commandWorked(db[tsName].insert(docs));
    assert.commandWorked(db[plainName].insert(docs));
}

function ids(cursor) {
    return cursor.toArray().map(d => d._id).sort((a, b) => a - b);
}

const filters = [
    {s: "a"},
    {s: {$gt: "b"}},
    {s: {$gte: "B"}},
    {s: {$lt: "b"}},
    {s: {$lte: "APPLE"}},
    {s: {$in: ["A", "zeta"]}},
    {s: {$ne: "c"}},
    {m: "x"},
    {m: "X", s: "C"},
    {$or: [{s: "a"}, {n: {$gt: 30}}]},
];

function findMatchesRegularCollection() {
    setUp();
    for (const f of filters) {
        for (const c of [undefined, {locale: "simple"}, collation, {locale: "en"}]) {
            const plain = db[plainName].find(f);
            const ts = db[tsName].find(f);
            if (c) {
                plain.collation(c);
                ts.collation(c);
            }
            const want = ids(plain);
            const got = ids(ts);
            assert.eq(want, got, "filter " + tojson(f) + " collation " + tojson(c));
        }
    }
}

function aggregateMatchesRegularCollection() {
    setUp();
    for (const f of filters) {
        for (const c of [undefined, {locale: "simple"}, {locale: "en"}]) {
            const opts = c ? {collation: c} : {};
            const pipeline = [{$match: f}];
            const want = ids(db[plainName].aggregate(pipeline, c ? opts : {}));
            const got = ids(db[tsName].aggregate(pipeline, opts));
            assert.eq(want, got, "filter " + tojson(f) + " collation " + tojson(c));
        }
    }
}

function groupMinMaxMatchesRegularCollection() {
    setUp();
    const pipeline = [
        {$group: {_id: null, lo: {$min: "$s"}, hi: {$max: "$s"}}},
        {$project: {_id: 0, lo: {$toLower: "$lo"}, hi: {$toLower: "$hi"}}}
    ];
    for (const c of [undefined, {locale: "simple"}]) {
        const opts = c ? {collation: c} : {};
        const want = db[plainName].aggregate(pipeline, opts).toArray();
        const got = db[tsName].aggregate(pipeline, opts).toArray();
        assert.eq(want, got, "collation " + tojson(c));
    }
}

function defaultCollationMinMax() {
    setUp();
    // Under the default collation "B" is the maximum of {"a", "B"}; under simple, "a".
    const q = [{$match: {s: {$in: ["a", "B"]}}}, {$group: {_id: null, hi: {$max: "$s"}}}];
    assert.eq("B", db[tsName].aggregate(q).toArray()[0].hi.toUpperCase());
    assert.eq("a", db[tsName].aggregate(q, {collation: {locale: "simple"}}).toArray()[0].hi);
}

function stageNames(explain) {
    return explain.stages.map(st => Object.keys(st)[0]);
}

function bucketPredicatesOnlyUnderDefaultCollation() {
    setUp();
    // The bucket-level predicate may stay a $match or be pushed into the bucket scan.
    const match = [{$match: {s: {$gt: "b"}}}];
    const dflt = tojson(db[tsName].explain().aggregate(match));
    assert(dflt.includes("control.max.s"), dflt);
    const simple = tojson(db[tsName].explain().aggregate(match, {collation: {locale: "simple"}}));
    assert(!simple.includes("control.max.s"), simple);
    // Non-string operands are mapped under any collation.
    const numeric = tojson(
        db[tsName].explain().aggregate([{$match: {n: {$gt: 3}}}], {collation: {locale: "simple"}}));
    assert(numeric.includes("control.max.n"), numeric);
}

function groupRewriteOnlyUnderDefaultCollation() {
    setUp();
    const group = [{$group: {_id: "$m", hi: {$max: "$s"}}}];
    assert(!stageNames(db[tsName].explain().aggregate(group)).includes("$_internalUnpackBucket"));
    assert(stageNames(db[tsName].explain().aggregate(group, {collation: {locale: "simple"}}))
               .includes("$_internalUnpackBucket"));
}

function deletesHonourStatementCollation() {
    setUp();
    const count = s => db[plainName].find({s: s}).collation({locale: "simple"}).itcount();
    const before = db[tsName].find().itcount();
    // Simple collation: only the exact "b" measurements go.
    assert.commandWorked(db[tsName].deleteMany({s: "b"}, {collation: {locale: "simple"}}));
    assert.eq(before - count("b"), db[tsName].find().itcount());
    // Default collation (strength 2): "B" goes too.
    assert.commandWorked(db[tsName].deleteMany({s: "b"}));
    assert.eq(before - count("b") - count("B"), db[tsName].find().itcount());
    assert.eq(0, db[tsName].find({s: "B"}).collation({locale: "simple"}).itcount());
}

runScenarios(findMatchesRegularCollection, aggregateMatchesRegularCollection,
             groupMinMaxMatchesRegularCollection, defaultCollationMinMax,
             bucketPredicatesOnlyUnderDefaultCollation, groupRewriteOnlyUnderDefaultCollation,
             deletesHonourStatementCollation);
