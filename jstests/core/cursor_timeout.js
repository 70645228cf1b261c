/**
 * Idle cursors time out after cursorTimeoutMillis (settable at runtime; the monitor runs
 * every 4 seconds): a getMore then fails with CursorNotFound, serverStatus counts
 * metrics.cursor.timedOut, and noCursorTimeout cursors are kept (metrics.cursor.open.noTimeout).
 */
const collName = jsTestName();
const coll = db[collName];

function metrics() {
    return assert.commandWorked(db.adminCommand({serverStatus: 1})).metrics.cursor;
}

function openCursor(extra) {
    const res = assert.commandWorked(
        db.runCommand(Object.assign({find: collName, batchSize: 2}, extra || {})));
    assert.neq(0, Number(res.cursor.id));
    return res.cursor.id;
}

function idleCursorTimesOutButNoTimeoutCursorStays() {
    coll.drop();
    const docs = [];
    for (let i = 0; i < 10; i++)
        docs.push({_id: i});
    assert.commandWorked(coll.insertMany(docs));
    const before = metrics();
    const old = assert.commandWorked(db.adminCommand({getParameter: 1, cursorTimeoutMillis: 1}))
                    .cursorTimeoutMillis;
    assert.eq(600000, Number(old));
    const doomed = openCursor();
    const kept = openCursor({noCursorTimeout: true});
    assert.eq(Number(before.open.noTimeout) + 1, Number(metrics().open.noTimeout));
    assert.commandWorked(db.adminCommand({setParameter: 1, cursorTimeoutMillis: 500}));
    try {
        assert.soon(() => Number(metrics().timedOut) > Number(before.timedOut),
                    "the idle cursor never timed out", 20000, 250);
        // Idle cursors of earlier tests may be the ones that timed out, in a monitor pass that
        // came less than 500 ms after `doomed` was opened: wait one more pass (every 4 s).
        sleep(5000);
        assert.commandFailedWithCode(db.runCommand({getMore: doomed, collection: collName}),
                                     ErrorCodes.CursorNotFound);
        const res = assert.commandWorked(db.runCommand({getMore: kept, collection: collName}));
        assert.eq(8, res.cursor.nextBatch.length);
    } finally {
        assert.commandWorked(db.adminCommand({setParameter: 1, cursorTimeoutMillis: old}));
    }
}

function activeCursorDoesNotTimeOutWithDefault() {
    const id = openCursor();
    const res = assert.commandWorked(db.runCommand({getMore: id, collection: collName, batchSize: 2}));
    assert.eq(2, res.cursor.nextBatch.length);
    assert.commandWorked(db.runCommand({killCursors: collName, cursors: [id]}));
}

runScenarios(
    idleCursorTimesOutButNoTimeoutCursorStays,
    activeCursorDoesNotTimeOutWithDefault,
);
