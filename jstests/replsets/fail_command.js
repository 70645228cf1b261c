/**
 * The failCommand fail point (suite runs with enableTestCommands=1): errorCode with the
 * point's errorLabels, times/skip counting and the `count` reply, appName filtering,
 * writeConcernError on a write that still runs, blockConnection, and configureFailPoint's
 * own errors (FailPointSetFailed, BadValue, TypeMismatch, admin only).
 */
const coll = db[jsTestName()];

function configure(mode, data) {
    return assert.commandWorked(
        db.adminCommand({configureFailPoint: "failCommand", mode: mode, data: data}));
}

function off() {
    return configure("off", {});
}

function errorCodeFailsTheListedCommandOnly() {
    coll.drop();
    configure("alwaysOn", {failCommands: ["insert"], errorCode: ErrorCodes.NotWritablePrimary,
                           errorLabels: ["MyLabel"]});
    const res = db.runCommand({insert: coll.getName(), documents: [{_id: 1}]});
    assert.commandFailedWithCode(res, ErrorCodes.NotWritablePrimary);
    assert.eq(["MyLabel"], res.errorLabels);
    assert.commandWorked(db.runCommand({find: coll.getName()}));
    off();
    assert.eq(0, coll.find().itcount());
}

function timesCountsActivations() {
    const before = Number(off().count);
    configure({times: 2}, {failCommands: ["ping"], errorCode: ErrorCodes.BadValue});
    assert.commandFailedWithCode(db.adminCommand({ping: 1}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.adminCommand({ping: 1}), ErrorCodes.BadValue);
    assert.commandWorked(db.adminCommand({ping: 1}));
    assert.eq(before + 2, Number(off().count));
}

function skipLetsTheFirstCallsThrough() {
    configure({skip: 1}, {failCommands: ["ping"], errorCode: ErrorCodes.BadValue});
    assert.commandWorked(db.adminCommand({ping: 1}));
    assert.commandFailedWithCode(db.adminCommand({ping: 1}), ErrorCodes.BadValue);
    off();
}

function appNameMustMatch() {
    configure("alwaysOn",
              {failCommands: ["ping"], errorCode: ErrorCodes.BadValue, appName: "someoneElse"});
    assert.commandWorked(db.adminCommand({ping: 1}));
    off();
}

function writeConcernErrorStillWrites() {
    coll.drop();
    configure({times: 1}, {failCommands: ["insert"],
                           writeConcernError: {code: 91, errmsg: "Replication is being shut down"}});
    // ok: 1 with a writeConcernError (which assert.commandWorked counts as a failure).
    const res = db.runCommand({insert: coll.getName(), documents: [{_id: 1}]});
    assert.eq(1, res.ok, tojson(res));
    assert.eq(1, res.n);
    assert.eq(91, res.writeConcernError.code);
    assert.eq(1, coll.find().itcount());
    off();
}

function blockConnectionDelays() {
    configure({times: 1}, {failCommands: ["ping"], blockConnection: true, blockTimeMS: 300});
    const start = Date.now();
    assert.commandWorked(db.adminCommand({ping: 1}));
    assert.gte(Date.now() - start, 250);
    off();
}

function configureFailPointErrors() {
    assert.commandFailedWithCode(db.adminCommand({configureFailPoint: "noSuchPoint", mode: "off"}),
                                 ErrorCodes.FailPointSetFailed);
    assert.commandFailedWithCode(
        db.adminCommand({configureFailPoint: "failCommand", mode: "sometimes"}),
        ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        db.adminCommand({configureFailPoint: "failCommand", mode: {activationProbability: 2}}),
        ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        db.adminCommand({configureFailPoint: "failCommand", mode: "alwaysOn", data: 5}),
        ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(db.runCommand({configureFailPoint: "failCommand", mode: "off"}),
                                 ErrorCodes.Unauthorized);
}

try {
    errorCodeFailsTheListedCommandOnly();
    timesCountsActivations();
    skipLetsTheFirstCallsThrough();
    appNameMustMatch();
    writeConcernErrorStillWrites();
    blockConnectionDelays();
    configureFailPointErrors();
} finally {
    off();
}
