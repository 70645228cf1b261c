/**
 * MONGODB-X509 on a plain connection (the TLS cases are in
 * buildscripts/client_tests/tls_test.py): users on $external are created without a password
 * and listed by usersInfo; authenticate, saslStart and speculative hello fail as upstream
 * (18 AuthenticationFailed: no verified certificate subject; other mechanisms 18 too);
 * hello's saslSupportedMechs lists no SCRAM mechanism for an $external user.
 */
const external = db.getSiblingDB("$external");
const kUser = "CN=jstest,OU=clients,O=tsmongod test";

function externalUsersHaveNoPassword() {
    assert.commandWorked(
        external.runCommand({createUser: kUser, roles: [{role: "read", db: "test"}]}));
    const info = assert.commandWorked(external.runCommand({usersInfo: kUser}));
    assert.eq(1, info.users.length, tojson(info));
    assert.eq("$external", info.users[0].db);
    assert.commandFailedWithCode(
        external.runCommand({createUser: "CN=other", pwd: "pw", roles: []}),
        ErrorCodes.BadValue);
    const hello = assert.commandWorked(
        db.runCommand({hello: 1, saslSupportedMechs: "$external." + kUser}));
    assert(!hello.hasOwnProperty("saslSupportedMechs"), tojson(hello));
}

function authenticateNeedsACertificate() {
    assert.commandFailedWithCode(
        external.runCommand({authenticate: 1, mechanism: "MONGODB-X509"}),
        ErrorCodes.AuthenticationFailed);
    assert.commandFailedWithCode(
        external.runCommand({authenticate: 1, mechanism: "MONGODB-X509", user: kUser}),
        ErrorCodes.AuthenticationFailed);
    assert.commandFailedWithCode(
        external.runCommand({authenticate: 1, mechanism: "SCRAM-SHA-256", user: kUser}),
        ErrorCodes.AuthenticationFailed);
    assert.commandFailedWithCode(external.runCommand({authenticate: 1}),
                                 ErrorCodes.AuthenticationFailed);
    assert.commandFailedWithCode(
        external.runCommand({saslStart: 1, mechanism: "MONGODB-X509", payload: BinData(0, "")}),
        ErrorCodes.AuthenticationFailed);
    const status = assert.commandWorked(db.runCommand({connectionStatus: 1}));
    assert.eq([], status.authInfo.authenticatedUsers);
}

function speculativeX509IsLeftOutWithoutACertificate() {
    const res = assert.commandWorked(db.runCommand({
        hello: 1,
        speculativeAuthenticate: {authenticate: 1, mechanism: "MONGODB-X509", db: "$external"}
    }));
    assert(!res.hasOwnProperty("speculativeAuthenticate"), tojson(res));
}

externalUsersHaveNoPassword();
authenticateNeedsACertificate();
speculativeX509IsLeftOutWithoutACertificate();
assert.commandWorked(external.runCommand({dropAllUsersFromDatabase: 1}));
