/**
 * The $currentOp stage's options and errors (upstream's codes), the currentOp command's
 * filter and $ownOps/$all fields, and killOp's argument errors.
 */
const admin = db.getSiblingDB("admin");
const collName = jsTestName();

function currentOp(spec, rest) {
    return admin.runCommand(
        {aggregate: 1, pipeline: [{$currentOp: spec}].concat(rest || []), cursor: {}});
}

function stageErrors() {
    assert.commandFailedWithCode(currentOp(1), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(currentOp({allUsers: 1}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(currentOp({localOps: "yes"}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(currentOp({idleConnections: 1}), ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(currentOp({truncateOps: "no"}), ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(currentOp({bogus: true}), ErrorCodes.FailedToParse);
    // Only as the first stage of {aggregate: 1} on admin. {aggregate: 1} checks its first stage
    // before stage positions (as upstream's documents/basics.js shows for $documents).
    assert.commandFailedWithCode(
        admin.runCommand({aggregate: 1, pipeline: [{$match: {}}, {$currentOp: {}}], cursor: {}}),
        ErrorCodes.InvalidNamespace);
    assert.commandFailedWithCode(
        db.runCommand({aggregate: 1, pipeline: [{$currentOp: {}}], cursor: {}}),
        ErrorCodes.InvalidNamespace);
    assert.commandFailedWithCode(
        admin.runCommand({aggregate: "c", pipeline: [{$currentOp: {}}], cursor: {}}),
        ErrorCodes.InvalidNamespace);
}

function ownOperationIsListed() {
    const res = assert.commandWorked(currentOp({allUsers: true, localOps: true, idleSessions: true},
                                               [{$match: {"command.aggregate": 1}}]));
    const ops = res.cursor.firstBatch;
    assert.eq(1, ops.length, tojson(ops));
    assert.eq("admin.$cmd.aggregate", ops[0].ns);
    assert.eq(true, ops[0].active);
    assert(/\+00:00$/.test(ops[0].currentOpTime), tojson(ops[0]));
}

function idleConnectionsAreListedOnRequest() {
    const other = new Mongo(db.getMongo().getURI ? db.getMongo().getURI() : TestData.uri);
    assert.commandWorked(other.getDB("admin").runCommand({ping: 1}));
    const idle = assert.commandWorked(currentOp({idleConnections: true},
                                                [{$match: {active: false}}]))
                     .cursor.firstBatch;
    assert.gte(idle.length, 1, tojson(idle));
    assert(idle.every((o) => o.opid === undefined && o.desc.startsWith("conn")), tojson(idle));
    const activeOnly = assert.commandWorked(currentOp({}, [{$match: {active: false}}]));
    assert.eq([], activeOnly.cursor.firstBatch);
    other.close();
}

function idleCursorsAreListedOnRequest() {
    const coll = db[collName];
    coll.drop();
    assert.commandWorked(coll.insertMany([{a: 1}, {a: 2}, {a: 3}]));
    const res = assert.commandWorked(
        db.runCommand({find: collName, batchSize: 1, noCursorTimeout: true, comment: "idle"}));
    const id = res.cursor.id;
    const cursors = assert.commandWorked(currentOp({idleCursors: true},
                                                   [{$match: {type: "idleCursor"}}]))
                        .cursor.firstBatch.filter((c) => c.cursor.cursorId.toString() ===
                                                      id.toString());
    assert.eq(1, cursors.length, tojson(cursors));
    const c = cursors[0];
    assert.eq(db.getName() + "." + collName, c.ns);
    assert.eq(1, Number(c.cursor.nDocsReturned));
    assert.eq(true, c.cursor.noCursorTimeout);
    assert.eq("idle", c.cursor.originatingCommand.comment);
    assert.eq("COLLSCAN", c.planSummary);
    assert.commandWorked(db.runCommand({killCursors: collName, cursors: [id]}));
}

function truncateOpsShortensLargeCommands() {
    const big = "x".repeat(2000);  // makes this very aggregate larger than 1000 bytes
    const truncated = assert.commandWorked(currentOp({truncateOps: true}, [
                                               {$match: {"command.$truncated": {$exists: true}}},
                                               {$match: {pad: {$ne: big}}}
                                           ])).cursor.firstBatch;
    assert.eq(1, truncated.length, tojson(truncated));
    const text = truncated[0].command.$truncated;
    assert.eq(1000, text.length);
    assert(text.endsWith("..."), text);
    const full = assert.commandWorked(currentOp({truncateOps: false}, [
                                          {$match: {"command.pipeline": {$size: 3}}},
                                          {$match: {pad: {$ne: big}}}
                                      ])).cursor.firstBatch;
    assert.eq(1, full.length, "untruncated command expected");
    assert.eq(big, full[0].command.pipeline[2].$match.pad.$ne);
}

function currentOpCommandFiltersAndWrapsInInprog() {
    const res = assert.commandWorked(admin.runCommand({currentOp: 1, "command.currentOp": 1}));
    assert.eq(1, res.inprog.length, tojson(res));
    assert.eq("admin.$cmd", res.inprog[0].ns);
    const none = assert.commandWorked(admin.runCommand({currentOp: 1, "command.nosuch": 1}));
    assert.eq([], none.inprog);
    assert.commandWorked(admin.runCommand({currentOp: 1, $ownOps: true, $all: true}));
    assert.commandFailedWithCode(db.runCommand({currentOp: 1}), ErrorCodes.Unauthorized);
    const shell = db.currentOp();
    assert.eq(1, shell.ok);
    assert(Array.isArray(shell.inprog) && shell.inprog.length >= 1, tojson(shell));
}

function killOpArgumentErrors() {
    assert.commandFailedWithCode(admin.runCommand({killOp: 1}), ErrorCodes.NoSuchKey);
    assert.commandFailedWithCode(admin.runCommand({killOp: 1, op: "12"}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(admin.runCommand({killOp: 1, op: 1.5}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(admin.runCommand({killOp: 1, op: NumberLong("4294967296")}),
                                 26823);
    assert.commandFailedWithCode(db.runCommand({killOp: 1, op: 1}), ErrorCodes.Unauthorized);
}

runScenarios(
    stageErrors,
    ownOperationIsListed,
    idleConnectionsAreListedOnRequest,
    idleCursorsAreListedOnRequest,
    truncateOpsShortensLargeCommands,
    currentOpCommandFiltersAndWrapsInInprog,
    killOpArgumentErrors,
);
