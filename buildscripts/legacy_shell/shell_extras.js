// Legacy-shell helpers that sit on top of jstests/libs/assert.js: the assert variants
// upstream's libraries call, jsTest extras and server probes.
"use strict";

function install(g) {
    const assert = g.assert;
    assert.soonNoExcept = (f, msg, timeout, interval) => assert.soon(() => {
        try {
            return f();
        } catch (e) {
            return false;
        }
    }, msg, timeout, interval);
    assert.retryNoExcept = (f, msg, n, interval) => assert.retry(() => {
        try {
            return f();
        } catch (e) {
            return false;
        }
    }, msg, n, interval);
    assert.automsg = (expr) => assert(eval(expr), expr);  // eslint-disable-line no-eval
    for (const k of ["eq", "neq", "lt", "lte", "gt", "gte"]) {
        if (assert[k] && !assert[k].automsg) {
            assert[k].automsg = (a, b) => assert[k](eval(a), eval(b), a + " " + k + " " + b);  // eslint-disable-line no-eval
        }
    }
    if (!assert.setEq) {
        assert.setEq = (a, b, msg) => {
            const sa = new Set(a.map((x) => g.tojson(x)));
            const sb = new Set(b.map((x) => g.tojson(x)));
            if (sa.size !== sb.size || [...sa].some((x) => !sb.has(x))) {
                g.doassert("expected set " + g.tojson(a) + " to equal " + g.tojson(b), msg);
            }
        };
    }
    if (!assert.time) {
        assert.time = (f, desc, timeout) => {
            const t0 = Date.now();
            const r = f();
            const ms = Date.now() - t0;
            if (timeout && ms > timeout) g.doassert("assert.time failed timeout " + timeout + "ms took " + ms + "ms : " + desc);
            return r;
        };
    }
    assert.adminCommandWorkedAllowingNetworkError = (node, cmd) => {
        try {
            return assert.commandWorked(node.adminCommand(cmd));
        } catch (e) {
            if (e && e.name === "NetworkError") return;
            throw e;
        }
    };
    assert.noAPIParams = () => {};
    if (!assert.commandWorkedOrFailedWithCode) {
        assert.commandWorkedOrFailedWithCode = (res, codes, msg) => {
            const r = typeof res === "function" ? (() => {
                try {
                    return res();
                } catch (e) {
                    return e;
                }
            })() : res;
            if (r && (r.ok === 1 || r.ok === true) && !(r.writeErrors && r.writeErrors.length)) return r;
            return assert.commandFailedWithCode(r, codes, msg);
        };
    }
    assert.fail = assert.fail || ((msg) => g.doassert(msg));

    // String and Number helpers of the legacy shell.
    if (!String.prototype.pad) {
        Object.defineProperty(String.prototype, "pad", {
            value: function(length, right, chr) {
                const fill = chr === undefined ? " " : String(chr);
                let s = String(this);
                while (s.length < length) s = right ? s + fill : fill + s;
                return s;
            },
            writable: true, configurable: true,
        });
    }
    if (!Number.prototype.zeroPad) {
        Object.defineProperty(Number.prototype, "zeroPad", {
            value: function(width) {
                return String(this).pad(width, false, "0");
            },
            writable: true, configurable: true,
        });
    }
    if (!RegExp.escape) {
        RegExp.escape = (text) => String(text).replace(/[-[\]{}()*+?.,\\^$|#\s]/g, "\\$&");
    }

    // Versions: this server speaks 8.0 (featureCompatibilityVersion "8.0").
    g.latestFCV = "8.0";
    g.lastContinuousFCV = "7.3";
    g.lastLTSFCV = "7.0";
    const aliases = {latest: () => g.latestFCV, "last-lts": () => g.lastLTSFCV,
                     "last-continuous": () => g.lastContinuousFCV};
    g.MongoRunner = g.MongoRunner || {};
    g.MongoRunner.compareBinVersions = (a, b) => {
        const norm = (v) => String(aliases[v] ? aliases[v]() : v).split(".").map((x) => parseInt(x, 10));
        const x = norm(a);
        const y = norm(b);
        for (let i = 0; i < Math.min(x.length, y.length); i++) {
            if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
        }
        return 0;
    };
    g.MongoRunner.areBinVersionsTheSame = (a, b) => g.MongoRunner.compareBinVersions(a, b) === 0;
    g.MongoRunner.getBinVersionFor = (v) => String(aliases[v] ? aliases[v]() : v);
    g.MongoRunner.dataPath = require("os").tmpdir() + "/";

    const jsTest = g.jsTest;
    jsTest.isMongos = (conn) => conn.getDB("admin").runCommand({hello: 1}).msg === "isdbgrid";
    jsTest.authenticate = () => true;
    jsTest.readOnlyUserRoles = ["read"];
    jsTest.basicUserRoles = ["dbOwner"];
    jsTest.adminUserRoles = ["root"];
    // jsTest.log.info/debug/warning/error(msg, attrs): the newer shells' structured test log.
    if (typeof jsTest.log === "function" && !jsTest.log.info) {
        const plain = jsTest.log;
        const withAttrs = (msg, attrs) => plain(attrs === undefined ? msg : msg + " " + g.tojson(attrs));
        for (const level of ["info", "debug", "warning", "error"])
            plain[level] = withAttrs;
    }
    g.jsTestOptions = () => Object.assign({enableTestCommands: true, auth: false}, g.TestData || {});
    g.isMongos = (db) => jsTest.isMongos(db.getMongo());
    g.getBuildInfo = () => g.db.adminCommand({buildInfo: 1});
    g.buildInfo = g.getBuildInfo;
    g.isRetryableError = (e) => !!(e && g.ErrorCodes.isRetriableError && g.ErrorCodes.isRetriableError(e.code));
    g.isNetworkError = (e) => !!(e && (e.name === "NetworkError" || /network error/.test(String(e.message))));
    g.retryOnNetworkError = (f, n) => {
        let left = n || 1;
        for (;;) {
            try {
                return f();
            } catch (e) {
                if (!g.isNetworkError(e) || left-- <= 0) throw e;
            }
        }
    };
}

module.exports = {install};
