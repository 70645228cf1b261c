// The legacy `mongo` shell's connection and database API, synchronous, over SyncConnection:
// Mongo, DB (collections as properties: db.foo, db.system.buckets.foo), sessions.
"use strict";
const {SyncConnection} = require("./sync_connection.js");
const {toBsonValue} = require("./types.js");


function parseHost(h) {
    if (h === undefined || h === null || h === "") return {host: "127.0.0.1", port: 27017};
    let s = String(h).replace(/^mongodb:\/\//, "");
    s = s.split("/")[0].split(",")[0];
    const i = s.lastIndexOf(":");
    if (i < 0) return {host: s, port: 27017};
    return {host: s.slice(0, i), port: Number(s.slice(i + 1))};
}

class Mongo {
    constructor(host) {
        const {host: h, port} = parseHost(host);
        this.host = h + ":" + port;
        this._conn = new SyncConnection(h, port);
        this._readPref = null;
        this._writeConcern = undefined;
        this._session = null;
    }
    getDB(name) {
        return makeDB(this, String(name));
    }
    getDBs() {
        return this.adminCommand({listDatabases: 1});
    }
    getDBNames() {
        return this.getDBs().databases.map((d) => d.name);
    }
    runCommand(dbName, cmd, options) {
        if (typeof cmd === "string") cmd = {[cmd]: 1};
        let body = cmd;
        if (this._session && this._session._lsid && body.lsid === undefined) {
            body = Object.assign({}, body, {lsid: this._session._lsid});
        }
        return this._conn.runCommand(dbName, toBsonValue(body));
    }
    adminCommand(cmd) {
        return this.runCommand("admin", cmd);
    }
    getReadPrefMode() { return this._readPref ? this._readPref.mode : "primary"; }
    getReadPrefTagSet() { return this._readPref ? this._readPref.tags : undefined; }
    getReadPref() { return this._readPref; }
    setReadPref(mode, tags) { this._readPref = mode ? {mode, tags} : null; }
    setSecondaryOk() {}
    getWriteConcern() { return this._writeConcern; }
    setWriteConcern(wc) { this._writeConcern = wc; }
    unsetWriteConcern() { this._writeConcern = undefined; }
    getCollection(ns) {
        const i = ns.indexOf(".");
        return this.getDB(ns.slice(0, i)).getCollection(ns.slice(i + 1));
    }
    isMongos() {
        const r = this.adminCommand({hello: 1});
        return r.msg === "isdbgrid";
    }
    close() { this._conn.close(); }
    toString() { return "connection to " + this.host; }
    tojson() { return this.toString(); }
    startSession(opts) { return new DriverSession(this, opts || {}); }
    isCausalConsistency() { return false; }
    isRetryableWrites() { return false; }
    getClusterTime() { return undefined; }
    getMaxWireVersion() { return this.adminCommand({hello: 1}).maxWireVersion; }
    getMinWireVersion() { return this.adminCommand({hello: 1}).minWireVersion; }
    _getDefaultSession() { return this._session || new DriverSession(this, {}, true); }
}

class DriverSession {
    constructor(mongo, opts, implicit) {
        this._mongo = mongo;
        this._options = opts;
        this._implicit = !!implicit;
        const {UUID} = globalThis;
        this._lsid = {id: UUID()};
        this._txnNumber = 0;
        this._inTxn = false;
    }
    getSessionId() { return this._lsid; }
    getClient() { return this._mongo; }
    getOptions() {
        const o = this._options;
        return {isCausalConsistency: () => !!o.causalConsistency,
                shouldRetryWrites: () => !!o.retryWrites, getReadPreference: () => undefined};
    }
    getDatabase(name) {
        const s = this;
        const mongo = this._mongo;
        const proxy = Object.create(mongo);
        proxy.runCommand = function(dbName, cmd, options) {
            if (typeof cmd === "string") cmd = {[cmd]: 1};
            const body = Object.assign({}, cmd, {lsid: s._lsid});
            if (s._inTxn) {
                body.txnNumber = NumberLong(s._txnNumber);
                body.autocommit = false;
                if (s._txnFirst) {
                    body.startTransaction = true;
                    if (s._txnOptions && s._txnOptions.readConcern) body.readConcern = s._txnOptions.readConcern;
                    s._txnFirst = false;
                }
            } else if (s._options.retryWrites && isRetryableWriteCommand(body)) {
                body.txnNumber = NumberLong(++s._txnNumber);
            }
            return mongo._conn.runCommand(dbName, toBsonValue(body));
        };
        proxy.adminCommand = (cmd) => proxy.runCommand("admin", cmd);
        proxy.getDB = (n) => makeDB(proxy, String(n));
        return proxy.getDB(name);
    }
    startTransaction(opts) {
        this._txnNumber++;
        this._inTxn = true;
        this._txnFirst = true;
        this._txnOptions = opts || {};
    }
    _endTxn(cmdName) {
        const body = {[cmdName]: 1, lsid: this._lsid, txnNumber: NumberLong(this._txnNumber),
                      autocommit: false};
        this._inTxn = false;
        const r = this._mongo._conn.runCommand("admin", toBsonValue(body));
        if (!r.ok) throw makeCommandError(r);
        return r;
    }
    commitTransaction() { return this._endTxn("commitTransaction"); }
    commitTransaction_forTesting() { return this._endTxn("commitTransaction"); }
    abortTransaction() { return this._endTxn("abortTransaction"); }
    abortTransaction_forTesting() { return this._endTxn("abortTransaction"); }
    getTxnNumber_forTesting() { return this._txnNumber; }
    endSession() {
        try {
            this._mongo._conn.runCommand("admin", toBsonValue({endSessions: [this._lsid]}));
        } catch (e) {
        }
    }
    hasEnded() { return false; }
}

function isRetryableWriteCommand(cmd) {
    const k = Object.keys(cmd)[0];
    return ["insert", "update", "delete", "findAndModify", "findandmodify"].includes(k);
}

function makeCommandError(res) {
    const e = new Error("command failed: " + globalThis.tojson(res));
    e.name = "MongoServerError";
    e.code = res.code;
    e.codeName = res.codeName;
    e.errmsg = res.errmsg;
    e.errorLabels = res.errorLabels;
    e.reply = res;
    Object.assign(e, {ok: 0});
    return e;
}

// ---------------------------------------------------------------------------

class DB {
    constructor(mongo, name) {
        this._mongo = mongo;
        this._name = name;
    }
    getMongo() { return this._mongo; }
    getName() { return this._name; }
    toString() { return this._name; }
    tojson() { return this._name; }
    getSiblingDB(name) { return this._mongo.getDB(name); }
    getSisterDB(name) { return this.getSiblingDB(name); }
    getCollection(name) {
        if (typeof name !== "string" || name.length === 0) {
            throw new Error("collection constructor called with bad name: " + name);
        }
        return globalThis.__legacyShell.makeCollection(this._mongo, this._self || this, name,
                                                       this._name + "." + name);
    }
    runCommand(cmd, extra, queryOptions) {
        if (typeof cmd === "string") {
            const o = {[cmd]: 1};
            if (extra && typeof extra === "object") Object.assign(o, extra);
            cmd = o;
        }
        return this._mongo.runCommand(this._name, cmd, queryOptions);
    }
    _runCommandImpl(name, cmd, options) { return this._mongo.runCommand(name, cmd, options); }
    runReadCommand(cmd, extra, queryOptions) { return this.runCommand(cmd, extra, queryOptions); }
    adminCommand(cmd, extra) {
        if (typeof cmd === "string") {
            const o = {[cmd]: 1};
            if (extra && typeof extra === "object") Object.assign(o, extra);
            cmd = o;
        }
        return this._mongo.runCommand("admin", cmd);
    }
    _adminCommand(cmd, extra) { return this.adminCommand(cmd, extra); }
    commandHelp(name) { return this.runCommand({[name]: 1, help: true}); }
    createCollection(name, opts) {
        const cmd = Object.assign({create: name}, opts || {});
        return this.runCommand(cmd);
    }
    createView(name, viewOn, pipeline, opts) {
        const cmd = Object.assign({create: name, viewOn}, opts || {});
        cmd.pipeline = Array.isArray(pipeline) ? pipeline : (pipeline ? [pipeline] : []);
        return this.runCommand(cmd);
    }
    dropDatabase(wc) {
        const cmd = {dropDatabase: 1};
        if (wc) cmd.writeConcern = wc;
        return this.runCommand(cmd);
    }
    getCollectionInfos(filter, nameOnly, authorizedCollections) {
        const cmd = {listCollections: 1, filter: filter || {}};
        if (nameOnly) cmd.nameOnly = true;
        if (authorizedCollections) cmd.authorizedCollections = true;
        const res = this.runCommand(cmd);
        if (!res.ok) throw globalThis.__legacyShell.commandError(res, "listCollections failed");
        return new globalThis.DBCommandCursor(this, res).toArray().sort(
            (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    getCollectionNames() {
        return this.getCollectionInfos({}, true).map((c) => c.name);
    }
    aggregate(pipeline, opts) {
        opts = opts || {};
        const cmd = Object.assign({aggregate: 1, pipeline}, opts);
        if (cmd.explain) return this.runCommand(cmd);
        if (cmd.cursor === undefined) cmd.cursor = {};
        const res = this.runCommand(cmd);
        if (!res.ok) throw globalThis.__legacyShell.commandError(res, "aggregate failed");
        return new globalThis.DBCommandCursor(this, res, opts.cursor && opts.cursor.batchSize);
    }
    serverStatus(opts) { return this.adminCommand(Object.assign({serverStatus: 1}, opts || {})); }
    serverBuildInfo() { return this.adminCommand({buildinfo: 1}); }
    // The legacy shell's wrapper of buildInfo: the reply and questions about the build.
    getServerBuildInfo() {
        const info = this.serverBuildInfo();
        const flags = String(info.buildEnvironment && info.buildEnvironment.ccflags || "");
        const sanitize = (name) => flags.includes("-fsanitize=") &&
            flags.split(/\s+/).some((f) => f.startsWith("-fsanitize=") && f.split("=")[1].split(",").includes(name));
        return {
            rawData: () => info,
            getVersion: () => info.version,
            getBits: () => info.bits,
            isDebug: () => !!info.debug,
            isOptimizationsEnabled: () => /(^|\s)-O[1-3s]?(\s|$)/.test(flags),
            isAddressSanitizerActive: () => sanitize("address"),
            isLeakSanitizerActive: () => sanitize("leak") || sanitize("address"),
            isThreadSanitizerActive: () => sanitize("thread"),
            isUndefinedBehaviorSanitizerActive: () => sanitize("undefined"),
        };
    }
    serverBits() { return this.serverBuildInfo().bits; }
    version() { return this.serverBuildInfo().version; }
    hello() { return this.runCommand({hello: 1}); }
    isMaster() { return this.runCommand({isMaster: 1}); }
    stats(opts) {
        const cmd = {dbStats: 1};
        if (typeof opts === "number") cmd.scale = opts;
        else if (opts) Object.assign(cmd, opts);
        return this.runCommand(cmd);
    }
    getProfilingLevel() { return this.runCommand({profile: -1}).was; }
    getProfilingStatus() { return this.runCommand({profile: -1}); }
    setProfilingLevel(level, opts) {
        const cmd = {profile: level};
        if (typeof opts === "number") cmd.slowms = opts;
        else if (opts) Object.assign(cmd, opts);
        return this.runCommand(cmd);
    }
    currentOp(arg) {
        let cmd = {currentOp: 1};
        if (arg === true) cmd.$all = true;
        else if (arg && typeof arg === "object") Object.assign(cmd, arg);
        return this.adminCommand(cmd);
    }
    currentOP(arg) { return this.currentOp(arg); }
    killOp(op) { return this.adminCommand({killOp: 1, op}); }
    getLogComponents() { return this.adminCommand({getParameter: 1, logComponentVerbosity: 1}).logComponentVerbosity; }
    setLogLevel(level, component) {
        let v = {verbosity: level};
        if (component) {
            v = {};
            let cur = v;
            const parts = component.split(".");
            parts.forEach((p, i) => {
                cur[p] = i === parts.length - 1 ? {verbosity: level} : {};
                cur = cur[p];
            });
        }
        return this.adminCommand({setParameter: 1, logComponentVerbosity: v});
    }
    getSession() { return this._mongo._getDefaultSession(); }
    getWriteConcern() { return this._mongo.getWriteConcern(); }
    setWriteConcern(wc) { this._mongo.setWriteConcern(wc); }
    unsetWriteConcern() { this._mongo.unsetWriteConcern(); }
    getReadConcern() { return undefined; }
    logout() { return this.runCommand({logout: 1}); }
    auth(user, pwd) {
        throw new Error("db.auth is not supported by this shell");
    }
    createUser(user, wc) {
        const cmd = Object.assign({createUser: user.user}, user);
        delete cmd.user;
        if (wc) cmd.writeConcern = wc;
        const r = this.runCommand(cmd);
        if (!r.ok) throw globalThis.__legacyShell.commandError(r, "couldn't add user");
    }
    dropUser(name) { return this.runCommand({dropUser: name}).ok === 1; }
    getUsers(args) {
        const r = this.runCommand(Object.assign({usersInfo: 1}, args || {}));
        if (!r.ok) throw globalThis.__legacyShell.commandError(r, "usersInfo failed");
        return r.users;
    }
    printCollectionStats() {}
    fsyncLock() { return this.adminCommand({fsync: 1, lock: true}); }
    fsyncUnlock() { return this.adminCommand({fsyncUnlock: 1}); }
    getLastErrorObj() { return {ok: 1, err: null}; }
    watch() { throw new Error("change streams are not supported by this shell"); }
}

const kNotCollections = new Set(["then", "toJSON", "constructor", "inspect", "asymmetricMatch",
                                 "$$typeof", "nodeType", "tojson", "_self", "__proto__"]);

function makeDB(mongo, name) {
    // The legacy shell refuses only the empty name client-side; the server judges the rest.
    if (name.length === 0) throw new Error("[] is not a valid database name");
    const target = new DB(mongo, name);
    const proxy = new Proxy(target, {
        get(t, prop, receiver) {
            if (typeof prop !== "string" || prop in t || kNotCollections.has(prop)) {
                return Reflect.get(t, prop, receiver);
            }
            return t.getCollection(prop);
        },
    });
    target._self = proxy;
    return proxy;
}

module.exports = {Mongo, DB, DriverSession, makeDB, makeCommandError, parseHost};
