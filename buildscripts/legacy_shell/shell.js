#!/usr/bin/env node
// A synchronous stand-in for the legacy `mongo` shell, enough to run MongoDB jstests
// (ours and upstream's) against a server: see README.md.
//
//   node buildscripts/legacy_shell/shell.js [--host H] [--port P] [--root DIR]...
//        [--error-codes FILE.json] [--tools-dir DIR] [--eval CODE] [files...]
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const {register} = require("module");
const {pathToFileURL} = require("url");

const REPO_ROOT = path.resolve(__dirname, "..", "..");

function parseArgs(argv) {
    const o = {host: "127.0.0.1", port: 27017, roots: [], evals: [], files: [], errorCodesJson: null,
               passThrough: [], nodb: false};
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const val = () => argv[++i];
        if (a === "--host") o.host = val();
        else if (a === "--port") o.port = Number(val());
        else if (a === "--root") {
            o.roots.push(path.resolve(val()));
            o.passThrough.push("--root", o.roots[o.roots.length - 1]);
        } else if (a === "--error-codes") {
            o.errorCodesJson = path.resolve(val());
            o.passThrough.push("--error-codes", o.errorCodesJson);
        } else if (a === "--eval") o.evals.push(val());
        else if (a === "--tools-dir") {
            o.toolsDir = path.resolve(val());
            o.passThrough.push("--tools-dir", o.toolsDir);
        }
        else if (a === "--nodb") o.nodb = true;
        else if (a.startsWith("mongodb://")) {
            const m = /^mongodb:\/\/([^/:]+)(?::(\d+))?/.exec(a);
            o.host = m[1];
            if (m[2]) o.port = Number(m[2]);
        } else o.files.push(a);
    }
    if (!o.roots.includes(REPO_ROOT)) o.roots.push(REPO_ROOT);
    if (!o.toolsDir) o.toolsDir = path.join(REPO_ROOT, "build", "opt", "tools");
    return o;
}

const {isModule} = require("./module_syntax.js");

function reportError(e) {
    const head = e && typeof e === "object" ? (e.name || "Error") + ": " + e.message : String(e);
    let stack = e && e.stack ? String(e.stack) : "";
    // Keep the "at ..." frames only (vm-run code prefixes the stack with a source excerpt).
    stack = stack.split("\n").filter((l) => /^\s+at /.test(l)).join("\n");
    process.stderr.write("uncaught exception: " + head + "\n" + stack + "\n");
}

async function main() {
    const opts = parseArgs(process.argv.slice(2));
    const g = globalThis;
    register(pathToFileURL(path.join(__dirname, "module_hooks.mjs")).href,
             {data: {roots: opts.roots}});

    require("./types.js").install(g);
    require("./globals.js").install(g, opts);
    if (typeof g.TestData === "undefined") g.TestData = {};
    if (!opts.errorCodesJson) g.load("jstests/libs/error_codes.js");
    g.load(path.join(REPO_ROOT, "jstests/libs/assert.js"));
    require("./shell_extras.js").install(g);

    const api = require("./mongo_api.js");
    const coll = require("./collection.js");
    const query = require("./query.js");
    const W = require("./write_results.js");
    g.__legacyShell = {makeCollection: coll.makeCollection, commandError: query.commandError};
    Object.assign(g, {Mongo: api.Mongo, DB: api.DB, DBCollection: coll.DBCollection, DBQuery: query.DBQuery,
                      DBCommandCursor: query.DBCommandCursor, Explainable: query.Explainable,
                      WriteResult: W.WriteResult, BulkWriteResult: W.BulkWriteResult,
                      WriteCommandError: W.WriteCommandError, BulkWriteError: W.BulkWriteError,
                      WriteError: W.WriteError, WriteConcernError: W.WriteConcernError,
                      DriverSession: api.DriverSession});
    g.connect = (url) => new api.Mongo(url).getDB(url.split("/")[1] || "test");
    if (!opts.nodb) {
        g.db = new api.Mongo(opts.host + ":" + opts.port).getDB("test");
    }
    g.__shellOptions = opts;

    for (const code of opts.evals) vm.runInThisContext(code, {filename: "(eval)"});
    for (const f of opts.files) {
        const full = g.__resolvePath(f);
        const src = fs.readFileSync(full, "utf8");
        if (isModule(src)) {
            await import(pathToFileURL(full).href);
        } else {
            vm.runInThisContext(src, {filename: full});
        }
    }
}

main().then(() => process.exit(0), (e) => {
    reportError(e);
    process.exit(1);
});
