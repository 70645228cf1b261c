/**
 * $graphLookup: breadth-first search over another collection, view or time-series
 * collection; maxDepth, depthField, restrictSearchWithMatch, null/missing handling,
 * its validation errors, the memory limit (40099) and explain.
 */
const local = db[jsTestName() + "_local"];
const foreign = db[jsTestName() + "_foreign"];

function setUp() {
    local.drop();
    foreign.drop();
    assert.commandWorked(local.insert({_id: 0, start: 1}));
    // A chain 1 -> 2 -> 3 -> 4 plus a branch 2 -> 5 and a cycle 4 -> 1.
    assert.commandWorked(foreign.insert([
        {_id: 1, name: 1, next: 2},
        {_id: 2, name: 2, next: [3, 5]},
        {_id: 3, name: 3, next: 4},
        {_id: 4, name: 4, next: 1},
        {_id: 5, name: 5, kind: "leaf"},
        {_id: 6, name: 6, next: 1},
    ]));
}

function graph(extra) {
    return Object.assign({
        from: foreign.getName(),
        startWith: "$start",
        connectFromField: "next",
        connectToField: "name",
        as: "out",
    },
                         extra || {});
}

function ids(doc) {
    return doc.out.map(d => d._id).sort();
}

function followsEdgesWithCycles() {
    const res = local.aggregate([{$graphLookup: graph()}]).toArray();
    assert.eq(1, res.length);
    assert.eq([1, 2, 3, 4, 5], ids(res[0]));
}

function maxDepthAndDepthField() {
    const res = local.aggregate([{$graphLookup: graph({maxDepth: 1, depthField: "d"})}]).toArray();
    assert.eq([1, 2], ids(res[0]));
    const depths = {};
    res[0].out.forEach(d => depths[d._id] = d.d);
    assert.eq(NumberLong(0), depths[1]);
    assert.eq(NumberLong(1), depths[2]);
    const zero = local.aggregate([{$graphLookup: graph({maxDepth: 0})}]).toArray();
    assert.eq([1], ids(zero[0]));
}

function startWithArrayAndExpression() {
    const res =
        local.aggregate([{$graphLookup: graph({startWith: [5, {$add: [2, 1]}], maxDepth: 0})}])
            .toArray();
    assert.eq([3, 5], ids(res[0]));
}

function restrictSearchWithMatch() {
    const res = local
                    .aggregate([{
                        $graphLookup: graph({restrictSearchWithMatch: {_id: {$ne: 3}}}),
                    }])
                    .toArray();
    assert.eq([1, 2, 5], ids(res[0]));
    // $expr can read variables of an enclosing $lookup.
    const nested = local
                       .aggregate([{
                           $lookup: {
                               from: local.getName(),
                               let: {skip: 5},
                               pipeline: [{
                                   $graphLookup: graph({
                                       restrictSearchWithMatch: {$expr: {$ne: ["$_id", "$$skip"]}},
                                   })
                               }],
                               as: "inner",
                           }
                       }])
                       .toArray();
    assert.eq([1, 2, 3, 4], ids(nested[0].inner[0]));
}

function nullMatchesOnlyNull() {
    foreign.drop();
    assert.commandWorked(foreign.insert([{_id: 1, name: null}, {_id: 2}, {_id: 3, name: 7}]));
    let res = local.aggregate([{$graphLookup: graph({startWith: null})}]).toArray();
    assert.eq([1], ids(res[0]));
    // A missing startWith value finds nothing.
    res = local.aggregate([{$graphLookup: graph({startWith: "$nothing"})}]).toArray();
    assert.eq([], res[0].out);
}

function fromAViewAndATimeseriesCollection() {
    const view = db[jsTestName() + "_view"];
    view.drop();
    assert.commandWorked(
        db.createView(view.getName(), foreign.getName(), [{$match: {_id: {$ne: 5}}}]));
    let res = local.aggregate([{$graphLookup: graph({from: view.getName()})}]).toArray();
    assert.eq([1, 2, 3, 4], ids(res[0]));

    const ts = db[jsTestName() + "_ts"];
    ts.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    const t = ISODate("2024-01-01T00:00:00Z");
    assert.commandWorked(ts.insert([
        {_id: 1, t: t, m: "a", name: 1, next: 2},
        {_id: 2, t: t, m: "b", name: 2, next: 3},
        {_id: 3, t: t, m: "a", name: 3},
    ]));
    res = local.aggregate([{$graphLookup: graph({from: ts.getName(), depthField: "d"})}])
              .toArray();
    assert.eq([1, 2, 3], ids(res[0]));
    res[0].out.forEach(d => assert.eq(t, d.t));
}

function graphLookupStats() {
    const exp = local.explain("executionStats").aggregate([{$graphLookup: graph()}]);
    const stage = exp.stages.find(s => s.$graphLookup);
    assert(stage, tojson(exp));
    return stage;
}

function usesAnIndexOnConnectToField() {
    let stats = graphLookupStats();
    assert.gt(stats.collectionScans, 0, tojson(stats));
    assert.eq([], stats.indexesUsed, tojson(stats));
    assert.commandWorked(foreign.createIndex({name: 1}));
    const res = local.aggregate([{$graphLookup: graph()}]).toArray();
    assert.eq([1, 2, 3, 4, 5], ids(res[0]));
    stats = graphLookupStats();
    assert.eq(0, stats.collectionScans, tojson(stats));
    assert.eq(["name_1"], stats.indexesUsed, tojson(stats));
    assert.gt(stats.totalKeysExamined, 0, tojson(stats));
    assert.commandWorked(foreign.dropIndex({name: 1}));
}

function comparesWithTheCollation() {
    foreign.drop();
    assert.commandWorked(foreign.insert([{_id: 1, name: "a", next: "B"}, {_id: 2, name: "b"}]));
    const pipeline = [{$graphLookup: graph({startWith: "A"})}];
    assert.eq([], ids(local.aggregate(pipeline).toArray()[0]));
    const res =
        local.aggregate(pipeline, {collation: {locale: "en", strength: 2}}).toArray();
    assert.eq([1, 2], ids(res[0]));
    setUp();
}

function explainShowsTheSpec() {
    const exp = local.explain().aggregate([{$graphLookup: graph({maxDepth: 2, depthField: "d"})}]);
    const stage = exp.stages.find(s => s.$graphLookup);
    assert(stage, tojson(exp));
    assert.eq(foreign.getName(), stage.$graphLookup.from);
    assert.eq("name", stage.$graphLookup.connectToField);
    assert.eq("next", stage.$graphLookup.connectFromField);
    assert.eq("out", stage.$graphLookup.as);
    assert.eq(NumberLong(2), stage.$graphLookup.maxDepth);
    assert.eq("d", stage.$graphLookup.depthField);
    assert.eq("$start", stage.$graphLookup.startWith);
}

function absorbsAFollowingUnwind() {
    const pipeline = [{$graphLookup: graph({depthField: "d"})}, {$unwind: "$out"}];
    const res = local.aggregate(pipeline).toArray();
    assert.eq([1, 2, 3, 4, 5], res.map(d => d.out._id).sort());
    const exp = local.explain().aggregate(pipeline);
    const stage = exp.stages.find(s => s.$graphLookup);
    assert.eq({preserveNullAndEmptyArrays: false}, stage.$graphLookup.unwinding, tojson(exp));
    assert(!exp.stages.some(s => s.$unwind), tojson(exp));

    const withIndex = local
                          .aggregate([
                              {$graphLookup: graph({startWith: "$nothing"})},
                              {$unwind: {path: "$out", preserveNullAndEmptyArrays: true,
                                         includeArrayIndex: "i"}},
                          ])
                          .toArray();
    assert.eq([{_id: 0, start: 1, i: null}], withIndex);
    const indexes = local
                        .aggregate([
                            {$graphLookup: graph({maxDepth: 0})},
                            {$unwind: {path: "$out", includeArrayIndex: "i"}},
                        ])
                        .toArray();
    assert.eq([{_id: 0, start: 1, out: {_id: 1, name: 1, next: 2}, i: NumberLong(0)}], indexes);
}

function resultsPastSixteenMegabytesNeedUnwind() {
    const big = db[jsTestName() + "_big"];
    big.drop();
    const pad = "x".repeat(1024 * 1024);
    for (let i = 0; i < 20; i++)
        assert.commandWorked(big.insert({_id: i, name: 7, pad: pad}));
    const spec = graph({from: big.getName(), startWith: 7, maxDepth: 0});
    assert.commandFailedWithCode(
        db.runCommand({aggregate: local.getName(), pipeline: [{$graphLookup: spec}], cursor: {}}),
        ErrorCodes.BSONObjectTooLarge);
    const n = local.aggregate([{$graphLookup: spec}, {$unwind: "$out"}, {$project: {pad: 0}}])
                  .itcount();
    assert.eq(20, n);
    big.drop();
}

function validationErrors() {
    const fail = (spec, code) => assert.commandFailedWithCode(
        db.runCommand({aggregate: local.getName(), pipeline: [{$graphLookup: spec}], cursor: {}}),
        code,
        tojson(spec));
    fail(4, ErrorCodes.FailedToParse);
    fail(graph({maxDepth: "x"}), 40100);
    fail(graph({maxDepth: -1}), 40101);
    fail(graph({maxDepth: 2.3}), 40102);
    fail(graph({from: -1}), ErrorCodes.FailedToParse);
    fail(graph({from: ""}), ErrorCodes.InvalidNamespace);
    fail(graph({as: 0}), 40103);
    fail(graph({as: "$out"}), 16410);
    fail(graph({connectFromField: 0}), 40103);
    fail(graph({connectToField: "$a"}), 16410);
    fail(graph({depthField: 0}), 40103);
    fail(graph({restrictSearchWithMatch: "x"}), 40185);
    fail(graph({restrictSearchWithMatch: {$where: "1"}}), ErrorCodes.BadValue);
    fail(graph({restrictSearchWithMatch: {$and: [{a: {$near: [0, 0]}}]}}), ErrorCodes.BadValue);
    fail(graph({restrictSearchWithMatch: {$expr: {$eq: ["$a", "$$unbound"]}}}), 17276);
    fail(graph({other: 1}), 40104);
    const noTo = graph();
    delete noTo.connectToField;
    fail(noTo, 40105);
    const noStart = graph();
    delete noStart.startWith;
    fail(noStart, 40105);
    const noFrom = graph();
    delete noFrom.from;
    fail(noFrom, ErrorCodes.FailedToParse);
}

function documentsWithoutIdAreRefused() {
    const view = db[jsTestName() + "_noid"];
    view.drop();
    assert.commandWorked(db.createView(view.getName(), foreign.getName(), [{$project: {_id: 0}}]));
    assert.commandFailedWithCode(db.runCommand({
        aggregate: local.getName(),
        pipeline: [{$graphLookup: graph({from: view.getName()})}],
        cursor: {}
    }),
                                 40271);
}

function memoryLimit() {
    const knob = "internalDocumentSourceGraphLookupMaxMemoryBytes";
    const old = assert.commandWorked(db.adminCommand({getParameter: 1, [knob]: 1}))[knob];
    assert.eq(100 * 1024 * 1024, old);
    assert.commandWorked(db.adminCommand({setParameter: 1, [knob]: 200}));
    try {
        assert.commandFailedWithCode(
            db.runCommand(
                {aggregate: local.getName(), pipeline: [{$graphLookup: graph()}], cursor: {}}),
            40099);
    } finally {
        assert.commandWorked(db.adminCommand({setParameter: 1, [knob]: old}));
    }
}

setUp();
followsEdgesWithCycles();
maxDepthAndDepthField();
startWithArrayAndExpression();
restrictSearchWithMatch();
usesAnIndexOnConnectToField();
comparesWithTheCollation();
explainShowsTheSpec();
absorbsAFollowingUnwind();
resultsPastSixteenMegabytesNeedUnwind();
validationErrors();
fromAViewAndATimeseriesCollection();
documentsWithoutIdAreRefused();
memoryLimit();
nullMatchesOnlyNull();
