/**
 * Streaming group (spec §5.4): a $group whose _id is monotonic in time ($dateTrunc of the time
 * field, the time field itself, possibly next to meta fields in an _id object) after a $sort
 * on time becomes $_internalStreamingGroup with $monotonicIdFields; results equal those of a
 * plain collection. Other keys and meta-then-time sorts keep $group.
 */
const ts = db[jsTestName() + "_ts"];
const plain = db[jsTestName() + "_plain"];
const start = ISODate("2022-01-01T09:00:00Z").getTime();

function setUp() {
    ts.drop();
    plain.drop();
    assert.commandWorked(
        db.createCollection(ts.getName(), {timeseries: {timeField: "time", metaField: "meta"}}));
    const docs = [];
    let seed = 7;
    const rand = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 200; i++)
        ["AAA", "BBB", "CCC", "DDD"].forEach((symbol, k) =>  // distinct times: no ties
            docs.push({time: new Date(start + i * 1000 + k * 250 + rand(250)), price: 100 + rand(100),
                       amount: 1 + rand(20), meta: {symbol: symbol}}));
    for (let i = docs.length - 1; i > 0; i -= 3) {  // out-of-order inserts
        const j = rand(i);
        [docs[i], docs[j]] = [docs[j], docs[i]];
    }
    assert.commandWorked(ts.insertMany(docs, {ordered: false}));
    assert.commandWorked(plain.insertMany(docs));
}

function streamingStage(pipeline) {
    const e = ts.explain("queryPlanner").aggregate(pipeline);
    assert(e.stages, tojson(e));
    const s = e.stages.find(s => s.$_internalStreamingGroup);
    return s ? s.$_internalStreamingGroup : null;
}

function assertStreams(pipeline, expectedMonotonicIdFields) {
    const stage = streamingStage(pipeline);
    assert.neq(null, stage, tojson(pipeline));
    assert.eq(expectedMonotonicIdFields, stage.$monotonicIdFields);
    assert.eq(plain.aggregate(pipeline).toArray(), ts.aggregate(pipeline).toArray(), tojson(pipeline));
}

function monotonicKeysStream() {
    const accs = {avgPrice: {$avg: {$multiply: ["$price", "$amount"]}}, n: {$sum: 1},
                  first: {$first: "$price"}, last: {$last: "$amount"}};
    assertStreams([{$sort: {time: 1}},
                   {$group: Object.assign({_id: {symbol: "$meta.symbol",
                                                 minute: {$subtract: [
                                                     {$dateTrunc: {date: "$time", unit: "minute"}},
                                                     {$dateTrunc: {date: new Date(start), unit: "minute"}}]}}},
                                          accs)},
                   {$sort: {_id: 1}}],
                  ["minute"]);
    assertStreams([{$sort: {time: 1}},
                   {$group: Object.assign({_id: {$dateTrunc: {date: "$time", unit: "second", binSize: 10}}}, accs)},
                   {$sort: {_id: 1}}],
                  ["_id"]);
    assertStreams([{$sort: {time: -1}}, {$group: {_id: "$time", n: {$sum: 1}}}, {$sort: {_id: -1}}],
                  ["_id"]);
}

function otherKeysKeepGroup() {
    for (const p of [[{$sort: {time: 1}}, {$group: {_id: "$meta.symbol", n: {$sum: 1}}}],
                     [{$sort: {"meta.symbol": 1, time: 1}}, {$group: {_id: "$time", n: {$sum: 1}}}],
                     [{$group: {_id: {$dateTrunc: {date: "$time", unit: "minute"}}, n: {$sum: 1}}}]]) {
        assert.eq(null, streamingStage(p), tojson(p));
        p.push({$sort: {_id: 1}});
        assert.eq(plain.aggregate(p).toArray(), ts.aggregate(p).toArray(), tojson(p));
    }
}

setUp();
monotonicKeysStream();
otherKeysKeepGroup();
