/**
 * userAdmin on one database manages that database's users only: it cannot create users
 * elsewhere, cannot grant roles of other databases, and a custom role's privileges take
 * effect for the users holding it at once (and are gone when the role is revoked).
 */
load("jstests/libs/auth_helpers.js");

const dbName = jsTestName();
const root = loginAsRoot(newConnection());
const rootDB = root.getDB(dbName);

function userAdminIsScopedToItsDatabase() {
    assert.commandWorked(rootDB.runCommand({createUser: "ua", pwd: "pw", roles: ["userAdmin"]}));
    const ua = connectAs("ua", "pw", dbName);
    assert.commandWorked(ua.getDB(dbName).runCommand({createUser: "x", pwd: "pw", roles: ["read"]}));
    assert.commandFailedWithCode(
        ua.getDB("other").runCommand({createUser: "x", pwd: "pw", roles: []}),
        ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(
        ua.getDB(dbName).runCommand(
            {createUser: "y", pwd: "pw", roles: [{role: "root", db: "admin"}]}),
        ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(ua.getDB(dbName).runCommand({find: "c"}), ErrorCodes.Unauthorized);
}

function customRoleTakesEffectImmediately() {
    assert.commandWorked(rootDB.runCommand({
        createRole: "inserter",
        privileges: [{resource: {db: dbName, collection: "c"}, actions: ["insert"]}],
        roles: [],
    }));
    assert.commandWorked(rootDB.runCommand({createUser: "ins", pwd: "pw", roles: []}));
    const conn = connectAs("ins", "pw", dbName);
    const d = conn.getDB(dbName);
    assert.commandFailedWithCode(d.runCommand({insert: "c", documents: [{a: 1}]}),
                                 ErrorCodes.Unauthorized);
    assert.commandWorked(rootDB.runCommand({grantRolesToUser: "ins", roles: ["inserter"]}));
    assert.commandWorked(d.runCommand({insert: "c", documents: [{a: 1}]}));
    assert.commandFailedWithCode(d.runCommand({insert: "other", documents: [{a: 1}]}),
                                 ErrorCodes.Unauthorized);
    assert.commandWorked(rootDB.runCommand({revokeRolesFromUser: "ins", roles: ["inserter"]}));
    assert.commandFailedWithCode(d.runCommand({insert: "c", documents: [{a: 1}]}),
                                 ErrorCodes.Unauthorized);
    assert.commandWorked(rootDB.runCommand({dropUser: "ins"}));
}

function cleanup() {
    assert.commandWorked(rootDB.runCommand({dropAllUsersFromDatabase: 1}));
    assert.commandWorked(rootDB.runCommand({dropAllRolesFromDatabase: 1}));
    assert.commandWorked(rootDB.runCommand({dropDatabase: 1}));
}

runScenarios(
    userAdminIsScopedToItsDatabase,
    customRoleTakesEffectImmediately,
    cleanup,
);
