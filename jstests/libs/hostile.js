/**
 * Harness for hostile-but-legal requests (jstests/core/hostile/). Each case sends one request
 * that a careless server would crash on, hang on, or grow without bound for, and checks that:
 *  - it ends within `seconds` (default 30) with a result, or with an error whose code is in
 *    `codes` (an empty list: it must succeed; `anyOutcome: true`: a result or any error);
 *  - mongod still answers `ping` afterwards;
 *  - mongod's peak resident memory (VmHWM of /proc/<pid>/status, so a brief spike counts)
 *    is still under kHostileRssLimitMB.
 *
 *   hostileCase("$range over 4e9 integers",
 *               () => db.runCommand({aggregate: "c", pipeline: [...], cursor: {}}),
 *               {codes: [ErrorCodes.ExceededMemoryLimit]});
 *
 * `fn` may return a command reply ({ok: 0}, or a write error, counts as an error with its
 * code) or throw.
 */
globalThis.kHostileRssLimitMB = 2048;

globalThis.hostilePeakRssMB = function hostilePeakRssMB() {
    const pid = db.serverStatus().pid;
    const status = require("fs").readFileSync("/proc/" + pid + "/status", "utf8");
    const line = status.split("\n").find((l) => l.startsWith("VmHWM:"));
    return Number(line.split(/\s+/)[1]) / 1024;
};

globalThis.hostileCase = function hostileCase(name, fn, opts = {}) {
    const codes = opts.codes || [];
    const seconds = opts.seconds || 30;
    const start = Date.now();
    let outcome;
    try {
        const res = fn();
        const writeError = res && res.writeErrors && res.writeErrors[0];
        outcome = res && typeof res === "object" && res.ok === 0
            ? {error: true, code: res.code, msg: res.errmsg}
            : writeError ? {error: true, code: writeError.code, msg: writeError.errmsg}
                         : {error: false};
    } catch (e) {
        outcome = {error: true, code: e.code, msg: e.message};
    }
    const secs = (Date.now() - start) / 1000;
    const what = outcome.error ? "error " + outcome.code + " (" + String(outcome.msg).slice(0, 120) + ")"
                               : "a result";
    print("hostile: " + name + ": " + what + " in " + secs.toFixed(2) + " s");
    if (!opts.anyOutcome) {
        if (codes.length === 0)
            assert(!outcome.error, name + ": expected a result, got " + what);
        else
            assert(outcome.error && codes.includes(outcome.code),
                   name + ": expected one of codes " + tojson(codes) + ", got " + what);
    }
    assert.lte(secs, seconds, name + ": took " + secs + " s");
    assert.commandWorked(db.adminCommand({ping: 1}), name + ": mongod did not answer ping");
    const peak = hostilePeakRssMB();
    assert.lt(peak, kHostileRssLimitMB, name + ": mongod's peak RSS reached " + peak + " MB");
};

/** An aggregate on `coll` as a raw command reply (errors are not thrown). */
globalThis.hostileAggregate = function hostileAggregate(coll, pipeline, extra = {}) {
    return db.runCommand(Object.assign({aggregate: coll.getName(), pipeline, cursor: {}}, extra));
};
