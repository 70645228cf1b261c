/**
 * Without --auth: connectionStatus reports no users, saslStart for an unknown user fails
 * with 18 AuthenticationFailed, an unsupported mechanism with 334 MechanismUnavailable,
 * saslContinue without a conversation with 17 ProtocolError, and hello advertises the
 * mechanisms of an existing user (saslSupportedMechs).
 */
const testDB = db.getSiblingDB(jsTestName());

function connectionStatusHasNoUsers() {
    const res = assert.commandWorked(db.runCommand({connectionStatus: 1, showPrivileges: true}));
    assert.eq([], res.authInfo.authenticatedUsers);
    assert.eq([], res.authInfo.authenticatedUserRoles);
    assert.eq([], res.authInfo.authenticatedUserPrivileges);
}

function saslErrors() {
    const payload = BinData(0, "biwsbj1ub2JvZHkscj1hYmNkZWY=");  // "n,,n=nobody,r=abcdef"
    assert.commandFailedWithCode(
        testDB.runCommand({saslStart: 1, mechanism: "SCRAM-SHA-256", payload: payload}),
        ErrorCodes.AuthenticationFailed);
    assert.commandFailedWithCode(
        testDB.runCommand({saslStart: 1, mechanism: "PLAIN", payload: payload}),
        ErrorCodes.MechanismUnavailable);
    assert.commandFailedWithCode(
        testDB.runCommand({saslContinue: 1, conversationId: 1, payload: payload}),
        ErrorCodes.ProtocolError);
}

function helloAdvertisesMechanisms() {
    assert.commandWorked(testDB.runCommand(
        {createUser: "m", pwd: "pw", roles: [], mechanisms: ["SCRAM-SHA-256"]}));
    const res = assert.commandWorked(
        testDB.runCommand({hello: 1, saslSupportedMechs: testDB.getName() + ".m"}));
    assert.eq(["SCRAM-SHA-256"], res.saslSupportedMechs);
    const none = assert.commandWorked(
        testDB.runCommand({hello: 1, saslSupportedMechs: testDB.getName() + ".nobody"}));
    assert(!none.hasOwnProperty("saslSupportedMechs"), tojson(none));
    assert.commandWorked(testDB.runCommand({dropAllUsersFromDatabase: 1}));
}

function saslStartAuthenticatesWithScram() {
    // A full conversation is driven by the shell's own auth helper.
    assert.commandWorked(testDB.runCommand({createUser: "s", pwd: "pw", roles: ["read"]}));
    const conn = new Mongo(TestData.uri);
    assert(conn.getDB(testDB.getName()).auth("s", "pw"));
    const st = conn.getDB("admin").runCommand({connectionStatus: 1}).authInfo;
    assert.eq([{user: "s", db: testDB.getName()}], st.authenticatedUsers);
    assert.eq([{role: "read", db: testDB.getName()}], st.authenticatedUserRoles);
    assert.commandWorked(conn.getDB(testDB.getName()).runCommand({logout: 1}));
    assert.eq([], conn.getDB("admin").runCommand({connectionStatus: 1}).authInfo.authenticatedUsers);
    assert.commandWorked(testDB.runCommand({dropAllUsersFromDatabase: 1}));
}

runScenarios(
    connectionStatusHasNoUsers,
    saslErrors,
    helloAdvertisesMechanisms,
    saslStartAuthenticatesWithScram,
);
