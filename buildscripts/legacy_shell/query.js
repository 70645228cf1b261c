// The legacy shell's cursors: DBQuery (coll.find(...)), DBCommandCursor (a cursor reply),
// and the explain helpers (coll.explain(), cursor.explain()).
"use strict";

function commandError(res, what) {
    const e = new Error((what ? what + ": " : "") + globalThis.tojson(res));
    e.name = "MongoServerError";
    e.code = res.code;
    e.codeName = res.codeName;
    e.errmsg = res.errmsg;
    e.ok = 0;
    if (res.errorLabels) e.errorLabels = res.errorLabels;
    if (res.writeErrors) e.writeErrors = res.writeErrors;
    e.reply = res;
    return e;
}

class DBCommandCursor {
    constructor(db, res, batchSize, maxAwaitTimeMS) {
        if (res.ok !== 1 && res.ok !== true && !(res.ok && res.ok.valueOf() === 1)) {
            throw commandError(res, "command failed");
        }
        this._db = db;
        this._batchSize = batchSize;
        this._maxAwaitTimeMS = maxAwaitTimeMS;
        const c = res.cursor;
        this._ns = c.ns;
        this._id = c.id;
        this._batch = (c.firstBatch || c.nextBatch || []).slice();
        this._postBatchResumeToken = c.postBatchResumeToken;
        this._nReturned = 0;
        const dot = this._ns.indexOf(".");
        this._dbName = this._ns.slice(0, dot);
        this._collName = this._ns.slice(dot + 1);
    }
    _idIsZero() { return this._id === 0 || this._id === undefined || (this._id.isZero && this._id.isZero()); }
    // One getMore when the batch is used up, as the legacy shell does: a tailable cursor with
    // nothing new returns an empty batch and stays open, and hasNext() is then false.
    _more() {
        if (this._batch.length === 0 && !this._idIsZero()) {
            const cmd = {getMore: this._id, collection: this._collName};
            if (this._batchSize) cmd.batchSize = NumberInt(this._batchSize);
            if (this._maxAwaitTimeMS) cmd.maxTimeMS = this._maxAwaitTimeMS;
            const res = this._db.getMongo().runCommand(this._dbName, cmd);
            if (!res.ok) throw commandError(res, "getMore command failed");
            this._id = res.cursor.id;
            this._batch = res.cursor.nextBatch.slice();
            this._postBatchResumeToken = res.cursor.postBatchResumeToken;
        }
        return this._batch.length > 0;
    }
    hasNext() { return this._more(); }
    next() {
        if (!this._more()) throw new Error("error hasNext: false");
        this._nReturned++;
        return this._batch.shift();
    }
    tryNext() { return this._batch.length || this._more() ? this.next() : null; }
    objsLeftInBatch() { return this._batch.length; }
    getId() { return this._id; }
    isExhausted() { return this._batch.length === 0 && this._idIsZero(); }
    isClosed() { return this._idIsZero(); }
    getResumeToken() { return this._postBatchResumeToken; }
    close() {
        if (!this._idIsZero()) {
            this._db.getMongo().runCommand(this._dbName, {killCursors: this._collName, cursors: [this._id]});
            this._id = 0;
        }
        this._batch = [];
    }
    toArray() {
        const a = [];
        while (this.hasNext()) a.push(this.next());
        return a;
    }
    itcount() {
        let n = 0;
        while (this.hasNext()) {
            this.next();
            n++;
        }
        return n;
    }
    forEach(f) {
        while (this.hasNext()) f(this.next());
    }
    map(f) {
        const a = [];
        while (this.hasNext()) a.push(f(this.next()));
        return a;
    }
    pretty() { return this; }
    shellPrint() { print(globalThis.tojson(this.toArray())); }
    [Symbol.iterator]() {
        const self = this;
        return {next: () => (self.hasNext() ? {value: self.next(), done: false} : {done: true})};
    }
}

class DBQuery {
    constructor(coll, filter, projection, limit, skip, batchSize, options) {
        this._coll = coll;
        // The legacy shell's field names, which upstream libraries read.
        this._collection = coll;
        this._db = coll.getDB();
        this._mongo = coll.getMongo();
        this._ns = coll.getFullName();
        this._filter = filter || {};
        this._projection = projection;
        this._limit = limit || 0;
        this._skip = skip || 0;
        this._batchSize = batchSize || 0;
        this._opts = {};
        this._special = {};
        this._cursor = null;
        this._options = options || 0;
        // cursor[i] reads the i-th result, as in the legacy shell.
        return new Proxy(this, {
            get(t, prop, receiver) {
                if (typeof prop === "string" && /^\d+$/.test(prop)) return t.arrayAccess(Number(prop));
                return Reflect.get(t, prop, receiver);
            },
        });
    }
    _checkModify() {
        if (this._cursor) throw new Error("query already executed");
    }
    _set(k, v) {
        this._checkModify();
        this._opts[k] = v;
        return this;
    }
    sort(s) { return this._set("sort", s); }
    hint(h) { return this._set("hint", h); }
    min(m) { return this._set("min", m); }
    max(m) { return this._set("max", m); }
    collation(c) { return this._set("collation", c); }
    comment(c) { return this._set("comment", c); }
    maxTimeMS(t) { return this._set("maxTimeMS", t); }
    readConcern(level, atClusterTime) {
        const rc = {level};
        if (atClusterTime) rc.atClusterTime = atClusterTime;
        return this._set("readConcern", rc);
    }
    allowDiskUse(v) { return this._set("allowDiskUse", v === undefined ? true : v); }
    returnKey(v) { return this._set("returnKey", v === undefined ? true : v); }
    showRecordId(v) { return this._set("showRecordId", v === undefined ? true : v); }
    showDiskLoc() { return this.showRecordId(); }
    noCursorTimeout() { return this._set("noCursorTimeout", true); }
    tailable(awaitData) {
        this._set("tailable", true);
        if (awaitData === undefined || awaitData) this._opts.awaitData = true;
        return this;
    }
    allowPartialResults() { return this._set("allowPartialResults", true); }
    rawData(v) { return this._set("rawData", v === undefined ? true : v); }
    readPref() { return this; }
    projection(p) {
        this._checkModify();
        this._projection = p;
        return this;
    }
    limit(n) {
        this._checkModify();
        this._limit = n;
        return this;
    }
    skip(n) {
        this._checkModify();
        this._skip = n;
        return this;
    }
    batchSize(n) {
        this._checkModify();
        this._batchSize = n;
        return this;
    }
    addOption(o) {
        this._options |= o;
        if (o & 2) this._opts.tailable = true;
        if (o & 32) this._opts.awaitData = true;
        if (o & 16) this._opts.noCursorTimeout = true;
        return this;
    }
    pretty() { return this; }
    _findCommand() {
        const cmd = {find: this._coll.getName(), filter: this._filter};
        if (this._projection !== undefined && this._projection !== null) cmd.projection = this._projection;
        for (const k of Object.keys(this._opts)) cmd[k] = this._opts[k];
        if (this._skip) cmd.skip = this._skip;
        if (this._limit) {
            if (this._limit < 0) {
                cmd.limit = -this._limit;
                cmd.singleBatch = true;
            } else {
                cmd.limit = this._limit;
            }
        }
        if (this._batchSize) {
            cmd.batchSize = Math.abs(this._batchSize);
            if (this._batchSize < 0) cmd.singleBatch = true;
        }
        return cmd;
    }
    _exec() {
        if (!this._cursor) {
            const db = this._coll.getDB();
            const res = db.runCommand(this._findCommand());
            if (!res.ok) throw commandError(res, "find command failed");
            this._cursor = new DBCommandCursor(db, res, this._batchSize ? Math.abs(this._batchSize) : undefined);
        }
        return this._cursor;
    }
    hasNext() { return this._exec().hasNext(); }
    next() { return this._exec().next(); }
    tryNext() { return this._exec().tryNext(); }
    objsLeftInBatch() { return this._exec().objsLeftInBatch(); }
    getId() { return this._exec().getId(); }
    isExhausted() { return this._exec().isExhausted(); }
    close() { if (this._cursor) this._cursor.close(); }
    toArray() {
        if (this._arr) return this._arr;
        this._arr = this._exec().toArray();
        return this._arr;
    }
    itcount() { return this._exec().itcount(); }
    forEach(f) { this._exec().forEach(f); }
    map(f) { return this._exec().map(f); }
    length() { return this.toArray().length; }
    arrayAccess(i) { return this.toArray()[i]; }
    count(applySkipLimit) {
        const cmd = {count: this._coll.getName(), query: this._filter};
        if (applySkipLimit) {
            if (this._limit) cmd.limit = Math.abs(this._limit);
            if (this._skip) cmd.skip = this._skip;
        }
        for (const k of ["hint", "collation", "maxTimeMS", "readConcern", "comment"]) {
            if (this._opts[k] !== undefined) cmd[k] = this._opts[k];
        }
        const res = this._coll.getDB().runCommand(cmd);
        if (!res.ok) throw commandError(res, "count failed");
        return res.n;
    }
    size() { return this.count(true); }
    explain(verbosity) {
        const v = normalizeVerbosity(verbosity);
        const cmd = this._findCommand();
        const res = this._coll.getDB().runCommand({explain: cmd, verbosity: v});
        if (!res.ok) throw commandError(res, "explain failed");
        return res;
    }
    getCollection() { return this._coll; }
    shellPrint() { print(globalThis.tojson(this.toArray())); }
    toString() { return "DBQuery: " + this._coll.getFullName() + " -> " + globalThis.tojson(this._filter); }
    [Symbol.iterator]() { return this._exec()[Symbol.iterator](); }
}

function normalizeVerbosity(v) {
    if (v === undefined || v === true) return "allPlansExecution";
    if (v === false) return "queryPlanner";
    if (!["queryPlanner", "executionStats", "allPlansExecution"].includes(v)) {
        throw new Error("verbosity must be one of queryPlanner, executionStats, allPlansExecution");
    }
    return v;
}

/** coll.explain(verbosity): the same CRUD methods, answering with explain output. */
class Explainable {
    constructor(coll, verbosity) {
        this._coll = coll;
        this._verbosity = normalizeVerbosity(verbosity === undefined ? "queryPlanner" : verbosity);
    }
    getCollection() { return this._coll; }
    getVerbosity() { return this._verbosity; }
    _explain(cmd) {
        const res = this._coll.getDB().runCommand({explain: cmd, verbosity: this._verbosity});
        if (!res.ok) throw commandError(res, "explain failed");
        return res;
    }
    find(filter, projection) {
        const q = new DBQuery(this._coll, filter, projection);
        const self = this;
        q._exec = function() { throw new Error("use .finish() or an explain terminal"); };
        q.finish = function() { return self._explain(q._findCommand()); };
        q.explain = function() { return q.finish(); };
        q.next = q.finish;
        q.hasNext = () => true;
        q.toArray = () => [q.finish()];
        q.count = function() {
            const cmd = {count: self._coll.getName(), query: filter || {}};
            for (const k of ["hint", "collation", "maxTimeMS", "comment"]) {
                if (q._opts[k] !== undefined) cmd[k] = q._opts[k];
            }
            return self._explain(cmd);
        };
        return q;
    }
    aggregate(pipeline, opts) {
        if (!Array.isArray(pipeline)) pipeline = Array.from(arguments).filter((x) => !Array.isArray(x) && x && Object.keys(x)[0] && Object.keys(x)[0].startsWith("$"));
        const cmd = Object.assign({aggregate: this._coll.getName(), pipeline, cursor: {}}, opts || {});
        delete cmd.explain;
        return this._explain(cmd);
    }
    count(query, opts) {
        return this._explain(Object.assign({count: this._coll.getName(), query: query || {}}, opts || {}));
    }
    distinct(key, query, opts) {
        return this._explain(Object.assign({distinct: this._coll.getName(), key, query: query || {}}, opts || {}));
    }
    findAndModify(params) {
        return this._explain(Object.assign({findAndModify: this._coll.getName()}, params));
    }
    remove(query, justOne) {
        let limit = 0;
        let extra = {};
        if (typeof justOne === "object" && justOne) {
            limit = justOne.justOne ? 1 : 0;
            if (justOne.collation) extra.collation = justOne.collation;
        } else if (justOne) {
            limit = 1;
        }
        return this._explain({delete: this._coll.getName(),
                              deletes: [Object.assign({q: query || {}, limit}, extra)]});
    }
    update(query, update, upsert, multi) {
        let stmt = {q: query, u: update};
        if (typeof upsert === "object" && upsert) {
            Object.assign(stmt, {upsert: !!upsert.upsert, multi: !!upsert.multi});
            for (const k of ["collation", "arrayFilters", "hint"]) if (upsert[k]) stmt[k] = upsert[k];
        } else {
            stmt.upsert = !!upsert;
            stmt.multi = !!multi;
        }
        return this._explain({update: this._coll.getName(), updates: [stmt]});
    }
    toString() { return "Explainable(" + this._coll.getFullName() + ")"; }
}

module.exports = {DBQuery, DBCommandCursor, Explainable, commandError, normalizeVerbosity};
