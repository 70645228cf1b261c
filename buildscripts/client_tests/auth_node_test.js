#!/usr/bin/env node
/**
 * Node driver logins against `mongod --auth` prepared by auth_test.py (users root/rootpw in
 * admin, reader/rpw and writer/wpw in test): SCRAM-SHA-256 and SCRAM-SHA-1 succeed, a wrong
 * password is 18 AuthenticationFailed, a read user's insert is 13 Unauthorized.
 * Usage: node auth_node_test.js --port PORT   (one "[node-auth] PASS|FAIL ..." line per check)
 */
"use strict";

const path = require("node:path");
const {MongoClient} = require(require.resolve("mongodb", {
    paths: [path.join(__dirname, "..", ".."), process.cwd()],
}));

const port = process.argv[process.argv.indexOf("--port") + 1];
let failed = 0;

async function step(name, fn) {
    try {
        await fn();
        console.log(`[node-auth] PASS ${name}`);
    } catch (err) {
        failed++;
        console.log(`[node-auth] FAIL ${name}: ${err && err.stack ? err.stack : err}`);
    }
}

function uri(user, pwd, source, mech) {
    return `mongodb://${user}:${pwd}@127.0.0.1:${port}/?authSource=${source}` +
        (mech ? `&authMechanism=${mech}` : "") + "&serverSelectionTimeoutMS=5000";
}

async function expectCode(promise, code) {
    try {
        await promise;
    } catch (err) {
        if (err.code === code) return;
        throw err;
    }
    throw new Error(`expected error code ${code}`);
}

async function main() {
    for (const mech of ["SCRAM-SHA-256", "SCRAM-SHA-1"]) {
        await step(`node ${mech} with the right password`, async () => {
            const c = new MongoClient(uri("root", "rootpw", "admin", mech));
            try {
                const st = await c.db("admin").command({connectionStatus: 1});
                if (st.authInfo.authenticatedUsers[0].user !== "root") throw new Error("not root");
            } finally {
                await c.close();
            }
        });
        await step(`node ${mech} with a wrong password is 18`, async () => {
            const c = new MongoClient(uri("root", "wrong", "admin", mech));
            try {
                await expectCode(c.connect(), 18);
            } finally {
                await c.close();
            }
        });
    }
    await step("node read user insert is 13", async () => {
        const c = new MongoClient(uri("reader", "rpw", "test"));
        try {
            await expectCode(c.db("test").collection("c").insertOne({n: 1}), 13);
        } finally {
            await c.close();
        }
    });
    await step("node without credentials find is 13", async () => {
        const c = new MongoClient(`mongodb://127.0.0.1:${port}/?serverSelectionTimeoutMS=5000`);
        try {
            await expectCode(c.db("test").collection("c").find({}).toArray(), 13);
        } finally {
            await c.close();
        }
    });
    process.exit(failed ? 1 : 0);
}

main();
