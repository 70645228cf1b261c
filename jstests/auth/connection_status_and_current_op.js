/**
 * connectionStatus reports the logged-in users, their roles (inherited ones included) and,
 * with showPrivileges, their privileges; $currentOp shows effectiveUsers, and without
 * allUsers only the caller's own connections.
 */
load("jstests/libs/auth_helpers.js");

const dbName = jsTestName();
const root = loginAsRoot(newConnection());
const rootDB = root.getDB(dbName);

function connectionStatusShowsUsersAndRoles() {
    assert.commandWorked(rootDB.runCommand({createRole: "r1", privileges: [], roles: ["read"]}));
    assert.commandWorked(rootDB.runCommand({createUser: "cs", pwd: "pw", roles: ["r1"]}));
    const conn = connectAs("cs", "pw", dbName);
    const info = assert.commandWorked(
        conn.getDB("admin").runCommand({connectionStatus: 1, showPrivileges: true})).authInfo;
    assert.eq([{user: "cs", db: dbName}], info.authenticatedUsers);
    const roles = info.authenticatedUserRoles.map((r) => r.role).sort();
    assert.eq(["r1", "read"], roles);
    assert(info.authenticatedUserPrivileges.some((p) => p.actions.includes("find")), tojson(info));
}

function usersInfoOfSelfNeedsNoPrivilege() {
    const conn = connectAs("cs", "pw", dbName);
    const res = assert.commandWorked(conn.getDB(dbName).runCommand({usersInfo: "cs"}));
    assert.eq(1, res.users.length);
    assert.commandFailedWithCode(conn.getDB(dbName).runCommand({usersInfo: 1}),
                                 ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(
        conn.getDB(dbName).runCommand({usersInfo: "cs", showCredentials: true}),
        ErrorCodes.Unauthorized);
}

function currentOpShowsEffectiveUsers() {
    const ops = root.getDB("admin")
                    .aggregate([{$currentOp: {allUsers: true, idleConnections: true}}])
                    .toArray();
    const mine = ops.filter((o) => o.effectiveUsers &&
                                o.effectiveUsers.some((u) => u.user === "root"));
    assert(mine.length >= 1, tojson(ops));
    // A user without inprog sees only its own operations.
    const conn = connectAs("cs", "pw", dbName);
    assert.commandFailedWithCode(conn.getDB("admin").runCommand({currentOp: 1}),
                                 ErrorCodes.Unauthorized);
    const own = conn.getDB("admin").aggregate([{$currentOp: {idleConnections: true}}]).toArray();
    assert(own.every((o) => o.effectiveUsers && o.effectiveUsers[0].user === "cs"), tojson(own));
}

function cleanup() {
    assert.commandWorked(rootDB.runCommand({dropAllUsersFromDatabase: 1}));
    assert.commandWorked(rootDB.runCommand({dropAllRolesFromDatabase: 1}));
}

runScenarios(
    connectionStatusShowsUsersAndRoles,
    usersInfoOfSelfNeedsNoPrivilege,
    currentOpShowsEffectiveUsers,
    cleanup,
);
