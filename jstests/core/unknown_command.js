/**
 * An unknown command fails with CommandNotFound (59) and the upstream reply
 * shape {ok: 0, errmsg: "no such command: '<name>'", code, codeName}.
 */
function unknownCommandReply() {
    const res = db.runCommand({thisCommandDoesNotExist: 1});
    assert.commandFailedWithCode(res, ErrorCodes.CommandNotFound);
    assert.eq(0, res.ok);
    assert.eq("CommandNotFound", res.codeName);
    assert.eq("no such command: 'thisCommandDoesNotExist'", res.errmsg);
}

function unknownAdminCommand() {
    assert.commandFailedWithCode(db.adminCommand({anotherMissingCommand: 1}), ErrorCodes.CommandNotFound);
}

function connectionStillUsable() {
    assert.commandWorked(db.runCommand({ping: 1}));
}

runScenarios(
    unknownCommandReply,
    unknownAdminCommand,
    connectionStillUsable,
);
