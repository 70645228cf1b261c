/**
 * Hostile aggregation stages: accumulators, windows and blocking stages fed millions of
 * documents generated in the pipeline itself ($range + $unwind). Stages that can spill do;
 * the others stop at their memory limit with upstream's code. mongod stays up and its memory
 * bounded (jstests/libs/hostile.js).
 */
load("jstests/libs/hostile.js");

const coll = db.hostile_stages;
coll.drop();
assert.commandWorked(coll.insert({_id: 1}));

/** n generated documents {r: 0..n-1, s: a 40-byte string}, then `rest`. */
const generated = (n, rest) => hostileAggregate(coll, [
    {$project: {_id: 0, r: {$range: [0, n]}}},
    {$unwind: "$r"},
    {$addFields: {s: {$concat: ["0123456789012345678901234567890123456789", {$toString: "$r"}]}}},
    ...rest,
], {allowDiskUse: true});

function accumulatorsStopAtTheirLimits() {
    hostileCase("$push of three million strings into one group",
                () => generated(3000000, [{$group: {_id: null, a: {$push: "$s"}}}]),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$addToSet of three million distinct strings",
                () => generated(3000000, [{$group: {_id: null, a: {$addToSet: "$s"}}}]),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$lastN with n = 10^15",
                () => generated(3000000, [{$group: {_id: null, a: {$lastN: {n: 1e15, input: "$s"}}}}]),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$topN with n = 10^15",
                () => generated(3000000, [{$group: {_id: null, a: {$topN: {n: 1e15, sortBy: {r: 1}, output: "$s"}}}}]),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$group of a million groups spills and works",
                () => generated(1000000, [{$group: {_id: "$r", c: {$sum: 1}}}, {$count: "n"}]),
                {seconds: 60});
}

function windowsStopAtTheirLimit() {
    // The partition cache spills; what a window function holds itself cannot. (The sorted
    // cases use fewer, longer documents: sorting millions of rows takes minutes on a busy box.)
    const long = {$addFields: {s: {$concat: ["$s", "$s", "$s", "$s"]}}};
    hostileCase("$setWindowFields $push over an unbounded window",
                () => generated(3000000, [{$setWindowFields: {output: {all: {
                          $push: "$s", window: {documents: ["unbounded", "unbounded"]}}}}}]),
                {codes: [5414201, ErrorCodes.ExceededMemoryLimit], seconds: 120});
    // Rows stream out, so the first batch comes back after the sort; the rest of this output
    // is quadratic in size (row i holds i values), as upstream's: the server must stay small.
    hostileCase("$setWindowFields sliding $push over the whole input",
                () => generated(1200000, [long, {$setWindowFields: {sortBy: {r: 1}, output: {all: {
                          $push: "$s", window: {documents: ["unbounded", "current"]}}}}}]),
                {anyOutcome: true, seconds: 120});
    hostileCase("$setWindowFields over a million-document partition spills and works",
                () => generated(1000000, [long, {$setWindowFields: {sortBy: {r: -1}, output: {sum: {
                          $sum: "$r", window: {documents: [-1, 1]}}}}}, {$count: "n"}]),
                {seconds: 120});
}

function blockingStagesStopOrSpill() {
    hostileCase("$sort of two million documents spills and works",
                () => generated(2000000, [{$sort: {s: -1}}, {$limit: 1}]), {seconds: 60});
    hostileCase("$bucketAuto over three million documents spills and works",
                () => generated(3000000, [{$bucketAuto: {groupBy: "$s", buckets: 5}}]),
                {seconds: 60});
    hostileCase("$facet over three million documents",
                () => generated(3000000, [{$facet: {n: [{$count: "n"}]}}]),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$densify over a range of 10^12",
                () => hostileAggregate(coll, [{$project: {x: {$literal: 0}}},
                                              {$densify: {field: "x", range: {step: 1, bounds: [0, 1e12]}}}]),
                {codes: [5897900]});
    hostileCase("$lookup collecting far more than 100 MB",
                () => generated(1, [{$lookup: {from: coll.getName(), pipeline: [
                          {$project: {r: {$range: [0, 20]}}}, {$unwind: "$r"},
                          {$project: {big: {$range: [0, 500000]}}}], as: "j"}}]),
                {codes: [4568]});
}

function resultsStopAt16MB() {
    hostileCase("an aggregate whose result document is 40 MB",
                () => hostileAggregate(coll, [{$project: {a: {$range: [0, 4000000]}}}]),
                {codes: [ErrorCodes.BSONObjectTooLarge]});
    hostileCase("a pipeline of 1001 stages",
                () => hostileAggregate(coll, Array(1001).fill({$match: {}})), {codes: [7749501]});
    hostileCase("a pipeline of 1000 stages works",
                () => hostileAggregate(coll, Array(1000).fill({$addFields: {x: 1}})));
}

accumulatorsStopAtTheirLimits();
windowsStopAtTheirLimit();
blockingStagesStopOrSpill();
resultsStopAt16MB();

print("hostile: peak RSS of mongod so far " + hostilePeakRssMB().toFixed(0) + " MB");
