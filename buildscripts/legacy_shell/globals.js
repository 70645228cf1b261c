// The legacy shell's global helpers: print/printjson, sleep, load, Random, jsTest extras,
// Object/Array helpers, ErrorCodes from a JSON table, startParallelShell, build probes.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const crypto = require("crypto");
const childProcess = require("child_process");
const moduleSyntax = require("./module_syntax.js");

function install(g, opts) {
    const roots = opts.roots;  // where "jstests/..." and "src/..." paths resolve, first match wins

    g.print = (...args) => process.stdout.write(args.map((a) => (typeof a === "string" ? a : g.tojson(a))).join(" ") + "\n");
    g.printjson = (x) => g.print(g.tojson(x));
    g.printjsononeline = (x) => g.print(g.tojsononeline(x));
    g.tostrictjson = (x) => JSON.stringify(x);
    g.tojsonObject = (x, indent, nolint) => g.tojson(x, indent, nolint);
    const sleepBuf = new Int32Array(new SharedArrayBuffer(4));
    g.sleep = (ms) => Atomics.wait(sleepBuf, 0, 0, Math.max(0, Number(ms) || 0));
    g.quit = (code) => process.exit(code === undefined ? 0 : code);
    g.gc = () => {};
    g.hex_md5 = (s) => crypto.createHash("md5").update(String(s)).digest("hex");
    g.getHostName = () => "localhost";
    g.hostname = g.getHostName;
    g.pwd = () => process.cwd();
    g.cat = (f) => fs.readFileSync(resolvePath(f), "utf8");
    g.listFiles = (dir) => fs.readdirSync(resolvePath(dir || ".")).map((n) => {
        const p = path.join(dir || ".", n);
        const st = fs.statSync(resolvePath(p));
        return {name: p, baseName: n, isDirectory: st.isDirectory(), size: st.size};
    });
    g.removeFile = (f) => fs.rmSync(f, {recursive: true, force: true});
    g.mkdir = (d) => ({created: !fs.existsSync(d) && !!fs.mkdirSync(d, {recursive: true})});
    g._isWindows = () => false;
    g._isAddressSanitizerActive = () => false;
    g._isLeakSanitizerActive = () => false;
    g._isThreadSanitizerActive = () => false;
    g._isUndefinedBehaviorSanitizerActive = () => false;
    g._isSpiderMonkeyDebugEnabled = () => false;
    g._optimizationsEnabled = () => true;
    g.isNumber = (x) => typeof x === "number";
    g.isString = (x) => typeof x === "string";
    g.isObject = (x) => typeof x === "object" && x !== null;
    g.numberDecimalsEqual = (a, b) => g.bsonWoCompare({x: a}, {x: b}) === 0;
    // The legacy shell's sortDoc: a copy of a document with the fields of every plain object
    // in it sorted by name (arrays keep their order; BSON values and dates are left as they are).
    g.sortDoc = (doc) => {
        if (Array.isArray(doc)) return doc.map(g.sortDoc);
        if (doc === null || typeof doc !== "object" || Object.getPrototypeOf(doc) !== Object.prototype)
            return doc;
        const out = {};
        for (const k of Object.keys(doc).sort()) out[k] = g.sortDoc(doc[k]);
        return out;
    };
    g.numberDecimalsAlmostEqual = (a, b, places) => {
        const x = parseFloat(a.toString());
        const y = parseFloat(b.toString());
        return Math.abs(x - y) < Math.pow(10, -(places || 15)) * Math.max(1, Math.abs(x));
    };

    function resolvePath(p) {
        if (path.isAbsolute(p)) return p;
        for (const r of roots) {
            const full = path.join(r, p);
            if (fs.existsSync(full)) return full;
        }
        return path.resolve(p);
    }
    g.__resolvePath = resolvePath;
    // load() of an ES module (an older test loading a library that is a module now): the module
    // runs once as a classic script, its imports become load()s and its exports globals.
    const modulesLoaded = new Set();
    g.load = (...files) => {
        for (const f of files) {
            const full = resolvePath(f);
            const src = fs.readFileSync(full, "utf8");
            if (!moduleSyntax.isModule(src)) {
                vm.runInThisContext(src, {filename: full});
            } else if (!modulesLoaded.has(full)) {
                modulesLoaded.add(full);
                vm.runInThisContext(moduleSyntax.moduleAsScript(src), {filename: full});
            }
        }
        return true;
    };
    // The value of a classic script's top-level declaration, for the module that stands in for
    // that script when a module imports it (module_hooks.mjs).
    g.__scriptGlobal = (name) => vm.runInThisContext(name);

    // Random: seeded (mulberry32), as the legacy shell's Random.setRandomSeed/rand.
    let seed = null;
    let state = 0;
    function next() {
        state = (state + 0x6D2B79F5) | 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    g.Random = {
        srand(s) { seed = Number(s); state = seed | 0; },
        setRandomSeed(s) {
            const v = s === undefined ? Date.now() : s;
            this.srand(v);
            g.print("setting random seed: " + v);
            return v;
        },
        isInitialized() { return seed !== null; },
        rand() {
            if (seed === null) this.setRandomSeed();
            return next();
        },
        randInt(a, b) {
            if (b === undefined) return Math.floor(this.rand() * a);
            return a + Math.floor(this.rand() * (b - a));
        },
        genExp(mean) { return -Math.log(1 - this.rand()) * mean; },
        genNormal(mean, sd) {
            const u = 1 - this.rand();
            const v = this.rand();
            return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        },
        randShuffle(arr) {
            for (let i = arr.length - 1; i > 0; i--) {
                const j = Math.floor(this.rand() * (i + 1));
                [arr[i], arr[j]] = [arr[j], arr[i]];
            }
            return arr;
        },
    };
    // Geo: the legacy shell's reference distances that geo tests compare the server with. A
    // point is an array or an object; its first two values are x and y (longitude and latitude,
    // in degrees, for sphereDistance).
    function firstTwo(p) {
        const v = Object.keys(p).slice(0, 2).map((k) => p[k]);
        return [v[0], v[1]];
    }
    g.Geo = {
        distance(a, b) {
            const [ax, ay] = firstTwo(a);
            const [bx, by] = firstTwo(b);
            const dx = bx - ax, dy = by - ay;
            return Math.sqrt(dx * dx + dy * dy);
        },
        // The angle (radians) between the two points seen from the sphere's centre: the arc
        // cosine of the dot product of their unit vectors, clamped to [-1, 1].
        sphereDistance(a, b) {
            const rad = Math.PI / 180;
            const unit = (p) => {
                const [lng, lat] = firstTwo(p).map((x) => x * rad);
                return [Math.cos(lat) * Math.cos(lng), Math.cos(lat) * Math.sin(lng), Math.sin(lat)];
            };
            const u = unit(a), w = unit(b);
            const dot = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
            if (dot >= 1) return 0;
            if (dot <= -1) return Math.PI;
            return Math.acos(dot);
        },
    };
    g._srand = (s) => g.Random.srand(s);
    g._rand = () => g.Random.rand();

    Object.extend = function(dst, src, deep) {
        if (src === undefined || src === null) return dst;
        for (const k of Object.keys(src)) {
            const v = src[k];
            dst[k] = deep && v !== null && typeof v === "object" && !(v instanceof Date) && !v._bsontype
                ? Object.extend(Array.isArray(v) ? [] : {}, v, true) : v;
        }
        return dst;
    };
    Object.merge = (a, b, deep) => Object.extend(Object.extend({}, a, deep), b, deep);
    Object.keySet = (o) => Object.keys(o);
    Array.contains = (a, x) => a.some((y) => y === x || g.friendlyEqual(y, x));
    Array.unique = (a) => Array.from(new Set(a));
    Array.shuffle = (a) => g.Random.randShuffle(a.slice());
    Array.tojson = (a, indent, nolint) => g.tojson(a, indent, nolint);
    Array.sum = (a) => a.reduce((s, x) => s + x, 0);
    Array.avg = (a) => (a.length ? Array.sum(a) / a.length : undefined);
    Array.stdDev = (a) => {
        const m = Array.avg(a);
        return Math.sqrt(a.reduce((s, x) => s + (x - m) * (x - m), 0) / a.length);
    };
    if (!String.prototype.ltrim) String.prototype.ltrim = function() { return this.replace(/^\s+/, ""); };
    if (!String.prototype.rtrim) String.prototype.rtrim = function() { return this.replace(/\s+$/, ""); };
    if (!String.prototype.includes) String.prototype.includes = function(s) { return this.indexOf(s) >= 0; };
    Date.timeFunc = (f, n) => {
        const t0 = Date.now();
        for (let i = 0; i < (n || 1); i++) f();
        return Date.now() - t0;
    };

    // startParallelShell(code, port, noConnect): a second shell process running `code`;
    // returns a function that waits for it and returns its exit code.
    let nParallel = 0;
    g.startParallelShell = (code, port, noConnect) => {
        if (typeof code === "function") code = "(" + code.toString() + ")();";
        const id = process.pid + "_" + (++nParallel);
        const dir = fs.mkdtempSync(path.join(require("os").tmpdir(), "pshell_" + id + "_"));
        const script = path.join(dir, "code.js");
        const testData = Object.assign({}, g.TestData || {}, {inParallelShell: true});
        fs.writeFileSync(script, "globalThis.TestData = " + JSON.stringify(testData) + ";\n" + code);
        const status = path.join(dir, "status");
        const args = [path.join(__dirname, "shell.js"), "--host", opts.host, "--port",
                      String(port || opts.port), ...opts.passThrough, script];
        const cmd = [process.execPath, ...args].map((a) => "'" + a.replace(/'/g, "'\\''") + "'").join(" ");
        childProcess.spawn("/bin/sh", ["-c", cmd + "; echo $? > '" + status + "'"],
                           {stdio: ["ignore", "inherit", "inherit"], detached: false});
        return function join() {
            while (!fs.existsSync(status) || fs.readFileSync(status, "utf8").trim() === "") g.sleep(50);
            return Number(fs.readFileSync(status, "utf8").trim());
        };
    };

    // decompressBSONColumn(BinData 7) -> {"0": v0, "1": v1, ...} through the server's own
    // decoder (the decompress_bsoncolumn tool built beside mongod).
    g.decompressBSONColumn = (bin) => {
        const BSON = require("bson");
        if (!bin || bin._bsontype !== "Binary" || bin.sub_type !== 7) {
            throw new Error("decompressBSONColumn() takes one argument, the BSONColumn BinData element");
        }
        const tool = path.join(opts.toolsDir, "decompress_bsoncolumn");
        const r = childProcess.spawnSync(tool, [], {input: BSON.serialize({c: bin})});
        if (r.error) throw new Error("decompressBSONColumn: cannot run " + tool + ": " + r.error.message);
        if (r.status !== 0) throw new Error(String(r.stderr).trim());
        return BSON.deserialize(r.stdout, {promoteLongs: false, promoteBuffers: false});
    };

    // ErrorCodes from {codes: {name: n}, categories: {cat: [names]}} (generated from
    // error_codes.yml by resmoke.py, or taken from jstests/libs/error_codes.js).
    if (opts.errorCodesJson) {
        const table = JSON.parse(fs.readFileSync(opts.errorCodesJson, "utf8"));
        const names = {};
        for (const [n, c] of Object.entries(table.codes)) names[c] = n;
        const target = Object.assign(Object.create(null), table.codes);
        for (const [cat, members] of Object.entries(table.categories || {})) {
            const nums = new Set(members.map((n) => table.codes[n]));
            target["is" + cat] = (err) => {
                const c = (typeof err === "object" && err !== null) ? err.code
                        : (typeof err === "string" ? table.codes[err] : err);
                return nums.has(c);
            };
        }
        g.ErrorCodes = new Proxy(target, {
            get(obj, prop) {
                if (typeof prop !== "string" || prop in obj) return obj[prop];
                if (prop === "then" || prop === "toJSON" || prop === "inspect" || prop === "constructor" ||
                    prop.startsWith("_") || prop === "valueOf" || prop === "toString") {
                    return undefined;
                }
                throw new Error("Unknown Error Code: " + prop);
            },
        });
        g.ErrorCodeStrings = names;
    }
}

module.exports = {install};
