// Stable API parameters (apiVersion / apiStrict / apiDeprecationErrors), as upstream 8.0: their
// parsing, commands outside API Version 1, unstable options, stages, indexes and expressions,
// getMore's matching rule, and time-series collections under apiStrict.
const testDb = db.getSiblingDB("api_version_strict");
testDb.dropDatabase();
const V1 = {apiVersion: "1"};
const STRICT = {apiVersion: "1", apiStrict: true};
const run = (cmd, params) => testDb.runCommand(Object.assign({}, cmd, params || {}));

// Parsing.
assert.commandFailedWithCode(run({ping: 1}, {apiStrict: true}), 4886600);
assert.commandFailedWithCode(run({ping: 1}, {apiDeprecationErrors: false}), 4886600);
assert.commandFailedWithCode(run({ping: 1}, {apiVersion: 1}), ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(run({ping: 1}, {apiVersion: "2"}), ErrorCodes.APIVersionError);
assert.commandFailedWithCode(run({ping: 1}, {apiVersion: "1", apiStrict: 1}), ErrorCodes.TypeMismatch);
assert.commandFailedWithCode(run({ping: 1}, {apiVersion: "1", apiDeprecationErrors: "x"}),
                             ErrorCodes.TypeMismatch);
assert.commandWorked(run({ping: 1}, {apiVersion: "1", apiStrict: true, apiDeprecationErrors: true}));
assert.commandWorked(run({ping: 1}, V1));

// Commands: by the name they are invoked with.
assert.commandWorked(run({listCommands: 1}, V1));
let err = assert.commandFailedWithCode(run({buildInfo: 1}, STRICT), ErrorCodes.APIStrictError);
assert(err.errmsg.includes("buildInfo") && err.errmsg.includes("dochub.mongodb.org"), err);
assert.commandFailedWithCode(run({isMaster: 1}, STRICT), ErrorCodes.APIStrictError);
assert.commandWorked(run({hello: 1}, STRICT));
const coll = testDb.c;
assert.commandWorked(coll.insert([{_id: 1, a: 1, s: 1}, {_id: 2, a: 2}, {_id: 3, a: 3, s: 3}]));
assert.commandWorked(run({findAndModify: "c", query: {_id: 1}, update: {$inc: {a: 1}}}, STRICT));
assert.commandFailedWithCode(run({findandmodify: "c", query: {_id: 1}, update: {$inc: {a: 1}}}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandWorked(run({findandmodify: "c", query: {_id: 1}, update: {$inc: {a: -1}}}, V1));
const cmds = assert.commandWorked(testDb.runCommand({listCommands: 1})).commands;
assert.eq(["1"], cmds.find.apiVersions);
assert.eq([], cmds.buildInfo.apiVersions);
assert.commandFailedWithCode(run({insert: "system.js", documents: [{_id: "f", value: 1}]}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandWorked(run({find: "system.js"}, STRICT));

// getMore repeats the parameters of the command that made its cursor.
const combos = [{}, V1, STRICT, {apiVersion: "1", apiDeprecationErrors: false}];
for (const a of combos) {
    for (const b of combos) {
        const id = assert.commandWorked(run({find: "c", batchSize: 1}, a)).cursor.id;
        const res = run({getMore: id, collection: "c"}, b);
        if (a === b)
            assert.commandWorked(res);
        else
            assert.commandFailedWithCode(res, ErrorCodes.APIMismatchError);
        testDb.runCommand({killCursors: "c", cursors: [id]});
    }
}

// Options outside API Version 1.
for (const f of [{min: {a: 1}}, {returnKey: false}, {showRecordId: false}, {tailable: false},
                 {noCursorTimeout: false}, {readOnce: false}])
    assert.commandFailedWithCode(run(Object.assign({find: "c"}, f), STRICT), ErrorCodes.APIStrictError, f);
assert.commandWorked(run({find: "c", filter: {a: 2}, sort: {a: 1}, limit: 1}, STRICT));
for (const f of [{explain: true}, {isMapReduceCommand: false}, {collectionUUID: UUID()},
                 {runtimeConstants: {localNow: new Date()}}])
    assert.commandFailedWithCode(run(Object.assign({aggregate: "c", pipeline: [], cursor: {}}, f), STRICT),
                                 ErrorCodes.APIStrictError, f);
// runtimeConstants.localNow is $$NOW.
const fixed = ISODate("2020-01-02T03:04:05Z");
const nowRes = assert.commandWorked(testDb.runCommand(
    {aggregate: "c", pipeline: [{$limit: 1}, {$project: {_id: 0, now: "$$NOW"}}], cursor: {},
     runtimeConstants: {localNow: fixed}}));
assert.eq(fixed, nowRes.cursor.firstBatch[0].now);

assert.commandWorked(run({create: "plain"}, STRICT));
assert.commandWorked(run({create: "notCapped", capped: false}, STRICT));
assert.commandFailedWithCode(run({create: "capped1", capped: true, size: 1000}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandFailedWithCode(run({create: "capped2", capped: true}, STRICT), ErrorCodes.InvalidOptions);
assert.commandWorked(coll.createIndex({a: 1}));
assert.commandFailedWithCode(run({collMod: "c", index: {name: "a_1", prepareUnique: true}}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandWorked(run({collMod: "c", index: {name: "a_1", hidden: false}}, STRICT));
assert.commandFailedWithCode(run({createIndexes: "c", indexes: [{key: {t: "text"}, name: "t_text"}]}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandFailedWithCode(run({createIndexes: "c", indexes: [{key: {b: 1}, name: "b_1", sparse: true}]}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandWorked(run({createIndexes: "c", indexes: [{key: {b: 1}, name: "b_1"}]}, STRICT));

// Sparse indexes do not exist for the planner under apiStrict.
assert.commandWorked(coll.createIndex({s: 1}, {sparse: true}));
assert.commandFailedWithCode(run({find: "c", filter: {s: 1}, hint: {s: 1}}, STRICT), ErrorCodes.BadValue);
assert.eq(1, assert.commandWorked(run({find: "c", filter: {s: 1}, hint: {s: 1}}, V1)).cursor.firstBatch.length);
const plan = assert.commandWorked(run({explain: {find: "c", filter: {s: 3}}}, STRICT));
assert(!JSON.stringify(plan.queryPlanner.winningPlan).includes("s_1"), plan);
assert.eq(1, assert.commandWorked(run({find: "c", filter: {s: 3}}, STRICT)).cursor.firstBatch.length);

// Stages: at any depth, and in views (defined or read under apiStrict).
const unstable = [
    [{$indexStats: {}}],
    [{$currentOp: {}}],
    [{$collStats: {latencyStats: {}}}],
    [{$collStats: {storageStats: {}}}],
    [{$lookup: {from: "c", as: "x", pipeline: [{$indexStats: {}}]}}],
    [{$unionWith: {coll: "c", pipeline: [{$collStats: {latencyStats: {}}}]}}],
    [{$facet: {f: [{$indexStats: {}}]}}],
];
for (const p of unstable) {
    assert.commandFailedWithCode(run({aggregate: "c", pipeline: p, cursor: {}}, STRICT),
                                 ErrorCodes.APIStrictError, p);
    assert.commandFailedWithCode(run({create: "v_bad", viewOn: "c", pipeline: p}, STRICT),
                                 ErrorCodes.APIStrictError, p);
}
assert.commandWorked(run({aggregate: "c", pipeline: [{$indexStats: {}}], cursor: {}}, V1));
const cnt = assert.commandWorked(run(
    {aggregate: "c", pipeline: [{$collStats: {count: {}}}, {$group: {_id: 1, n: {$sum: "$count"}}}], cursor: {}},
    STRICT));
assert.eq(3, cnt.cursor.firstBatch[0].n);
assert.commandWorked(run({create: "v_stats", viewOn: "c", pipeline: [{$indexStats: {}}]}, V1));
assert.commandWorked(run({aggregate: "v_stats", pipeline: [], cursor: {}}, V1));
assert.commandFailedWithCode(run({aggregate: "v_stats", pipeline: [], cursor: {}}, STRICT),
                             ErrorCodes.APIStrictError);

assert.commandFailedWithCode(run({explain: {find: "c", returnKey: true}}, STRICT), ErrorCodes.APIStrictError);
// The test-only parts (testDeprecation, $_testApiVersion): jstests/replsets/api_version_test_commands.js.

// Time-series collections work under apiStrict: the view's own internal stages are not the
// client's.
assert.commandWorked(run({create: "ts", timeseries: {timeField: "t", metaField: "m"}}, STRICT));
const t0 = ISODate("2024-01-01T00:00:00Z");
assert.commandWorked(run({insert: "ts", documents: [{t: t0, m: 1, v: 1}, {t: new Date(t0.getTime() + 1000), m: 1, v: 2}]},
                         STRICT));
assert.eq(2, assert.commandWorked(run({find: "ts", filter: {m: 1}, sort: {t: 1}}, STRICT)).cursor.firstBatch.length);
const g = assert.commandWorked(run(
    {aggregate: "ts", pipeline: [{$match: {t: {$gte: t0}}}, {$group: {_id: "$m", s: {$sum: "$v"}}}], cursor: {}},
    STRICT));
assert.eq(3, g.cursor.firstBatch[0].s);
assert.commandWorked(run({createIndexes: "ts", indexes: [{key: {v: 1}, name: "v_1"}]}, STRICT));
assert.commandWorked(run({delete: "ts", deletes: [{q: {m: 1, v: 1}, limit: 0}]}, STRICT));
assert.eq(1, testDb.ts.countDocuments({}));
