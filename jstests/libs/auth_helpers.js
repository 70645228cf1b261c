/**
 * Helpers for the `auth` suite (mongod --auth). The first test to run creates the root
 * user through the localhost exception; every test logs its connections in as needed.
 */
const kRootUser = "root";
const kRootPwd = "rootpw";

/** A new, unauthenticated connection to the suite's mongod. */
function newConnection() {
    return new Mongo(TestData.uri);
}

/** True when `conn` logged in as user@dbName; false (never throws) on a wrong password. */
function tryAuth(conn, user, pwd, dbName, mechanism) {
    try {
        const d = conn.getDB(dbName);
        return mechanism ? d.auth({user: user, pwd: pwd, mechanism: mechanism}) : d.auth(user, pwd);
    } catch (e) {
        return false;
    }
}

/** Logs `conn` in as root, creating root through the localhost exception if no user exists. */
function loginAsRoot(conn) {
    if (tryAuth(conn, kRootUser, kRootPwd, "admin"))
        return conn;
    assert.commandWorked(
        conn.getDB("admin").runCommand({createUser: kRootUser, pwd: kRootPwd, roles: ["root"]}));
    assert(tryAuth(conn, kRootUser, kRootPwd, "admin"), "root login after creating root");
    return conn;
}

/** A new connection logged in as user@dbName (asserts success). */
function connectAs(user, pwd, dbName, mechanism) {
    const conn = newConnection();
    assert(tryAuth(conn, user, pwd, dbName, mechanism), "login as " + user + "@" + dbName);
    return conn;
}
