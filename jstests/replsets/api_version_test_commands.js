// The Stable API's test command and test expression (enableTestCommands): testDeprecation is in
// API Version 1 and deprecated there; $_testApiVersion stands for an unstable or a deprecated
// expression, refused at any depth and through explain.
const testDb = db.getSiblingDB("api_version_test_commands");
testDb.dropDatabase();
const V1 = {apiVersion: "1"};
const STRICT = {apiVersion: "1", apiStrict: true};
const run = (cmd, params) => testDb.runCommand(Object.assign({}, cmd, params || {}));
assert.commandWorked(testDb.c.insert([{_id: 1}, {_id: 2}]));

assert.commandWorked(run({testDeprecation: 1}, V1));
assert.commandWorked(run({testDeprecation: 1}, STRICT));
assert.commandFailedWithCode(run({testDeprecation: 1}, {apiVersion: "1", apiDeprecationErrors: true}),
                             ErrorCodes.APIDeprecationError);
const cmds = assert.commandWorked(testDb.runCommand({listCommands: 1})).commands;
assert.eq(["1"], cmds.testDeprecation.deprecatedApiVersions);

// The test expression, also through explain (which passes its parameters on).
const unstableExpr = [{$project: {v: {$_testApiVersion: {unstable: true}}}}];
const deprecatedExpr = [{$project: {v: {$_testApiVersion: {deprecated: true}}}}];
assert.eq(1, assert.commandWorked(run({aggregate: "c", pipeline: unstableExpr, cursor: {}}, V1)).cursor.firstBatch[0].v);
assert.commandFailedWithCode(run({aggregate: "c", pipeline: unstableExpr, cursor: {}}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandFailedWithCode(
    run({aggregate: "c", pipeline: [{$lookup: {from: "c", as: "o", pipeline: unstableExpr}}], cursor: {}}, STRICT),
    ErrorCodes.APIStrictError);
assert.commandFailedWithCode(
    run({aggregate: "c", pipeline: deprecatedExpr, cursor: {}}, {apiVersion: "1", apiDeprecationErrors: true}),
    ErrorCodes.APIDeprecationError);
assert.commandFailedWithCode(run({explain: {aggregate: "c", pipeline: unstableExpr, cursor: {}}}, STRICT),
                             ErrorCodes.APIStrictError);
assert.commandFailedWithCode(
    run({explain: {find: "c", projection: {v: {$_testApiVersion: {unstable: true}}}}}, STRICT),
    ErrorCodes.APIStrictError);
assert.commandWorked(run({explain: {find: "c", projection: {v: {$_testApiVersion: {unstable: true}}}}}, V1));
assert.commandFailedWithCode(run({explain: {find: "c", returnKey: true}}, STRICT), ErrorCodes.APIStrictError);

