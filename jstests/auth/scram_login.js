/**
 * SCRAM-SHA-256 and SCRAM-SHA-1 logins: the right password authenticates, a wrong one
 * fails with 18 AuthenticationFailed, a user restricted to one mechanism cannot use the
 * other, a SASLprep'ed password works with SCRAM-SHA-256, and logout ends the login.
 */
load("jstests/libs/auth_helpers.js");

const dbName = jsTestName();
const root = loginAsRoot(newConnection());
const rootDB = root.getDB(dbName);

function bothMechanisms() {
    assert.commandWorked(rootDB.runCommand({createUser: "both", pwd: "pw", roles: ["read"]}));
    for (const mech of ["SCRAM-SHA-256", "SCRAM-SHA-1"]) {
        assert(tryAuth(newConnection(), "both", "pw", dbName, mech), mech);
        assert(!tryAuth(newConnection(), "both", "wrong", dbName, mech), mech);
    }
}

function wrongPasswordIs18() {
    const conn = newConnection();
    let err;
    try {
        conn.getDB(dbName).auth("both", "wrong");
    } catch (e) {
        err = e;
    }
    assert(err && err.code === ErrorCodes.AuthenticationFailed, tojson(err));
}

function mechanismRestriction() {
    assert.commandWorked(rootDB.runCommand(
        {createUser: "sha1only", pwd: "pw", roles: [], mechanisms: ["SCRAM-SHA-1"]}));
    assert(tryAuth(newConnection(), "sha1only", "pw", dbName, "SCRAM-SHA-1"));
    assert(!tryAuth(newConnection(), "sha1only", "pw", dbName, "SCRAM-SHA-256"));
}

function saslPreppedPassword() {
    // U+2168 ROMAN NUMERAL NINE normalises to "IX" (RFC 4013): both spellings log in.
    assert.commandWorked(rootDB.runCommand(
        {createUser: "prep", pwd: "\u2168", roles: [], mechanisms: ["SCRAM-SHA-256"]}));
    assert(tryAuth(newConnection(), "prep", "IX", dbName, "SCRAM-SHA-256"));
    assert(tryAuth(newConnection(), "prep", "\u2168", dbName, "SCRAM-SHA-256"));
}

function logoutEndsTheLogin() {
    const conn = connectAs("both", "pw", dbName);
    assert.commandWorked(conn.getDB(dbName).runCommand({find: "c"}));
    assert.commandWorked(conn.getDB(dbName).runCommand({logout: 1}));
    assert.commandFailedWithCode(conn.getDB(dbName).runCommand({find: "c"}),
                                 ErrorCodes.Unauthorized);
}

function cleanup() {
    assert.commandWorked(rootDB.runCommand({dropAllUsersFromDatabase: 1}));
}

runScenarios(
    bothMechanisms,
    wrongPasswordIs18,
    mechanismRestriction,
    saslPreppedPassword,
    logoutEndsTheLogin,
    cleanup,
);
