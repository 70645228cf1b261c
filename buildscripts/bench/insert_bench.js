#!/usr/bin/env node
/**
 * Insert throughput benchmark (Node driver): 4 concurrent workers, each with its
 * own MongoClient (one connection each), inserting batches of 1,000 documents of
 * about 200 bytes with insertMany until --total documents are written.
 *
 * Usage:
 *   node buildscripts/bench/insert_bench.js --uri mongodb://127.0.0.1:27017
 *   node buildscripts/bench/insert_bench.js --mongod build/opt/mongod   # own mongod, temp dbpath
 * Options: --total N (400000), --batch N (1000), --workers N (4), --db NAME (insert_bench),
 *          --keep (keep the temp dbpath), --json (print one JSON line as well).
 * Prints "insert_bench: <docs/s> docs/s (<total> docs in <s>s, ...)".
 */
"use strict";

const path = require("node:path");
const fs = require("node:fs");
const os = require("node:os");
const net = require("node:net");
const {spawn} = require("node:child_process");
const {MongoClient} = require(require.resolve("mongodb", {
    paths: [path.join(__dirname, "..", ".."), process.cwd()],
}));

function parseArgs(argv) {
    const args = {uri: null, mongod: null, total: 400000, batch: 1000, workers: 4, db: "insert_bench",
                  keep: false, json: false};
    for (let i = 0; i < argv.length; i++) {
        let [k, v] = argv[i].split("=", 2);
        const next = () => (v !== undefined ? v : argv[++i]);
        switch (k) {
            case "--uri": args.uri = next(); break;
            case "--mongod": args.mongod = next(); break;
            case "--total": args.total = parseInt(next(), 10); break;
            case "--batch": args.batch = parseInt(next(), 10); break;
            case "--workers": args.workers = parseInt(next(), 10); break;
            case "--db": args.db = next(); break;
            case "--keep": args.keep = true; break;
            case "--json": args.json = true; break;
            case "-h": case "--help":
                console.log("usage: insert_bench.js [--uri URI | --mongod PATH] [--total N] [--batch N] " +
                            "[--workers N] [--db NAME] [--keep] [--json]");
                process.exit(0);
            default:
                throw new Error("unknown argument " + argv[i]);
        }
    }
    if (!args.uri && !args.mongod) args.uri = "mongodb://127.0.0.1:27017";
    return args;
}

function freePort() {
    return new Promise((resolve, reject) => {
        const srv = net.createServer();
        srv.unref();
        srv.on("error", reject);
        srv.listen(0, "127.0.0.1", () => {
            const {port} = srv.address();
            srv.close(() => resolve(port));
        });
    });
}

async function startMongod(mongodPath) {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "insert-bench-"));
    const dbpath = path.join(dir, "db");
    fs.mkdirSync(dbpath);
    const logpath = path.join(dir, "mongod.log");
    const proc = spawn(path.resolve(mongodPath),
                       ["--dbpath", dbpath, "--port", String(port), "--bind_ip", "127.0.0.1", "--logpath", logpath],
                       {stdio: ["ignore", "ignore", "inherit"]});
    let exited = null;
    proc.on("exit", (code) => { exited = code; });
    const uri = `mongodb://127.0.0.1:${port}`;
    const deadline = Date.now() + 60000;
    for (;;) {
        if (exited !== null) throw new Error(`mongod exited with code ${exited}; see ${logpath}`);
        const client = new MongoClient(uri, {serverSelectionTimeoutMS: 1000});
        try {
            await client.connect();
            await client.db("admin").command({ping: 1});
            await client.close();
            break;
        } catch (e) {
            await client.close().catch(() => {});
            if (Date.now() > deadline) throw new Error("mongod did not start: " + e.message);
            await new Promise((r) => setTimeout(r, 200));
        }
    }
    return {proc, uri, dir, logpath};
}

async function stopMongod(m) {
    const client = new MongoClient(m.uri, {serverSelectionTimeoutMS: 2000});
    try {
        await client.db("admin").command({shutdown: 1});
    } catch (e) {
        // The server closes the connection while shutting down.
    }
    await client.close().catch(() => {});
    const exited = new Promise((r) => m.proc.once("exit", r));
    const timer = setTimeout(() => m.proc.kill("SIGKILL"), 30000);
    if (m.proc.exitCode === null) await exited;
    clearTimeout(timer);
}

function makeDoc(worker, i) {
    // ~200 bytes of BSON: _id ObjectId (driver-generated), 3 ints, a date, two strings.
    return {
        w: worker,
        i: i,
        grp: i % 100,
        ts: new Date(1700000000000 + i),
        name: "user-" + String(i).padStart(10, "0"),
        payload: "x".repeat(103),
    };
}

async function worker(id, uri, dbName, batch, counter, total) {
    const client = new MongoClient(uri, {maxPoolSize: 1});
    await client.connect();
    const coll = client.db(dbName).collection("docs");
    let inserted = 0;
    for (;;) {
        const start = counter.next;
        if (start >= total) break;
        const n = Math.min(batch, total - start);
        counter.next += n;
        const docs = new Array(n);
        for (let k = 0; k < n; k++) docs[k] = makeDoc(id, start + k);
        const res = await coll.insertMany(docs, {ordered: false});
        if (res.insertedCount !== n) throw new Error(`worker ${id}: inserted ${res.insertedCount} of ${n}`);
        inserted += n;
    }
    await client.close();
    return inserted;
}

async function main() {
    const args = parseArgs(process.argv.slice(2));
    let mongod = null;
    let uri = args.uri;
    if (!uri) {
        mongod = await startMongod(args.mongod);
        uri = mongod.uri;
        console.log(`insert_bench: started mongod at ${uri} (dbpath ${mongod.dir})`);
    }
    try {
        const setup = new MongoClient(uri);
        await setup.connect();
        await setup.db(args.db).dropDatabase();
        await setup.db(args.db).command({create: "docs"});
        const sampleSize = require("mongodb").BSON.calculateObjectSize(
            Object.assign({_id: new (require("mongodb").ObjectId)()}, makeDoc(0, 123456)));

        const counter = {next: 0};
        const t0 = process.hrtime.bigint();
        const counts = await Promise.all(Array.from({length: args.workers},
            (_, w) => worker(w, uri, args.db, args.batch, counter, args.total)));
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        const inserted = counts.reduce((a, b) => a + b, 0);

        const stored = await setup.db(args.db).collection("docs").estimatedDocumentCount()
            .catch(() => setup.db(args.db).collection("docs").countDocuments({}));
        await setup.db(args.db).dropDatabase();
        await setup.close();

        const rate = inserted / seconds;
        console.log(`insert_bench: ${Math.round(rate)} docs/s (${inserted} docs in ${seconds.toFixed(2)}s, ` +
                    `${args.workers} workers, batch ${args.batch}, ~${sampleSize} bytes/doc, ` +
                    `server count ${stored})`);
        if (args.json) {
            console.log(JSON.stringify({docsPerSecond: rate, docs: inserted, seconds, workers: args.workers,
                                        batch: args.batch, docBytes: sampleSize, serverCount: stored}));
        }
        if (stored !== inserted) {
            console.error(`insert_bench: server reports ${stored} documents, expected ${inserted}`);
            process.exitCode = 1;
        }
    } finally {
        if (mongod) {
            await stopMongod(mongod);
            if (!args.keep && process.exitCode !== 1) fs.rmSync(mongod.dir, {recursive: true, force: true});
            else console.log(`insert_bench: kept ${mongod.dir}`);
        }
    }
}

main().catch((err) => {
    console.error("insert_bench: " + (err && err.stack ? err.stack : err));
    process.exit(1);
});
