#!/usr/bin/env node
/**
 * Retryable writes with the Node driver (mongodb 7.x, retryWrites=true by default) against a
 * one-node replica set started with enableTestCommands=1 (retryable_writes_test.py starts
 * it). For each write the onPrimaryTransactionalWrite fail point makes the server apply the
 * write and close the connection without a reply; the driver retries with the same
 * txnNumber, and the collection must show the write applied exactly once while the driver
 * reports the original result.
 *
 * Usage: node buildscripts/client_tests/retryable_writes_node_test.js --uri mongodb://...
 * The last line is "N passed, M failed".
 */
"use strict";

const assert = require("node:assert/strict");
const path = require("node:path");
const {MongoClient} = require(require.resolve("mongodb", {
    paths: [path.join(__dirname, "..", ".."), process.cwd()],
}));

function parseArgs(argv) {
    const args = {uri: "mongodb://127.0.0.1:27017/?directConnection=true"};
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === "--uri") args.uri = argv[++i];
    }
    return args;
}

const results = [];

async function step(name, fn) {
    const start = Date.now();
    try {
        await fn();
        results.push(true);
        console.log(`[node-retryable] PASS ${name} (${Date.now() - start}ms)`);
    } catch (err) {
        results.push(false);
        console.log(`[node-retryable] FAIL ${name}: ${err && err.stack ? err.stack : err}`);
    }
}

async function main() {
    const {uri} = parseArgs(process.argv.slice(2));
    const client = new MongoClient(uri, {monitorCommands: true, serverSelectionTimeoutMS: 10000});
    const sent = [];
    client.on("commandStarted", (e) => sent.push({name: e.commandName, txn: e.command.txnNumber}));
    await client.connect();
    const admin = client.db("admin");
    const db = client.db("rw_node");

    async function failAfterWrite() {
        const r = await admin.command({
            configureFailPoint: "onPrimaryTransactionalWrite",
            mode: {times: 1},
            data: {closeConnection: true},
        });
        assert.equal(r.ok, 1);
    }
    function retriedOnce(name) {
        const attempts = sent.filter((s) => s.name === name).slice(-2);
        assert.equal(attempts.length, 2);
        assert.ok(attempts[0].txn !== undefined, "txnNumber sent");
        assert.equal(String(attempts[0].txn), String(attempts[1].txn));
    }

    await step("insertOne exactly once", async () => {
        const c = db.collection("c");
        await c.drop().catch(() => {});
        await failAfterWrite();
        const r = await c.insertOne({_id: 1});
        assert.equal(r.insertedId, 1);
        retriedOnce("insert");
        assert.equal(await c.countDocuments({}), 1);
    });

    await step("insertMany exactly once", async () => {
        const c = db.collection("c");
        await c.drop().catch(() => {});
        await failAfterWrite();
        const r = await c.insertMany([{_id: 1}, {_id: 2}, {_id: 3}]);
        assert.equal(r.insertedCount, 3);
        retriedOnce("insert");
        assert.equal(await c.countDocuments({}), 3);
    });

    await step("updateOne exactly once", async () => {
        const c = db.collection("c");
        await c.drop().catch(() => {});
        await c.insertOne({_id: 1, n: 0});
        await failAfterWrite();
        const r = await c.updateOne({_id: 1}, {$inc: {n: 1}});
        assert.equal(r.matchedCount, 1);
        assert.equal(r.modifiedCount, 1);
        retriedOnce("update");
        assert.equal((await c.findOne({_id: 1})).n, 1);
    });

    await step("deleteOne exactly once", async () => {
        const c = db.collection("c");
        await c.drop().catch(() => {});
        await c.insertMany([{_id: 1, g: 1}, {_id: 2, g: 1}]);
        await failAfterWrite();
        const r = await c.deleteOne({g: 1});
        assert.equal(r.deletedCount, 1);
        retriedOnce("delete");
        assert.equal(await c.countDocuments({}), 1);
    });

    await step("findOneAndUpdate returns the original value", async () => {
        const c = db.collection("c");
        await c.drop().catch(() => {});
        await c.insertOne({_id: 1, n: 10});
        await failAfterWrite();
        const doc = await c.findOneAndUpdate({_id: 1}, {$inc: {n: 1}},
                                             {returnDocument: "after", includeResultMetadata: false});
        assert.deepEqual(doc, {_id: 1, n: 11});
        retriedOnce("findAndModify");
        assert.equal((await c.findOne({_id: 1})).n, 11);
    });

    await step("time-series insertMany exactly once", async () => {
        await db.collection("ts").drop().catch(() => {});
        await db.createCollection("ts", {timeseries: {timeField: "t", metaField: "m"}});
        const ts = db.collection("ts");
        await failAfterWrite();
        const t0 = Date.UTC(2024, 0, 1);
        const r = await ts.insertMany(
            [0, 1, 2, 3].map((i) => ({t: new Date(t0 + i * 1000), m: i % 2, v: i})));
        assert.equal(r.insertedCount, 4);
        retriedOnce("insert");
        assert.equal(await ts.countDocuments({}), 4);
    });

    await admin.command({configureFailPoint: "onPrimaryTransactionalWrite", mode: "off"});
    await client.close();
    const passed = results.filter((r) => r).length;
    console.log(`${passed} passed, ${results.length - passed} failed`);
    process.exitCode = results.length === passed ? 0 : 1;
}

main().catch((err) => {
    console.log(`[node-retryable] FAIL setup: ${err && err.stack ? err.stack : err}`);
    console.log(`${results.filter((r) => r).length} passed, ${results.filter((r) => !r).length + 1} failed`);
    process.exitCode = 1;
});
