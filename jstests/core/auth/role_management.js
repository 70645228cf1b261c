/**
 * createRole / updateRole / grantPrivilegesToRole / revokePrivilegesFromRole / rolesInfo /
 * dropRole without --auth: user-defined roles live in admin.system.roles, built-in roles
 * cannot be redefined, and dropping a role removes it from the users that had it.
 */
const testDB = db.getSiblingDB(jsTestName());
const dbName = testDB.getName();

function cleanup() {
    testDB.runCommand({dropAllUsersFromDatabase: 1});
    testDB.runCommand({dropAllRolesFromDatabase: 1});
}

function createAndDescribeRole() {
    assert.commandWorked(testDB.runCommand({
        createRole: "finder",
        privileges: [{resource: {db: dbName, collection: "c"}, actions: ["find"]}],
        roles: ["read"],
    }));
    const r = assert.commandWorked(testDB.runCommand({rolesInfo: "finder", showPrivileges: true}))
                  .roles[0];
    assert.eq("finder", r.role);
    assert.eq(false, r.isBuiltin);
    assert.eq([{role: "read", db: dbName}], r.roles);
    assert.eq([{resource: {db: dbName, collection: "c"}, actions: ["find"]}], r.privileges);
    assert(r.inheritedPrivileges.length >= 2, tojson(r));
    assert.commandFailedWithCode(
        testDB.runCommand({createRole: "finder", privileges: [], roles: []}), 51002);
    cleanup();
}

function builtinRolesAreDescribedAndProtected() {
    const r = assert.commandWorked(testDB.runCommand({rolesInfo: "readWrite", showPrivileges: true}))
                  .roles[0];
    assert.eq(true, r.isBuiltin);
    assert(r.privileges.some((p) => p.actions.includes("insert")), tojson(r));
    assert.commandFailedWithCode(testDB.runCommand({createRole: "read", privileges: [], roles: []}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(
        testDB.runCommand({grantPrivilegesToRole: "read",
                           privileges: [{resource: {db: dbName, collection: ""}, actions: ["insert"]}]}),
        ErrorCodes.BadValue);
}

function privilegesOutsideTheDatabaseAreRefused() {
    assert.commandFailedWithCode(testDB.runCommand({
        createRole: "bad",
        privileges: [{resource: {cluster: true}, actions: ["shutdown"]}],
        roles: [],
    }),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(testDB.runCommand({
        createRole: "bad2",
        privileges: [{resource: {db: dbName, collection: ""}, actions: ["fly"]}],
        roles: [],
    }),
                                 ErrorCodes.BadValue);
}

function grantAndRevokePrivileges() {
    assert.commandWorked(testDB.runCommand({createRole: "p", privileges: [], roles: []}));
    const priv = {resource: {db: dbName, collection: ""}, actions: ["find", "insert"]};
    assert.commandWorked(testDB.runCommand({grantPrivilegesToRole: "p", privileges: [priv]}));
    assert.commandWorked(testDB.runCommand({
        revokePrivilegesFromRole: "p",
        privileges: [{resource: {db: dbName, collection: ""}, actions: ["insert"]}],
    }));
    const r = testDB.runCommand({rolesInfo: "p", showPrivileges: true}).roles[0];
    assert.eq([{resource: {db: dbName, collection: ""}, actions: ["find"]}], r.privileges);
    assert.commandWorked(testDB.runCommand({updateRole: "p", privileges: [], roles: ["read"]}));
    const r2 = testDB.runCommand({rolesInfo: "p", showPrivileges: true}).roles[0];
    assert.eq([], r2.privileges);
    assert.eq([{role: "read", db: dbName}], r2.roles);
    cleanup();
}

function dropRoleRemovesItFromUsers() {
    assert.commandWorked(testDB.runCommand({createRole: "gone", privileges: [], roles: []}));
    assert.commandWorked(testDB.runCommand({createUser: "holder", pwd: "pw", roles: ["gone", "read"]}));
    assert.commandWorked(testDB.runCommand({dropRole: "gone"}));
    assert.eq([{role: "read", db: dbName}], testDB.runCommand({usersInfo: "holder"}).users[0].roles);
    assert.commandFailedWithCode(testDB.runCommand({dropRole: "gone"}), ErrorCodes.RoleNotFound);
    assert.eq([], testDB.runCommand({rolesInfo: "gone"}).roles);
    cleanup();
}

function roleCyclesAreRefused() {
    assert.commandWorked(testDB.runCommand({createRole: "a", privileges: [], roles: []}));
    assert.commandWorked(testDB.runCommand({createRole: "b", privileges: [], roles: ["a"]}));
    assert.commandFailedWithCode(testDB.runCommand({grantRolesToRole: "a", roles: ["b"]}),
                                 ErrorCodes.BadValue);
    cleanup();
}

runScenarios(
    createAndDescribeRole,
    builtinRolesAreDescribedAndProtected,
    privilegesOutsideTheDatabaseAreRefused,
    grantAndRevokePrivileges,
    dropRoleRemovesItFromUsers,
    roleCyclesAreRefused,
);
