/**
 * The write commands' hang fail points (enableTestCommands): an update waits after its
 * statements at hangAfterBatchUpdate; each delete statement waits at
 * hangBeforeChildRemoveOpFinishes, then at hangBeforeChildRemoveOpIsPopped. currentOp shows
 * the waiting operation with failpointMsg and the plan summary of its scan (a time-series
 * statement: its bucket scan); turning the point off lets it go on; killOp interrupts it.
 */
load("jstests/libs/parallel_shell.js");

const collName = jsTestName();

function waitForPaused(tag, failPoint = "hangAfterBatchUpdate") {
    let ops = [];
    assert.soon(() => (ops = db.currentOp({"command.comment": tag, failpointMsg: failPoint}).inprog).length === 1,
                "the operation never paused at " + failPoint, 30000);
    return ops[0];
}

function setFailPoint(name, on) {
    assert.commandWorked(db.adminCommand({configureFailPoint: name, mode: on ? "alwaysOn" : "off"}));
}

function updateShell(coll, tag) {
    return `const res = db.runCommand({update: "${coll}", comment: "${tag}",
                                         updates: [{q: {m: 1}, u: {$set: {x: 1}}, multi: true}]});
            print("RESULT " + JSON.stringify({ok: res.ok, n: res.n, code: res.code}));`;
}

function resultOf(joined) {
    const line = joined.output.split("\n").find((l) => l.startsWith("RESULT "));
    assert(line, "no result from the parallel shell:\n" + joined.output);
    return JSON.parse(line.substring("RESULT ".length));
}

function pausesAndResumes() {
    const ts = db[collName];
    ts.drop();
    assert.commandWorked(db.createCollection(collName, {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(ts.insertMany([{t: new Date(), m: 1}, {t: new Date(), m: 2}]));
    assert.commandWorked(db.adminCommand({configureFailPoint: "hangAfterBatchUpdate", mode: "alwaysOn"}));
    const tag = "hang-" + Date.now();
    const shell = startParallelShell(updateShell(collName, tag));
    try {
        const op = waitForPaused(tag);
        assert(/^IXSCAN \{ meta: 1/.test(op.planSummary), tojson(op));
        assert.eq(db.getName() + "." + collName, op.ns, tojson(op));
    } finally {
        assert.commandWorked(db.adminCommand({configureFailPoint: "hangAfterBatchUpdate", mode: "off"}));
    }
    const joined = shell.join(60000);
    assert.eq(0, joined.exitCode, joined.output);
    assert.eq({ok: 1, n: 1}, resultOf(joined));
    assert.eq(1, ts.countDocuments({x: 1}));
}

function killOpInterruptsTheWait() {
    const plain = db[collName + "_plain"];
    plain.drop();
    assert.commandWorked(plain.insert({m: 1}));
    assert.commandWorked(db.adminCommand({configureFailPoint: "hangAfterBatchUpdate", mode: "alwaysOn"}));
    const tag = "kill-" + Date.now();
    const shell = startParallelShell(updateShell(plain.getName(), tag));
    try {
        const op = waitForPaused(tag);
        assert.eq("COLLSCAN", op.planSummary, tojson(op));
        assert.commandWorked(db.killOp(op.opid));
        const joined = shell.join(60000);
        assert.eq({ok: 0, code: ErrorCodes.Interrupted}, resultOf(joined));
    } finally {
        assert.commandWorked(db.adminCommand({configureFailPoint: "hangAfterBatchUpdate", mode: "off"}));
    }
}

function deleteStatementsPauseTwice() {
    const ts = db[collName + "_del"];
    ts.drop();
    assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(ts.insertMany([{t: new Date(), m: 1}, {t: new Date(), m: 2}, {t: new Date(), m: 3}]));
    const tag = "del-" + Date.now();
    setFailPoint("hangBeforeChildRemoveOpFinishes", true);
    const shell = startParallelShell(`const res = db.runCommand({delete: "${ts.getName()}", comment: "${tag}",
        deletes: [{q: {m: 1}, limit: 0}, {q: {m: 2}, limit: 0, hint: {nope: 1}}]});
        print("RESULT " + JSON.stringify({ok: res.ok, n: res.n, errors: (res.writeErrors || []).length}));`);
    try {
        for (let stmt = 0; stmt < 2; ++stmt) {
            const op = waitForPaused(tag, "hangBeforeChildRemoveOpFinishes");
            if (stmt === 0)
                assert(/^IXSCAN \{ meta: 1/.test(op.planSummary), tojson(op));
            setFailPoint("hangBeforeChildRemoveOpIsPopped", true);
            setFailPoint("hangBeforeChildRemoveOpFinishes", false);
            waitForPaused(tag, "hangBeforeChildRemoveOpIsPopped");
            if (stmt === 0)
                setFailPoint("hangBeforeChildRemoveOpFinishes", true);  // also the failing second
            setFailPoint("hangBeforeChildRemoveOpIsPopped", false);
        }
    } finally {
        setFailPoint("hangBeforeChildRemoveOpFinishes", false);
        setFailPoint("hangBeforeChildRemoveOpIsPopped", false);
    }
    const joined = shell.join(60000);
    assert.eq({ok: 1, n: 1, errors: 1}, resultOf(joined));
    assert.eq(2, ts.countDocuments({}));
}

runScenarios(pausesAndResumes, killOpInterruptsTheWait, deleteStatementsPauseTwice);
