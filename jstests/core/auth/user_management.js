/**
 * createUser / updateUser / dropUser / dropAllUsersFromDatabase / usersInfo without --auth:
 * users are stored in admin.system.users with SCRAM-SHA-1 and SCRAM-SHA-256 credentials,
 * usersInfo shows credentials only with showCredentials, and bad input gets upstream's codes.
 */
const testDB = db.getSiblingDB(jsTestName());

function cleanup() {
    assert.commandWorked(testDB.runCommand({dropAllUsersFromDatabase: 1}));
}

function createAndDescribeUser() {
    assert.commandWorked(testDB.runCommand({createUser: "u1", pwd: "pw", roles: ["read"]}));
    const info = assert.commandWorked(testDB.runCommand({usersInfo: "u1"})).users;
    assert.eq(1, info.length, tojson(info));
    assert.eq("u1", info[0].user);
    assert.eq(testDB.getName(), info[0].db);
    assert.eq(testDB.getName() + ".u1", info[0]._id);
    assert.eq([{role: "read", db: testDB.getName()}], info[0].roles);
    assert.eq(["SCRAM-SHA-1", "SCRAM-SHA-256"], info[0].mechanisms.sort());
    assert(!info[0].hasOwnProperty("credentials"), tojson(info[0]));
    const shown = assert.commandWorked(testDB.runCommand({usersInfo: "u1", showCredentials: true}));
    const creds = shown.users[0].credentials;
    assert.eq(10000, creds["SCRAM-SHA-1"].iterationCount);
    assert.eq(15000, creds["SCRAM-SHA-256"].iterationCount);
    for (const f of ["salt", "storedKey", "serverKey"])
        assert.eq("string", typeof creds["SCRAM-SHA-256"][f], tojson(creds));
    cleanup();
}

function duplicateUserIs51003() {
    assert.commandWorked(testDB.runCommand({createUser: "dup", pwd: "pw", roles: []}));
    assert.commandFailedWithCode(testDB.runCommand({createUser: "dup", pwd: "pw", roles: []}), 51003);
    cleanup();
}

function badArgumentsAreRefused() {
    assert.commandFailedWithCode(testDB.runCommand({createUser: "nopwd", roles: []}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(testDB.runCommand({createUser: "empty", pwd: "", roles: []}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(testDB.runCommand({createUser: "r", pwd: "p", roles: ["nosuch"]}),
                                 ErrorCodes.RoleNotFound);
    assert.commandFailedWithCode(
        testDB.runCommand({createUser: "m", pwd: "p", roles: [], mechanisms: ["PLAIN"]}),
        ErrorCodes.BadValue);
    assert.commandFailedWithCode(testDB.runCommand({createUser: "noroles", pwd: "p"}),
                                 ErrorCodes.IDLFailedToParse);
}

function mechanismsRestrictCredentials() {
    assert.commandWorked(
        testDB.runCommand({createUser: "sha1", pwd: "pw", roles: [], mechanisms: ["SCRAM-SHA-1"]}));
    const info = assert.commandWorked(testDB.runCommand({usersInfo: "sha1"})).users[0];
    assert.eq(["SCRAM-SHA-1"], info.mechanisms);
    cleanup();
}

function updateAndDropUser() {
    assert.commandWorked(testDB.runCommand({createUser: "u2", pwd: "pw", roles: ["read"]}));
    const before = testDB.runCommand({usersInfo: "u2", showCredentials: true}).users[0];
    assert.commandWorked(testDB.runCommand(
        {updateUser: "u2", pwd: "pw2", customData: {a: 1}, roles: ["readWrite"]}));
    const after = testDB.runCommand({usersInfo: "u2", showCredentials: true}).users[0];
    assert.neq(before.credentials["SCRAM-SHA-256"].storedKey,
               after.credentials["SCRAM-SHA-256"].storedKey);
    assert.eq({a: 1}, after.customData);
    assert.eq([{role: "readWrite", db: testDB.getName()}], after.roles);
    assert.commandFailedWithCode(testDB.runCommand({updateUser: "nosuch", pwd: "x"}),
                                 ErrorCodes.UserNotFound);
    assert.commandWorked(testDB.runCommand({dropUser: "u2"}));
    assert.commandFailedWithCode(testDB.runCommand({dropUser: "u2"}), ErrorCodes.UserNotFound);
    assert.eq([], testDB.runCommand({usersInfo: 1}).users);
}

function dropAllUsersCountsThem() {
    for (const u of ["a", "b", "c"])
        assert.commandWorked(testDB.runCommand({createUser: u, pwd: "pw", roles: []}));
    const res = assert.commandWorked(testDB.runCommand({dropAllUsersFromDatabase: 1}));
    assert.eq(3, res.n);
}

function grantAndRevokeRoles() {
    assert.commandWorked(testDB.runCommand({createUser: "g", pwd: "pw", roles: []}));
    assert.commandWorked(testDB.runCommand(
        {grantRolesToUser: "g", roles: ["read", {role: "clusterMonitor", db: "admin"}]}));
    let roles = testDB.runCommand({usersInfo: "g"}).users[0].roles;
    assert.eq(2, roles.length, tojson(roles));
    assert.commandWorked(testDB.runCommand({revokeRolesFromUser: "g", roles: ["read"]}));
    roles = testDB.runCommand({usersInfo: "g"}).users[0].roles;
    assert.eq([{role: "clusterMonitor", db: "admin"}], roles);
    assert.commandFailedWithCode(testDB.runCommand({grantRolesToUser: "g", roles: ["nosuch"]}),
                                 ErrorCodes.RoleNotFound);
    const priv = testDB.runCommand({usersInfo: "g", showPrivileges: true}).users[0];
    assert(priv.inheritedPrivileges.some((p) => p.resource.cluster === true), tojson(priv));
    cleanup();
}

runScenarios(
    createAndDescribeUser,
    duplicateUserIs51003,
    badArgumentsAreRefused,
    mechanismsRestrictCredentials,
    updateAndDropUser,
    dropAllUsersCountsThem,
    grantAndRevokeRoles,
);
