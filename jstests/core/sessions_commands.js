/**
 * Logical session commands with upstream's reply shapes: startSession {id: {id: UUID},
 * timeoutMinutes}, refreshSessions/endSessions/killSessions/killAllSessions {ok: 1}. Sessions
 * are counted in serverStatus().logicalSessionRecordCache.activeSessionsCount; endSessions
 * removes them; killSessions and killAllSessions interrupt the operations running on the
 * sessions (Interrupted 11601). Malformed session lists fail with IDL's codes.
 */
load("jstests/libs/parallel_shell.js");

const collName = jsTestName();
const coll = db[collName];

function activeSessions() {
    return assert.commandWorked(db.serverStatus()).logicalSessionRecordCache.activeSessionsCount;
}

function startSessionReplyShape() {
    const res = assert.commandWorked(db.adminCommand({startSession: 1}));
    assert.eq(30, res.timeoutMinutes, tojson(res));
    assert(res.id && res.id.id, tojson(res));
    assert.eq(4, res.id.id.sub_type, tojson(res));  // a UUID
    assert.eq(["id"], Object.keys(res.id), tojson(res));
    assert.eq(30, assert.commandWorked(db.adminCommand({hello: 1})).logicalSessionTimeoutMinutes);
}

function endSessionsRemovesFromTheCache() {
    const before = activeSessions();
    const a = assert.commandWorked(db.adminCommand({startSession: 1})).id;
    const b = assert.commandWorked(db.adminCommand({startSession: 1})).id;
    assert.eq(before + 2, activeSessions());
    assert.commandWorked(db.adminCommand({refreshSessions: [a, b]}));
    assert.eq(before + 2, activeSessions());
    assert.commandWorked(db.adminCommand({endSessions: [a, b]}));
    assert.eq(before, activeSessions());
    // Refreshing an unknown session starts tracking it.
    assert.commandWorked(db.adminCommand({refreshSessions: [a]}));
    assert.eq(before + 1, activeSessions());
    assert.commandWorked(db.adminCommand({endSessions: [a]}));
    assert.eq(before, activeSessions());
}

function malformedSessionListsFail() {
    for (const name of ["endSessions", "refreshSessions", "killSessions"]) {
        assert.commandFailedWithCode(db.adminCommand({[name]: 1}), ErrorCodes.TypeMismatch);
        assert.commandFailedWithCode(db.adminCommand({[name]: [1]}), ErrorCodes.TypeMismatch);
        assert.commandFailedWithCode(db.adminCommand({[name]: [{}]}), 40414);
        assert.commandFailedWithCode(db.adminCommand({[name]: [{id: "x"}]}), ErrorCodes.TypeMismatch);
        assert.commandFailedWithCode(db.adminCommand({[name]: [{id: UUID(), x: 1}]}), 40415);
    }
    assert.commandFailedWithCode(db.adminCommand({killAllSessions: 1}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(db.adminCommand({killAllSessions: [{user: "u"}]}), 40414);
    assert.commandWorked(db.adminCommand({killAllSessions: [{user: "u", db: "admin"}]}));
}

function slowAggregateShell(tag) {
    return `
        const res = db.runCommand({aggregate: "${collName}", cursor: {}, comment: "${tag}",
            maxTimeMS: 120000,
            pipeline: [{$lookup: {from: "${collName}", let: {v: "$x"}, as: "o", pipeline: [
                {$match: {$expr: {$ne: ["$x", "$$v"]}}},
                {$lookup: {from: "${collName}", let: {w: "$x"}, as: "i", pipeline: [
                    {$match: {$expr: {$ne: ["$x", "$$w"]}}}, {$count: "n"}]}},
                {$count: "n"}]}}]});
        print("RESULT " + JSON.stringify({ok: res.ok, code: res.code}));`;
}

function runningOpOf(tag) {
    let ops = [];
    assert.soon(() => (ops = db.currentOp({"command.comment": tag}).inprog).length === 1,
                "the aggregate never showed up", 30000);
    return ops[0];
}

function resultOf(joined) {
    const line = joined.output.split("\n").find((l) => l.startsWith("RESULT "));
    assert(line, "no result from the parallel shell:\n" + joined.output);
    return JSON.parse(line.substring("RESULT ".length));
}

function killInterruptsTheSessionsOperations(kill) {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 2000; i++)
        docs.push({_id: i, x: i});
    assert.commandWorked(coll.insertMany(docs));
    const tag = "sess-" + Date.now();
    const shell = startParallelShell(slowAggregateShell(tag));
    const op = runningOpOf(tag);
    assert(op.lsid && op.lsid.id, tojson(op));
    assert.commandWorked(kill(op.lsid));
    const joined = shell.join(60000);
    const res = resultOf(joined);
    assert.eq(0, res.ok, joined.output);
    assert.eq(ErrorCodes.Interrupted, res.code, joined.output);
}

runScenarios(
    startSessionReplyShape,
    endSessionsRemovesFromTheCache,
    malformedSessionListsFail,
    function killSessionsInterruptsItsOperations() {
        killInterruptsTheSessionsOperations(
            (lsid) => db.adminCommand({killSessions: [{id: lsid.id}]}));
    },
    function killAllSessionsInterruptsEveryOperation() {
        killInterruptsTheSessionsOperations((lsid) => db.adminCommand({killAllSessions: []}));
    },
);
