/**
 * Upstream-style assertion API for jstests running under mongosh 2.x.
 *
 * mongosh ships Node's `assert` module as a global and has no `ErrorCodes`,
 * `tojson`, `jsTestLog`, ... This file replaces `assert` with the API that
 * MongoDB jstests expect (written for this project, not copied from upstream):
 *
 *   assert(cond, msg), assert.eq/neq/lt/lte/gt/gte/between, assert.docEq,
 *   assert.sameMembers, assert.contains, assert.doesNotContain, assert.includes, assert.hasFields,
 *   assert.commandWorked, assert.commandFailed, assert.commandFailedWithCode,
 *   assert.commandWorkedIgnoringWriteErrors, assert.writeOK, assert.writeError,
 *   assert.writeErrorWithCode, assert.throws, assert.throwsWithCode,
 *   assert.doesNotThrow, assert.soon, assert.isnull, assert.close,
 *   jsTestLog, jsTest.log/name/options, tojson, tojsononeline, printjsononeline,
 *   friendlyEqual, bsonWoCompare, bsonUnorderedFieldsCompare, documentEq.
 *
 * Result objects accepted by the command/write assertions:
 *   - raw command replies ({ok: 1|0, code, writeErrors, writeConcernError, ...});
 *   - mongosh write results (InsertOneResult, UpdateResult, BulkWriteResult, ...);
 *   - thrown errors (MongoServerError, MongoBulkWriteError, MongoWriteConcernError);
 *   - a function, which is called; what it returns or throws is checked.
 */
(function() {
"use strict";

// ---------------------------------------------------------------------------
// Value classification and printing.

function bsonType(x) {
    if (x === null) return "null";
    if (x === undefined) return "undefined";
    if (typeof x === "number") return "number";
    if (typeof x === "bigint") return "bigint";
    if (typeof x === "string") return "string";
    if (typeof x === "boolean") return "boolean";
    if (typeof x === "function") return "function";
    if (x instanceof Date) return "date";
    if (x instanceof RegExp) return "regex";
    if (Array.isArray(x)) return "array";
    if (typeof x._bsontype === "string") {
        const t = x._bsontype;
        if (t === "Binary" && x.sub_type === 4) return "UUID";
        return t;
    }
    return "object";
}

function isNumberLike(x) {
    const t = bsonType(x);
    return t === "number" || t === "Int32" || t === "Double" || t === "Long" || t === "bigint" ||
        t === "Decimal128";
}

function toNumber(x) {
    const t = bsonType(x);
    if (t === "number") return x;
    if (t === "Int32" || t === "Double") return x.valueOf();
    if (t === "Long") return x.toNumber();
    if (t === "bigint") return Number(x);
    if (t === "Decimal128") return parseFloat(x.toString());
    return NaN;
}

function quoteString(s) {
    return JSON.stringify(s);
}

function binaryToBase64(b) {
    try {
        return b.toString("base64");
    } catch (e) {
        return Buffer.from(b.buffer).toString("base64");
    }
}

function formatKey(k) {
    return quoteString(k);
}

/**
 * Shell-style JSON: { "a" : 1, "b" : ObjectId("...") }. `indent` is the
 * current indentation (string); `nolint` prints on one line.
 */
function tojson(x, indent, nolint, depth) {
    if (indent === undefined) indent = "";
    depth = depth || 0;
    if (depth > 100) return "...";
    const t = bsonType(x);
    if (typeof x === "object" && x !== null && (x instanceof Date || x._bsontype !== undefined) &&
        typeof x.tojson === "function") {
        return x.tojson(indent, nolint);  // the legacy shell's own formats (buildscripts/legacy_shell)
    }
    switch (t) {
        case "null": return "null";
        case "undefined": return "undefined";
        case "number":
            if (Object.is(x, -0)) return "-0";
            return String(x);
        case "bigint": return "NumberLong(\"" + x.toString(10) + "\")";
        case "string": return quoteString(x);
        case "boolean": return String(x);
        case "function":
            // MinKey and MaxKey used without a call are the values, as in the legacy shell.
            return typeof x.tojson === "function" ? x.tojson() : x.toString();
        case "date": {
            const v = x.getTime();
            return isNaN(v) ? "new Date(NaN)" : "ISODate(\"" + x.toISOString() + "\")";
        }
        case "regex": return x.toString();
        case "Int32": return "NumberInt(" + x.valueOf() + ")";
        case "Double": return String(x.valueOf());
        case "Long": return "NumberLong(" + x.toString(10) + ")";
        case "Decimal128": return "NumberDecimal(\"" + x.toString() + "\")";
        case "ObjectId":
        case "ObjectID": return "ObjectId(\"" + x.toHexString() + "\")";
        case "Timestamp": {
            const tt = typeof x.getHighBits === "function" ? x.getHighBits() >>> 0 : x.t;
            const ii = typeof x.getLowBits === "function" ? x.getLowBits() >>> 0 : x.i;
            return "Timestamp(" + tt + ", " + ii + ")";
        }
        case "UUID": {
            const hex = Buffer.from(x.buffer).toString("hex");
            return "UUID(\"" + hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) +
                "-" + hex.slice(16, 20) + "-" + hex.slice(20) + "\")";
        }
        case "Binary": return "BinData(" + x.sub_type + ",\"" + binaryToBase64(x) + "\")";
        case "MinKey": return "{ \"$minKey\" : 1 }";
        case "MaxKey": return "{ \"$maxKey\" : 1 }";
        case "BSONRegExp": return "/" + x.pattern + "/" + x.options;
        case "BSONSymbol": return quoteString(x.toString());
        case "Code":
            return x.scope ? "{ \"$code\" : " + quoteString(String(x.code)) + ", \"$scope\" : " +
                    tojson(x.scope, indent, true, depth + 1) + " }"
                           : "{ \"$code\" : " + quoteString(String(x.code)) + " }";
        case "DBRef": return "DBRef(" + quoteString(x.collection) + ", " +
            tojson(x.oid, indent, true, depth + 1) + (x.db ? ", " + quoteString(x.db) : "") + ")";
        case "array": {
            if (x.length === 0) return "[ ]";
            const inner = indent + "\t";
            const parts = x.map((v) => tojson(v, inner, nolint, depth + 1));
            if (nolint) return "[ " + parts.join(", ") + " ]";
            return "[\n" + parts.map((p) => inner + p).join(",\n") + "\n" + indent + "]";
        }
        default: {
            if (t !== "object") {
                // Unknown BSON wrapper: fall back to EJSON-ish output.
                try {
                    return t + "(" + JSON.stringify(x) + ")";
                } catch (e) {
                    return String(x);
                }
            }
            if (x instanceof Error) {
                return "Error(" + quoteString(String(x.message)) +
                    (x.code !== undefined ? ", code " + x.code : "") + ")";
            }
            if (typeof x.tojson === "function" && x.tojson !== tojson) {
                return x.tojson(indent, nolint);
            }
            const keys = Object.keys(x);
            if (keys.length === 0) return "{ }";
            const inner = indent + "\t";
            const parts = keys.map((k) => formatKey(k) + " : " + tojson(x[k], inner, nolint, depth + 1));
            if (nolint) return "{ " + parts.join(", ") + " }";
            return "{\n" + parts.map((p) => inner + p).join(",\n") + "\n" + indent + "}";
        }
    }
}

function tojsononeline(x) {
    return tojson(x, " ", true);
}

// ---------------------------------------------------------------------------
// Comparison.

// Canonical BSON type order (lower sorts first), as in the server.
function canonicalRank(x) {
    const t = bsonType(x);
    switch (t) {
        case "MinKey": return 1;
        case "undefined":
        case "null": return 5;
        case "number": case "Int32": case "Double": case "Long": case "Decimal128": case "bigint":
            return 10;
        case "string": case "BSONSymbol": return 15;
        case "object": return 20;
        case "array": return 25;
        case "Binary": case "UUID": return 30;
        case "ObjectId": case "ObjectID": return 35;
        case "boolean": return 40;
        case "date": return 45;
        case "Timestamp": return 47;
        case "regex": case "BSONRegExp": return 50;
        case "DBRef": return 55;
        case "Code": return 60;
        case "MaxKey": return 127;
        default: return 20;
    }
}

function cmp3(a, b) {
    return a < b ? -1 : (a > b ? 1 : 0);
}

function compareNumbers(a, b) {
    const ta = bsonType(a), tb = bsonType(b);
    if ((ta === "Long" || ta === "bigint") && (tb === "Long" || tb === "bigint")) {
        const ba = BigInt(a.toString(10)), bb = BigInt(b.toString(10));
        return ba < bb ? -1 : (ba > bb ? 1 : 0);
    }
    const na = toNumber(a), nb = toNumber(b);
    if (isNaN(na) || isNaN(nb)) {
        // NaN sorts below all other numbers and equals itself.
        if (isNaN(na) && isNaN(nb)) return 0;
        return isNaN(na) ? -1 : 1;
    }
    return cmp3(na, nb);
}

function compareBinary(a, b) {
    const ba = Buffer.from(a.buffer), bb = Buffer.from(b.buffer);
    if (ba.length !== bb.length) return cmp3(ba.length, bb.length);
    if (a.sub_type !== b.sub_type) return cmp3(a.sub_type, b.sub_type);
    return Buffer.compare(ba, bb);
}

function timestampParts(x) {
    const tt = typeof x.getHighBits === "function" ? x.getHighBits() >>> 0 : x.t;
    const ii = typeof x.getLowBits === "function" ? x.getLowBits() >>> 0 : x.i;
    return [tt, ii];
}

/**
 * Compares two values the way the server orders BSON values. Objects compare
 * field by field in order (names, then values) unless `unordered` is set, in
 * which case their fields are sorted by name first.
 */
function compareValues(a, b, unordered) {
    const ra = canonicalRank(a), rb = canonicalRank(b);
    if (ra !== rb) return cmp3(ra, rb);
    const t = bsonType(a);
    switch (ra) {
        case 1: case 5: case 127: return 0;
        case 10: return compareNumbers(a, b);
        case 15: return cmp3(String(a), String(b));
        case 20: return compareObjects(a, b, unordered);
        case 25: {
            const n = Math.min(a.length, b.length);
            for (let i = 0; i < n; i++) {
                const c = compareValues(a[i], b[i], unordered);
                if (c !== 0) return c;
            }
            return cmp3(a.length, b.length);
        }
        case 30: return compareBinary(a, b);
        case 35: return cmp3(a.toHexString(), b.toHexString());
        case 40: return cmp3(a ? 1 : 0, b ? 1 : 0);
        case 45: return cmp3(a.getTime(), b.getTime());
        case 47: {
            const [at, ai] = timestampParts(a), [bt, bi] = timestampParts(b);
            return at !== bt ? cmp3(at, bt) : cmp3(ai, bi);
        }
        case 50: {
            const pa = t === "regex" ? [a.source, a.flags] : [a.pattern, a.options];
            const pb = bsonType(b) === "regex" ? [b.source, b.flags] : [b.pattern, b.options];
            return pa[0] !== pb[0] ? cmp3(pa[0], pb[0]) : cmp3(pa[1], pb[1]);
        }
        default: return cmp3(tojson(a), tojson(b));
    }
}

function compareObjects(a, b, unordered) {
    let ka = Object.keys(a), kb = Object.keys(b);
    if (unordered) {
        ka = ka.slice().sort();
        kb = kb.slice().sort();
    }
    const n = Math.min(ka.length, kb.length);
    for (let i = 0; i < n; i++) {
        const c1 = compareValues(a[ka[i]], b[kb[i]], unordered);
        const cn = cmp3(ka[i], kb[i]);
        // Upstream compares the type, then the name, then the value.
        const r1 = canonicalRank(a[ka[i]]), r2 = canonicalRank(b[kb[i]]);
        if (r1 !== r2) return cmp3(r1, r2);
        if (cn !== 0) return cn;
        if (c1 !== 0) return c1;
    }
    return cmp3(ka.length, kb.length);
}

function bsonWoCompare(a, b) {
    return compareValues(a, b, false);
}

function bsonUnorderedFieldsCompare(a, b) {
    return compareValues(a, b, true);
}

/** Deep equality ignoring field order in (nested) objects; arrays are ordered. */
function documentEq(a, b) {
    return compareValues(a, b, true) === 0;
}

/**
 * Loose equality used by assert.eq: ==, numeric value, or identical tojson; as in the legacy
 * shell, NumberInt(n) inside documents prints as n for this comparison (an int32 a server
 * returns equals the NumberInt a test wrote).
 */
function friendlyEqual(a, b) {
    if (a === b) return true;
    if (isNumberLike(a) && isNumberLike(b)) return compareNumbers(a, b) === 0;
    const ta = typeof a, tb = typeof b;
    // The legacy shell's assert.eq starts with `a == b`, so a primitive equals an object that
    // coerces to it (0 == [], "1" == [1]); two objects are compared below, not by identity.
    if (ta !== "object" || a === null || tb !== "object" || b === null) {
        if (a == b) return true;  // eslint-disable-line eqeqeq
    }
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    try {
        const ja = tojson(a, "", true), jb = tojson(b, "", true);
        if (ja === jb) return true;
        const plainInts = (s) => s.replace(/NumberInt\((-?\d+)\)/g, "$1");
        return plainInts(ja) === plainInts(jb);
    } catch (e) {
        return false;
    }
}

// ---------------------------------------------------------------------------
// Core assert.

class AssertionError extends Error {}
AssertionError.prototype.name = "AssertionError";

function formatMsg(msg) {
    if (typeof msg === "function") {
        try {
            return msg();
        } catch (e) {
            return "(message function threw: " + e + ")";
        }
    }
    if (msg === undefined || msg === null) return "";
    if (typeof msg === "object") return tojson(msg);
    return String(msg);
}

// `res`: the failed reply, whose codes the thrown error carries (code, codeName, writeErrors,
// writeConcernError), so that assert.commandFailedWithCode(assert.throws(...), code) reads them.
function doassert(msg, extraMsg, res) {
    let text = formatMsg(msg);
    const extra = formatMsg(extraMsg);
    if (extra) text = extra + " : " + text;
    // mongosh rewrites test code, so line numbers in stacks do not match the
    // source; the names of the test's functions on the stack still do, so the
    // message names them (innermost first). mongosh prints the uncaught message.
    const where = testFunctionsOnStack();
    if (where) text += "\n    in: " + where;
    const err = new AssertionError(text);
    if (res !== null && typeof res === "object") {
        for (const k of ["code", "codeName", "errmsg", "writeErrors", "writeConcernError", "errorLabels"]) {
            if (res[k] !== undefined && err[k] === undefined) err[k] = res[k];
        }
        if (err.writeErrors === undefined && typeof res.getWriteErrors === "function") {
            const wes = res.getWriteErrors();
            if (wes && wes.length) err.writeErrors = wes;
        }
    }
    throw err;
}

function testFunctionsOnStack() {
    const saved = Error.stackTraceLimit;
    Error.stackTraceLimit = 60;
    const stack = String(new Error().stack || "");
    Error.stackTraceLimit = saved;
    const names = [];
    let file = null;
    for (const line of stack.split("\n")) {
        const m = /^\s*at (?:async )?(\S+) \((.*):\d+:\d+\)$/.exec(line);
        if (!m || /jstests\/libs\//.test(m[2]) || /node_modules|^node:|^internal\//.test(m[2])) continue;
        if (/^(Function|Object|Array)\.|^_srv|^Proxy/.test(m[1])) continue;
        names.push(m[1]);
        file = file || m[2];
    }
    if (!names.length) return "";
    return names.join(" <- ") + (file ? " (" + file.replace(/^.*\/(jstests\/)/, "$1") + ")" : "");
}

function assert(cond, msg) {
    if (arguments.length > 2) {
        doassert("Too many parameters to assert().");
    }
    if (typeof msg === "boolean" || typeof msg === "number") {
        doassert("assert() message must be a string or function, got " + typeof msg);
    }
    if (!cond) {
        doassert("assert failed", msg);
    }
}

assert.AssertionError = AssertionError;

assert.eq = function(a, b, msg) {
    if (!friendlyEqual(a, b)) {
        doassert("[" + tojson(a) + "] != [" + tojson(b) + "] are not equal", msg);
    }
};

assert.neq = function(a, b, msg) {
    if (friendlyEqual(a, b)) {
        doassert("[" + tojson(a) + "] == [" + tojson(b) + "] are equal", msg);
    }
};

function orderAssert(name, test, op) {
    return function(a, b, msg) {
        const c = (isNumberLike(a) && isNumberLike(b)) ? compareNumbers(a, b) : compareValues(a, b);
        if (!test(c)) {
            doassert(tojson(a) + " is not " + op + " " + tojson(b), msg);
        }
    };
}
assert.lt = orderAssert("lt", (c) => c < 0, "less than");
assert.lte = orderAssert("lte", (c) => c <= 0, "less than or eq");
assert.gt = orderAssert("gt", (c) => c > 0, "greater than");
assert.gte = orderAssert("gte", (c) => c >= 0, "greater than or eq");

assert.between = function(lo, x, hi, msg, inclusive) {
    if (inclusive === undefined) inclusive = true;
    const ok = inclusive ? (compareValues(lo, x) <= 0 && compareValues(x, hi) <= 0)
                         : (compareValues(lo, x) < 0 && compareValues(x, hi) < 0);
    if (!ok) {
        doassert(tojson(x) + " is not between " + tojson(lo) + " and " + tojson(hi), msg);
    }
};
assert.betweenIn = (lo, x, hi, msg) => assert.between(lo, x, hi, msg, true);
assert.betweenEx = (lo, x, hi, msg) => assert.between(lo, x, hi, msg, false);

assert.docEq = function(expected, actual, msg) {
    if (!documentEq(expected, actual)) {
        doassert("expected document " + tojson(expected) + " and actual document " + tojson(actual) +
                     " are not equal",
                 msg);
    }
};

assert.sameMembers = function(a, b, msg, compareFn) {
    compareFn = compareFn || documentEq;
    if (!Array.isArray(a) || !Array.isArray(b)) {
        doassert("sameMembers expects two arrays, got " + tojson(a) + " and " + tojson(b), msg);
    }
    const fail = () => doassert(tojson(a) + " and " + tojson(b) + " do not have the same members", msg);
    if (a.length !== b.length) fail();
    const used = new Array(b.length).fill(false);
    for (const x of a) {
        let found = false;
        for (let i = 0; i < b.length; i++) {
            if (!used[i] && compareFn(x, b[i])) {
                used[i] = true;
                found = true;
                break;
            }
        }
        if (!found) fail();
    }
};

assert.contains = function(o, arr, msg) {
    if (!arr || typeof arr.some !== "function") {
        doassert("assert.contains expects an array as second argument, got " + tojson(arr), msg);
    }
    if (!arr.some((x) => friendlyEqual(x, o))) {
        doassert(tojson(o) + " was not in " + tojson(arr), msg);
    }
};

assert.doesNotContain = function(o, arr, msg) {
    if (!arr || typeof arr.some !== "function") {
        doassert("assert.doesNotContain expects an array as second argument, got " + tojson(arr),
                 msg);
    }
    if (arr.some((x) => friendlyEqual(x, o))) {
        doassert(tojson(o) + " is in " + tojson(arr), msg);
    }
};

assert.includes = function(haystack, needle, msg) {
    if (!haystack || typeof haystack.includes !== "function" || !haystack.includes(needle)) {
        doassert(tojson(haystack) + " does not include " + tojson(needle), msg);
    }
};

assert.hasFields = function(obj, fields, msg) {
    const missing = fields.filter((f) => obj === null || typeof obj !== "object" || !(f in obj));
    if (missing.length > 0) {
        doassert("missing fields " + tojson(missing) + " in " + tojson(obj), msg);
    }
};

assert.isnull = function(x, msg) {
    if (x !== null && x !== undefined) {
        doassert("supposed to be null (" + formatMsg(msg) + ") was: " + tojson(x));
    }
};

assert.close = function(a, b, msg, places) {
    if (places === undefined) places = 4;
    const na = toNumber(a), nb = toNumber(b);
    const diff = Math.abs(na - nb);
    const scale = Math.max(1, Math.abs(na), Math.abs(nb));
    if (!(diff <= Math.pow(10, -places) * scale)) {
        doassert(tojson(a) + " is not equal to " + tojson(b) + " within " + places +
                     " places, diff: " + diff,
                 msg);
    }
};

assert.throws = function(func, params, msg) {
    if (typeof func !== "function") doassert("assert.throws: first argument must be a function");
    if (params !== undefined && !Array.isArray(params)) {
        // Allow assert.throws(fn, "message").
        msg = params;
        params = [];
    }
    try {
        const r = func.apply(null, params || []);  // eslint-disable-line no-unused-vars
    } catch (e) {
        return e;
    }
    doassert("did not throw exception", msg);
};

assert.throwsWithCode = function(func, code, params, msg) {
    if (params !== undefined && !Array.isArray(params)) {
        msg = params;
        params = [];
    }
    const e = assert.throws(func, params, msg);
    const codes = Array.isArray(code) ? code : [code];
    codes.forEach(checkCodeArg);
    const found = errorCodesOf(e);
    if (!found.some((c) => codes.includes(c))) {
        doassert("[" + tojson(found) + "] != [" + tojson(codes) + "] are not equal; exception: " +
                     describeError(e),
                 msg);
    }
    return e;
};

assert.doesNotThrow = function(func, params, msg) {
    if (params !== undefined && !Array.isArray(params)) {
        msg = params;
        params = [];
    }
    try {
        const r = func.apply(null, params || []);
        return r;
    } catch (e) {
        doassert("threw unexpected exception: " + describeError(e), msg);
    }
};
assert.doesNotThrow.automsg = (func, params) => assert.doesNotThrow(func, params, func.toString());

assert.soon = function(func, msg, timeoutMS, intervalMS) {
    if (timeoutMS === undefined) timeoutMS = 10 * 60 * 1000;
    if (intervalMS === undefined) intervalMS = 200;
    const start = Date.now();
    for (;;) {
        let ok;
        if (typeof func === "string") {
            ok = eval(func);  // eslint-disable-line no-eval
        } else {
            ok = func();
        }
        if (ok) return;
        if (Date.now() - start > timeoutMS) {
            doassert("assert.soon failed (timeout " + timeoutMS + "ms): " +
                         (typeof func === "string" ? func : func.toString()),
                     msg);
        }
        sleep(intervalMS);
    }
};

assert.retry = function(func, msg, numAttempts, intervalMS) {
    for (let i = 0; i < numAttempts; i++) {
        if (func()) return;
        sleep(intervalMS || 0);
    }
    doassert("assert.retry failed after " + numAttempts + " attempts", msg);
};

// ---------------------------------------------------------------------------
// Command and write results.

function checkCodeArg(c) {
    if (typeof c !== "number") {
        doassert("expected error code must be a number, got " + tojson(c) +
                 " (misspelled ErrorCodes name?)");
    }
}

function isErrorObject(x) {
    return x instanceof Error ||
        (x !== null && typeof x === "object" && typeof x.name === "string" &&
         /Error$/.test(x.name) && typeof x.message === "string");
}

function describeError(e) {
    if (e === null || e === undefined) return String(e);
    let s = (e.name || "Error") + ": " + e.message;
    if (e.code !== undefined) s += " (code " + e.code + (e.codeName ? " " + e.codeName : "") + ")";
    if (Array.isArray(e.writeErrors) && e.writeErrors.length) {
        s += " writeErrors: " + tojsononeline(e.writeErrors.map(plainWriteError));
    }
    return s;
}

function plainWriteError(we) {
    const o = {};
    for (const k of ["index", "code", "codeName", "errmsg"]) {
        if (we && we[k] !== undefined) o[k] = we[k];
    }
    if (we && we.err && o.code === undefined) return plainWriteError(we.err);
    return o;
}

function writeErrorsOf(res) {
    if (res === null || typeof res !== "object") return [];
    if (Array.isArray(res.writeErrors)) return res.writeErrors;
    if (res.writeErrors && typeof res.writeErrors === "object") {
        // Node driver BulkWriteResult keeps a {index: WriteError} map.
        return Object.values(res.writeErrors);
    }
    if (typeof res.getWriteErrors === "function") {
        try {
            return res.getWriteErrors();
        } catch (e) {
            return [];
        }
    }
    return [];
}

function writeConcernErrorOf(res) {
    if (res === null || typeof res !== "object") return null;
    if (res.writeConcernError) return res.writeConcernError;
    if (Array.isArray(res.writeConcernErrors) && res.writeConcernErrors.length) {
        return res.writeConcernErrors[0];
    }
    if (res.errorResponse && res.errorResponse.writeConcernError) {
        return res.errorResponse.writeConcernError;
    }
    return null;
}

/** Every error code reported by a reply, result or error object. */
function errorCodesOf(res) {
    const codes = [];
    if (res === null || res === undefined) return codes;
    if (typeof res !== "object") return codes;
    const errorLike = isErrorObject(res);
    if ((res.ok === 0 || res.ok === false || errorLike) && typeof res.code === "number") {
        codes.push(res.code);
    }
    for (const we of writeErrorsOf(res)) {
        const c = we.code !== undefined ? we.code : (we.err ? we.err.code : undefined);
        if (typeof c === "number") codes.push(c);
    }
    const wce = writeConcernErrorOf(res);
    if (wce && typeof wce.code === "number") codes.push(wce.code);
    if (res.errorResponse && typeof res.errorResponse.code === "number") {
        codes.push(res.errorResponse.code);
    }
    return Array.from(new Set(codes));
}

/** Calls `res` when it is a function; a thrown error becomes the result. */
function evaluate(res) {
    if (typeof res !== "function") return res;
    // Assign before returning: mongosh only awaits implicitly-async calls
    // inside try/catch when the result is used in an expression.
    try {
        const r = res();
        return r;
    } catch (e) {
        return e;
    }
}

function isFailure(res) {
    if (res === null || res === undefined) return false;
    if (isErrorObject(res)) return true;
    if (typeof res !== "object") return false;
    if (res.ok === 0 || res.ok === false) return true;
    if (writeErrorsOf(res).length > 0) return true;
    if (writeConcernErrorOf(res)) return true;
    return false;
}

function resultToString(res) {
    if (isErrorObject(res)) return describeError(res);
    return tojson(res);
}

function checkIsResult(res, what) {
    if (res === null || res === undefined || typeof res !== "object") {
        doassert(what + ": expected a command reply, write result or error object, got " + tojson(res));
    }
}

assert.commandWorked = function(res, msg) {
    res = evaluate(res);
    checkIsResult(res, "commandWorked");
    if (isFailure(res)) {
        doassert("command failed: " + resultToString(res), msg, res);
    }
    return res;
};

assert.commandWorkedIgnoringWriteErrors = function(res, msg) {
    res = evaluate(res);
    checkIsResult(res, "commandWorkedIgnoringWriteErrors");
    if (isErrorObject(res) && writeErrorsOf(res).length === 0) {
        doassert("command failed: " + resultToString(res), msg, res);
    }
    if (!isErrorObject(res) && (res.ok === 0 || res.ok === false)) {
        doassert("command failed: " + resultToString(res), msg, res);
    }
    return res;
};

assert.commandWorkedIgnoringWriteConcernErrors = function(res, msg) {
    res = evaluate(res);
    checkIsResult(res, "commandWorkedIgnoringWriteConcernErrors");
    if (res.ok === 0 || (isErrorObject(res) && !writeConcernErrorOf(res)) ||
        writeErrorsOf(res).length > 0) {
        doassert("command failed: " + resultToString(res), msg, res);
    }
    return res;
};

assert.commandFailed = function(res, msg) {
    res = evaluate(res);
    checkIsResult(res, "commandFailed");
    if (!isFailure(res)) {
        doassert("command worked when it should have failed: " + resultToString(res), msg);
    }
    return res;
};

assert.commandFailedWithCode = function(res, expectedCode, msg) {
    res = evaluate(res);
    checkIsResult(res, "commandFailedWithCode");
    const codes = Array.isArray(expectedCode) ? expectedCode : [expectedCode];
    codes.forEach(checkCodeArg);
    if (!isFailure(res)) {
        doassert("command worked when it should have failed with code " + tojson(expectedCode) + ": " +
                     resultToString(res),
                 msg);
    }
    const found = errorCodesOf(res);
    if (!found.some((c) => codes.includes(c))) {
        doassert("command did not fail with any of " + tojson(codes) + "; got codes " + tojson(found) +
                     ": " + resultToString(res),
                 msg);
    }
    return res;
};

assert.writeOK = function(res, msg) {
    res = evaluate(res);
    checkIsResult(res, "writeOK");
    if (isFailure(res)) {
        doassert("write failed: " + resultToString(res), msg, res);
    }
    return res;
};

assert.writeError = function(res, msg) {
    res = evaluate(res);
    checkIsResult(res, "writeError");
    if (!isErrorObject(res) && writeErrorsOf(res).length === 0 && !writeConcernErrorOf(res)) {
        doassert("no write error: " + resultToString(res), msg);
    }
    return res;
};

assert.writeErrorWithCode = function(res, expectedCode, msg) {
    res = assert.writeError(res, msg);
    const codes = Array.isArray(expectedCode) ? expectedCode : [expectedCode];
    codes.forEach(checkCodeArg);
    const found = errorCodesOf(res);
    if (!found.some((c) => codes.includes(c))) {
        doassert("found code(s) " + tojson(found) + " does not match any of " + tojson(codes) + ": " +
                     resultToString(res),
                 msg);
    }
    return res;
};

// ---------------------------------------------------------------------------
// Logging helpers and globals.

function jsTestName() {
    if (typeof TestData === "object" && TestData && TestData.testName) return TestData.testName;
    return "__unknown_name__";
}

function jsTestLog(msg) {
    if (typeof msg === "object") msg = tojson(msg);
    print("\n\n----\n" + msg + "\n----\n");
}

/**
 * Runs scenario functions in order. A failure (assertion or server error) is
 * rethrown with "in scenario: <function name>" appended to its message, since
 * mongosh's rewritten code loses function names in stacks after the first
 * server round trip.
 */
function runScenarios(...fns) {
    for (const fn of fns) {
        if (typeof fn !== "function") {
            throw new Error("runScenarios: not a function: " + tojson(fn));
        }
        try {
            const r = fn();  // eslint-disable-line no-unused-vars
        } catch (e) {
            const name = fn.name || "(anonymous)";
            if (e && typeof e === "object" && typeof e.message === "string" &&
                !e.message.includes("in scenario: ")) {
                e.message += "\n    in scenario: " + name;
                if (typeof e.stack === "string") {
                    e.stack = e.stack.replace(/^[^\n]*/, (first) => first + " (in scenario: " + name + ")");
                }
            }
            throw e;
        }
    }
}

const jsTest = {
    log: jsTestLog,
    name: jsTestName,
    options: () => (typeof TestData === "object" && TestData) ? TestData : {},
};

globalThis.assert = assert;
globalThis.doassert = doassert;
globalThis.tojson = tojson;
globalThis.tojsononeline = tojsononeline;
globalThis.printjsononeline = (x) => print(tojsononeline(x));
globalThis.friendlyEqual = friendlyEqual;
globalThis.bsonWoCompare = bsonWoCompare;
globalThis.bsonUnorderedFieldsCompare = bsonUnorderedFieldsCompare;
globalThis.documentEq = documentEq;
globalThis.jsTestLog = jsTestLog;
globalThis.jsTestName = jsTestName;
globalThis.jsTest = jsTest;
globalThis.runScenarios = runScenarios;
})();
