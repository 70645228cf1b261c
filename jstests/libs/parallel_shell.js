/**
 * startParallelShell(code): runs `code` in a second mongosh process connected to the same
 * server and database as `db` (TestData and the prelude are loaded there too), while this
 * test goes on. Returns {join(timeoutMS), kill(), exited()}: join() waits for the process
 * and returns {exitCode, output}; kill() ends it with SIGKILL (the server sees its
 * connections drop).
 *
 *   const shell = startParallelShell(() => { assert.commandWorked(db.c.insertOne({})); });
 *   assert.eq(0, shell.join().exitCode);
 */
(function() {
"use strict";

const childProcess = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

function serverUri() {
    const base = (typeof TestData === "object" && TestData.uri) ? TestData.uri
                                                                  : "mongodb://127.0.0.1:27017";
    return base + "/" + db.getName();
}

globalThis.startParallelShell = function(code) {
    const body = typeof code === "function" ? "(" + code.toString() + ")();" : String(code);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parallel-shell-"));
    const file = path.join(dir, "shell.js");
    fs.writeFileSync(file,
                     "globalThis.TestData = " + JSON.stringify(TestData || {}) + ";\n" +
                         "load(\"jstests/libs/prelude.js\");\n" + body + "\n");
    const child = childProcess.spawn("node_modules/.bin/mongosh",
                                     ["--quiet", "--norc", serverUri(), file],
                                     {stdio: ["ignore", "pipe", "pipe"], detached: true});
    let output = "";
    child.stdout.on("data", (d) => {
        output += d;
    });
    child.stderr.on("data", (d) => {
        output += d;
    });
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    return {
        exited: exited,
        join: function(timeoutMS) {
            const deadline = Date.now() + (timeoutMS || 5 * 60 * 1000);
            while (!exited() && Date.now() < deadline)
                sleep(50);
            assert(exited(), "parallel shell did not finish; output so far:\n" + output);
            fs.rmSync(dir, {recursive: true, force: true});
            return {exitCode: child.exitCode, output: output};
        },
        kill: function() {
            try {
                process.kill(-child.pid, "SIGKILL");  // the whole group: mongosh and its node
            } catch (e) {
                child.kill("SIGKILL");
            }
            return this.join(30000);
        },
    };
};
})();
