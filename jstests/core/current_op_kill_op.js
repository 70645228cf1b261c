/**
 * currentOp (mongosh db.currentOp(), the currentOp command and the $currentOp stage) shows an
 * aggregate running on another connection, in upstream's shape; db.killOp(opid) replies
 * {info: "attempting to kill op", ok: 1} and the aggregate fails with Interrupted (11601).
 * A client that hangs up stops its operation too.
 */
load("jstests/libs/parallel_shell.js");

const collName = jsTestName();
const coll = db[collName];

// A pipeline that runs for minutes (2000^3 correlated $lookup probes); maxTimeMS is a backstop.
function slowAggregateShell(tag) {
    return `
        const res = db.runCommand({aggregate: "${collName}", cursor: {}, comment: "${tag}",
            maxTimeMS: 120000,
            pipeline: [{$lookup: {from: "${collName}", let: {v: "$x"}, as: "o", pipeline: [
                {$match: {$expr: {$ne: ["$x", "$$v"]}}},
                {$lookup: {from: "${collName}", let: {w: "$x"}, as: "i", pipeline: [
                    {$match: {$expr: {$ne: ["$x", "$$w"]}}}, {$count: "n"}]}},
                {$count: "n"}]}}]});
        print("RESULT " + JSON.stringify({ok: res.ok, code: res.code, codeName: res.codeName}));`;
}

function setUp() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 2000; i++)
        docs.push({_id: i, x: i});
    assert.commandWorked(coll.insertMany(docs));
}

function opsTagged(tag) {
    return db.currentOp({"command.comment": tag}).inprog;
}

function waitForOp(tag) {
    let ops = [];
    assert.soon(() => (ops = opsTagged(tag)).length === 1, "the aggregate never showed up", 30000);
    return ops[0];
}

function resultOf(joined) {
    const line = joined.output.split("\n").find((l) => l.startsWith("RESULT "));
    assert(line, "no result from the parallel shell:\n" + joined.output);
    return JSON.parse(line.substring("RESULT ".length));
}

function currentOpShowsRunningAggregateAndKillOpStopsIt() {
    setUp();
    const tag = "killme-" + Date.now();
    const shell = startParallelShell(slowAggregateShell(tag));
    const op = waitForOp(tag);
    assert.eq("op", op.type, tojson(op));
    assert.eq(true, op.active, tojson(op));
    assert.eq("command", op.op, tojson(op));
    assert.eq(db.getName() + "." + collName, op.ns, tojson(op));
    assert.eq(collName, op.command.aggregate, tojson(op));
    assert.eq(tag, op.command.comment, tojson(op));
    assert(typeof op.opid === "number", tojson(op));
    assert(/^conn\d+$/.test(op.desc), tojson(op));
    assert(/^127\.0\.0\.1:\d+$/.test(op.client), tojson(op));
    assert(op.appName && op.appName.startsWith("mongosh"), tojson(op));
    assert.eq("COLLSCAN", op.planSummary, tojson(op));
    assert.eq(false, op.waitingForLock, tojson(op));
    assert.docEq({}, op.locks, tojson(op));
    assert(op.microsecs_running !== undefined && op.secs_running !== undefined, tojson(op));
    assert(op.lsid && op.lsid.id, tojson(op));

    // The command form and the stage see the same operation.
    const viaCommand = assert.commandWorked(
        db.adminCommand({currentOp: 1, "command.comment": tag})).inprog;
    assert.eq(1, viaCommand.length, tojson(viaCommand));
    assert.eq(op.opid, viaCommand[0].opid);
    const viaStage = db.getSiblingDB("admin")
                         .aggregate([{$currentOp: {}}, {$match: {"command.comment": tag}}])
                         .toArray();
    assert.eq(1, viaStage.length, tojson(viaStage));

    const reply = assert.commandWorked(db.killOp(op.opid));
    assert.eq("attempting to kill op", reply.info);
    const joined = shell.join(60000);
    assert.eq(0, joined.exitCode, joined.output);
    const res = resultOf(joined);
    assert.eq(0, res.ok, joined.output);
    assert.eq(ErrorCodes.Interrupted, res.code, joined.output);
    assert.eq([], opsTagged(tag));
}

function clientDisconnectStopsItsOperation() {
    setUp();
    const tag = "hangup-" + Date.now();
    const shell = startParallelShell(slowAggregateShell(tag));
    waitForOp(tag);
    shell.kill();
    assert.soon(() => opsTagged(tag).length === 0,
                "the operation kept running after its client hung up", 30000);
}

function killOpOfUnknownOpSucceeds() {
    const reply = assert.commandWorked(db.adminCommand({killOp: 1, op: 2147483000}));
    assert.eq("attempting to kill op", reply.info);
}

runScenarios(
    currentOpShowsRunningAggregateAndKillOpStopsIt,
    clientDisconnectStopsItsOperation,
    killOpOfUnknownOpSucceeds,
);
