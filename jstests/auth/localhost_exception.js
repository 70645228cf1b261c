/**
 * The localhost exception: with no user and no role, a local unauthenticated connection may
 * create the first user (and nothing else); once one exists, unauthenticated connections
 * get 13 Unauthorized ("command X requires authentication").
 */
load("jstests/libs/auth_helpers.js");

function withNoUsers(fn) {
    // Remove every user and role (as root), so that the exception applies again.
    const root = loginAsRoot(newConnection());
    for (const d of root.getDB("admin").runCommand({listDatabases: 1, nameOnly: true}).databases) {
        root.getDB(d.name).runCommand({dropAllRolesFromDatabase: 1});
        if (d.name !== "admin")
            root.getDB(d.name).runCommand({dropAllUsersFromDatabase: 1});
    }
    assert.commandWorked(root.getDB("admin").runCommand({dropAllUsersFromDatabase: 1}));
    fn();
    loginAsRoot(newConnection());  // the exception recreates root for the following tests
}

function onlyUserCreationIsAllowed() {
    withNoUsers(() => {
        const conn = newConnection();
        const res = conn.getDB("test").runCommand({find: "c"});
        assert.commandFailedWithCode(res, ErrorCodes.Unauthorized);
        assert.eq("command find requires authentication", res.errmsg);
        assert.commandFailedWithCode(conn.getDB("test").runCommand({usersInfo: 1}),
                                     ErrorCodes.Unauthorized);
        assert.commandWorked(conn.getDB("admin").runCommand(
            {createUser: "first", pwd: "pw", roles: ["userAdminAnyDatabase"]}));
        // The exception is gone once a user exists.
        assert.commandFailedWithCode(
            conn.getDB("admin").runCommand({createUser: "second", pwd: "pw", roles: []}),
            ErrorCodes.Unauthorized);
        const admin = connectAs("first", "pw", "admin");
        assert.commandWorked(admin.getDB("admin").runCommand({dropUser: "first"}));
    });
}

function handshakeCommandsNeedNoLogin() {
    const conn = newConnection();
    for (const cmd of [{hello: 1}, {ping: 1}, {buildInfo: 1}, {connectionStatus: 1}])
        assert.commandWorked(conn.getDB("admin").runCommand(cmd), tojson(cmd));
    assert.commandFailedWithCode(conn.getDB("admin").runCommand({serverStatus: 1}),
                                 ErrorCodes.Unauthorized);
}

runScenarios(
    onlyUserCreationIsAllowed,
    handshakeCommandsNeedNoLogin,
);
