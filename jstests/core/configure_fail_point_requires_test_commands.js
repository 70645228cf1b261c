/**
 * configureFailPoint is a test command: without --setParameter enableTestCommands=1 it does
 * not exist (CommandNotFound), as upstream, and listCommands does not show it.
 */
function configureFailPointIsNotFound() {
    assert.commandFailedWithCode(
        db.adminCommand({configureFailPoint: "failCommand", mode: "alwaysOn",
                         data: {failCommands: ["ping"], errorCode: 2}}),
        ErrorCodes.CommandNotFound);
    assert.commandWorked(db.adminCommand({ping: 1}));
}

function listCommandsHidesIt() {
    const cmds = assert.commandWorked(db.adminCommand({listCommands: 1})).commands;
    assert.eq(undefined, cmds.configureFailPoint);
    assert.neq(undefined, cmds.insert);
}

configureFailPointIsNotFound();
listCommandsHidesIt();
