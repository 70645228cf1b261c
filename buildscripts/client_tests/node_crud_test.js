#!/usr/bin/env node
/**
 * CRUD scenario with the official Node driver (mongodb 7.x) against a running server.
 *
 * Usage: node buildscripts/client_tests/node_crud_test.js --uri mongodb://127.0.0.1:PORT
 * Each step prints PASS/FAIL; the last line is "N passed, M failed". Later steps
 * still run after a failure (they use fresh collections where possible).
 */
"use strict";

const assert = require("node:assert/strict");
const path = require("node:path");
const {MongoClient, MongoServerError} = require(require.resolve("mongodb", {
    paths: [path.join(__dirname, "..", ".."), process.cwd()],
}));

function parseArgs(argv) {
    const args = {uri: process.env.MONGODB_URI || "mongodb://127.0.0.1:27017"};
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === "--uri") args.uri = argv[++i];
        else if (argv[i].startsWith("--uri=")) args.uri = argv[i].slice(6);
    }
    return args;
}

const results = [];

async function step(name, fn) {
    const start = Date.now();
    try {
        await fn();
        results.push({name, ok: true});
        console.log(`[node] PASS ${name} (${Date.now() - start}ms)`);
    } catch (err) {
        results.push({name, ok: false});
        console.log(`[node] FAIL ${name}: ${err && err.stack ? err.stack : err}`);
    }
}

async function main() {
    const {uri} = parseArgs(process.argv.slice(2));
    const client = new MongoClient(uri, {serverSelectionTimeoutMS: 10000});
    const db = client.db("node_crud_test");
    const coll = db.collection("people");

    await step("connect and ping", async () => {
        await client.connect();
        const res = await db.command({ping: 1});
        assert.equal(res.ok, 1);
    });

    if (!results[0].ok) {
        await client.close().catch(() => {});
        console.log("0 passed, 1 failed");
        process.exit(1);
    }

    await step("drop leftovers", async () => {
        await db.dropDatabase();
    });

    await step("insertOne", async () => {
        const res = await coll.insertOne({_id: 1, name: "ann", age: 31, city: "Oslo"});
        assert.equal(res.acknowledged, true);
        assert.equal(res.insertedId, 1);
    });

    await step("insertMany", async () => {
        const res = await coll.insertMany([
            {_id: 2, name: "bob", age: 25, city: "Rome"},
            {_id: 3, name: "cid", age: 40, city: "Oslo"},
            {_id: 4, name: "dan", age: 19, city: "Lima"},
            {_id: 5, name: "eve", age: 35, city: "Rome"},
        ]);
        assert.equal(res.insertedCount, 4);
        assert.deepEqual(Object.values(res.insertedIds), [2, 3, 4, 5]);
    });

    await step("find with filter", async () => {
        const docs = await coll.find({city: "Oslo"}).sort({_id: 1}).toArray();
        assert.deepEqual(docs.map((d) => d.name), ["ann", "cid"]);
    });

    await step("find with range filter, sort and limit", async () => {
        const docs = await coll.find({age: {$gte: 25}}).sort({age: -1}).limit(2).toArray();
        assert.deepEqual(docs.map((d) => d._id), [3, 5]);
    });

    await step("find with projection and skip", async () => {
        const docs = await coll.find({}, {projection: {_id: 0, name: 1}}).sort({_id: 1}).skip(3).toArray();
        assert.deepEqual(docs, [{name: "dan"}, {name: "eve"}]);
    });

    await step("findOne", async () => {
        const doc = await coll.findOne({name: "bob"});
        assert.deepEqual(doc, {_id: 2, name: "bob", age: 25, city: "Rome"});
        assert.equal(await coll.findOne({name: "nobody"}), null);
    });

    await step("updateOne $set/$inc", async () => {
        const res = await coll.updateOne({_id: 1}, {$set: {city: "Bergen"}, $inc: {age: 1}});
        assert.equal(res.matchedCount, 1);
        assert.equal(res.modifiedCount, 1);
        assert.deepEqual(await coll.findOne({_id: 1}), {_id: 1, name: "ann", age: 32, city: "Bergen"});
    });

    await step("updateMany", async () => {
        const res = await coll.updateMany({city: "Rome"}, {$inc: {age: 10}, $set: {moved: false}});
        assert.equal(res.matchedCount, 2);
        assert.equal(res.modifiedCount, 2);
        const ages = (await coll.find({city: "Rome"}).sort({_id: 1}).toArray()).map((d) => d.age);
        assert.deepEqual(ages, [35, 45]);
    });

    await step("updateOne upsert", async () => {
        const res = await coll.updateOne({name: "fay"}, {$set: {age: 28, city: "Kyiv"}}, {upsert: true});
        assert.equal(res.matchedCount, 0);
        assert.equal(res.upsertedCount, 1);
        assert.ok(res.upsertedId);
        const doc = await coll.findOne({name: "fay"});
        assert.equal(doc.age, 28);
        assert.deepEqual(doc._id, res.upsertedId);
    });

    await step("deleteOne", async () => {
        const res = await coll.deleteOne({name: "dan"});
        assert.equal(res.deletedCount, 1);
        assert.equal(await coll.findOne({name: "dan"}), null);
    });

    await step("deleteMany", async () => {
        const res = await coll.deleteMany({city: "Rome"});
        assert.equal(res.deletedCount, 2);
    });

    await step("countDocuments", async () => {
        assert.equal(await coll.countDocuments({}), 3);
        assert.equal(await coll.countDocuments({city: "Oslo"}), 1);
    });

    await step("createIndex and listIndexes", async () => {
        const name = await coll.createIndex({name: 1}, {unique: true});
        assert.equal(name, "name_1");
        const indexes = await coll.listIndexes().toArray();
        const names = indexes.map((ix) => ix.name).sort();
        assert.deepEqual(names, ["_id_", "name_1"]);
        const ix = indexes.find((i) => i.name === "name_1");
        assert.deepEqual(ix.key, {name: 1});
        assert.equal(ix.unique, true);
    });

    await step("duplicate key error code 11000", async () => {
        await assert.rejects(coll.insertOne({_id: 100, name: "ann"}), (err) => {
            assert.ok(err instanceof MongoServerError, String(err));
            assert.equal(err.code, 11000);
            return true;
        });
        await assert.rejects(coll.insertOne({_id: 1, name: "zed"}), (err) => err.code === 11000);
    });

    await step("insertMany ordered stops at duplicate", async () => {
        await assert.rejects(coll.insertMany([{_id: 200, name: "g1"}, {_id: 201, name: "ann"}, {_id: 202, name: "g3"}]),
                             (err) => {
                                 assert.equal(err.code, 11000);
                                 assert.equal(err.writeErrors.length, 1);
                                 assert.equal(err.writeErrors[0].index, 1);
                                 return true;
                             });
        assert.equal(await coll.countDocuments({_id: {$in: [200, 201, 202]}}), 1);
    });

    await step("dropIndex", async () => {
        await coll.dropIndex("name_1");
        const names = (await coll.listIndexes().toArray()).map((ix) => ix.name);
        assert.deepEqual(names, ["_id_"]);
    });

    await step("drop collection", async () => {
        assert.equal(await coll.drop(), true);
        const colls = await db.listCollections({}, {nameOnly: true}).toArray();
        assert.ok(!colls.some((c) => c.name === "people"));
    });

    await step("close", async () => {
        try {
            await db.dropDatabase();
        } finally {
            await client.close();
        }
    });
    await client.close().catch(() => {});

    const passed = results.filter((r) => r.ok).length;
    const failed = results.length - passed;
    console.log(`${passed} passed, ${failed} failed`);
    // Exit explicitly: a half-closed client must not keep the process alive.
    process.exit(failed ? 1 : 0);
}

main().catch((err) => {
    console.log(`[node] FAIL unexpected error: ${err && err.stack ? err.stack : err}`);
    const passed = results.filter((r) => r.ok).length;
    console.log(`${passed} passed, ${results.length - passed + 1} failed`);
    process.exit(1);
});
