/**
 * Commands are authorized by the caller's roles: a read user can find but not insert
 * ("not authorized on <db> to execute command ..."), a readWrite user inserts into and
 * aggregates a time-series collection (and its system.buckets namespace) but cannot drop
 * the database, clusterMonitor reads serverStatus but cannot shut down.
 */
load("jstests/libs/auth_helpers.js");

const dbName = jsTestName();
const root = loginAsRoot(newConnection());
const rootDB = root.getDB(dbName);

function setup() {
    rootDB.runCommand({dropAllUsersFromDatabase: 1});
    assert.commandWorked(rootDB.runCommand({createUser: "reader", pwd: "pw", roles: ["read"]}));
    assert.commandWorked(rootDB.runCommand({createUser: "writer", pwd: "pw", roles: ["readWrite"]}));
    assert.commandWorked(rootDB.runCommand(
        {createUser: "monitor", pwd: "pw", roles: [{role: "clusterMonitor", db: "admin"}]}));
    assert.commandWorked(rootDB.c.insertOne({_id: 1}));
}

function readUserFindsButCannotWrite() {
    const conn = connectAs("reader", "pw", dbName);
    const d = conn.getDB(dbName);
    assert.eq(1, d.c.find().toArray().length);
    const res = d.runCommand({insert: "c", documents: [{_id: 2}]});
    assert.commandFailedWithCode(res, ErrorCodes.Unauthorized);
    assert(res.errmsg.startsWith("not authorized on " + dbName + " to execute command { insert:"),
           res.errmsg);
    assert.commandFailedWithCode(d.runCommand({drop: "c"}), ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(conn.getDB("other").runCommand({find: "c"}),
                                 ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(
        d.runCommand({aggregate: "c", pipeline: [{$out: "copy"}], cursor: {}}),
        ErrorCodes.Unauthorized);
}

function readWriteUserOnTimeseries() {
    const conn = connectAs("writer", "pw", dbName);
    const d = conn.getDB(dbName);
    assert.commandWorked(d.createCollection("ts", {timeseries: {timeField: "t", metaField: "m"}}));
    assert.commandWorked(d.ts.insertMany([{t: new Date(), m: 1, v: 1}, {t: new Date(), m: 2, v: 2}]));
    assert.eq(2, d.ts.aggregate([{$match: {}}]).toArray().length);
    assert.eq(2, d.system.buckets.ts.find().toArray().length);  // system_buckets privileges
    assert.commandFailedWithCode(d.runCommand({dropDatabase: 1}), ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(conn.getDB("admin").runCommand({serverStatus: 1}),
                                 ErrorCodes.Unauthorized);
    const reader = connectAs("reader", "pw", dbName).getDB(dbName);
    assert.eq(2, reader.ts.find().toArray().length);
    assert.commandFailedWithCode(reader.runCommand({insert: "ts", documents: [{t: new Date()}]}),
                                 ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(reader.runCommand({drop: "ts"}), ErrorCodes.Unauthorized);
    assert(d.ts.drop());
}

function clusterMonitorReadsStatus() {
    const conn = connectAs("monitor", "pw", dbName);
    assert.commandWorked(conn.getDB("admin").runCommand({serverStatus: 1}));
    assert.commandWorked(conn.getDB("admin").runCommand({getParameter: 1, scramIterationCount: 1}));
    assert.commandFailedWithCode(conn.getDB("admin").runCommand({setParameter: 1, logLevel: 0}),
                                 ErrorCodes.Unauthorized);
    assert.commandFailedWithCode(conn.getDB(dbName).runCommand({find: "c"}),
                                 ErrorCodes.Unauthorized);
}

function cleanup() {
    assert.commandWorked(rootDB.runCommand({dropAllUsersFromDatabase: 1}));
    assert.commandWorked(rootDB.runCommand({dropDatabase: 1}));
}

runScenarios(
    setup,
    readUserFindsButCannotWrite,
    readWriteUserOnTimeseries,
    clusterMonitorReadsStatus,
    cleanup,
);
