/**
 * Hostile aggregation expressions: strings, arrays and nesting that grow without bound, and
 * arithmetic on extreme values. Each ends with upstream's error (or a result) in seconds,
 * mongod stays up and its memory bounded (jstests/libs/hostile.js).
 */
load("jstests/libs/hostile.js");

const coll = db.hostile_expressions;
coll.drop();
assert.commandWorked(coll.insert({_id: 1, s: "ab", n: 1, mb: "m".repeat(1 << 20)}));

const project = (expr) => hostileAggregate(coll, [{$project: {_id: 0, v: expr}}]);
const doublingReduce = (initialValue, inExpr, times = 40) =>
    project({$reduce: {input: {$range: [0, times]}, initialValue, in: inExpr}});

function stringsStopAt16MB() {
    hostileCase("$concat doubling a string in $reduce",
                () => doublingReduce("$s", {$concat: ["$$value", "$$value"]}), {codes: [16493]});
    hostileCase("$concat of 64 one-MB strings",
                () => project({$concat: Array(64).fill("$mb")}), {codes: [16493]});
    hostileCase("$replaceAll turning each character into 1 KB",
                () => doublingReduce("$s", {$replaceAll: {input: {$concat: ["$$value", "$$value"]},
                                                          find: "a", replacement: "z".repeat(1024)}},
                                     30),
                {codes: [16493]});
    hostileCase("$toUpper of an 8 MB string works",
                () => project({$strLenBytes: {$toUpper: "x".repeat(8 << 20)}}));
}

function arraysCountedBeforeBuilt() {
    hostileCase("$range over four billion integers",
                () => project({$size: {$range: [-2147483648, 2147483647]}}),
                {codes: [ErrorCodes.ExceededMemoryLimit], seconds: 5});
    hostileCase("$range of one million integers works",
                () => project({$size: {$range: [0, 1000000]}}));
    hostileCase("$concatArrays doubling an array in $reduce",
                () => doublingReduce([1, 2, 3, 4], {$concatArrays: ["$$value", "$$value"]}),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$map of six million 40-byte strings",
                () => project({$size: {$map: {input: {$range: [0, 6000000]},
                                               in: {$concat: ["$s", "x".repeat(38)]}}}}),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$filter keeping six million elements",
                () => project({$size: {$filter: {input: {$range: [0, 6000000]}, cond: true}}}));
    hostileCase("$split of a 15 MB string into empty strings",
                () => project({$size: {$split: [",".repeat(15 << 20), ","]}}),
                {codes: [ErrorCodes.ExceededMemoryLimit, 16493]});
    hostileCase("$regexFindAll of an empty match over 4 MB",
                () => project({$size: {$regexFindAll: {input: "y".repeat(4 << 20), regex: ""}}}),
                {codes: [ErrorCodes.ExceededMemoryLimit]});
    hostileCase("$zip of three large ranges",
                () => project({$size: {$zip: {inputs: [{$range: [0, 2000000]},
                                                        {$range: [0, 2000000]},
                                                        {$range: [0, 2000000]}]}}}),
                {anyOutcome: true});
    hostileCase("$setUnion of two large ranges",
                () => project({$size: {$setUnion: [{$range: [0, 1000000]}, {$range: [500000, 1500000]}]}}));
}

function nestingStopsAt200Levels() {
    hostileCase("$reduce wrapping an object 1000 levels deep",
                () => doublingReduce({}, {a: "$$value"}, 1000), {codes: [ErrorCodes.Overflow]});
    hostileCase("$reduce wrapping an array 1000 levels deep",
                () => doublingReduce([], ["$$value"], 1000), {codes: [ErrorCodes.Overflow]});
    hostileCase("$reduce nesting objects 150 levels deep works",
                () => doublingReduce({}, {a: "$$value"}, 150));
}

function extremeArithmetic() {
    hostileCase("$dateAdd of 2^62 years",
                () => project({$dateAdd: {startDate: new Date(0), unit: "year",
                                          amount: NumberLong("4611686018427387904")}}),
                {codes: [5976500]});
    hostileCase("$dateSubtract of the smallest long",
                () => project({$dateSubtract: {startDate: new Date(0), unit: "millisecond",
                                               amount: NumberLong("-9223372036854775808")}}),
                {codes: [5976500]});
    hostileCase("$dateTrunc with a binSize of 2^62 hours",
                () => project({$dateTrunc: {date: new Date(0), unit: "hour",
                                            binSize: NumberLong("4611686018427387904")}}),
                {codes: [ErrorCodes.BadValue]});
    hostileCase("$dateTrunc of the latest date",
                () => project({$dateTrunc: {date: new Date(8.64e15), unit: "week", binSize: 3}}));
    hostileCase("$substrBytes with the largest length",
                () => project({$substrBytes: ["$s", 1, NumberLong("9223372036854775807")]}));
    hostileCase("$slice with extreme positions",
                () => project({$slice: [{$range: [0, 10]}, -2147483648, 2147483647]}));
    hostileCase("$pow and $exp overflowing to infinity",
                () => project({a: {$pow: [10, 400]}, b: {$exp: 1000}, c: {$multiply: [NumberLong("9223372036854775807"), 2]}}));
}

stringsStopAt16MB();
arraysCountedBeforeBuilt();
nestingStopsAt200Levels();
extremeArithmetic();

print("hostile: peak RSS of mongod so far " + hostilePeakRssMB().toFixed(0) + " MB");
