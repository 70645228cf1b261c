// The legacy shell's write results: WriteResult (one statement), BulkWriteResult,
// WriteError, WriteConcernError, WriteCommandError (the command itself failed), and
// BulkWriteError (thrown by Bulk.execute on write errors).
"use strict";

class WriteError {
    constructor(err, op) {
        this.index = err.index;
        this.code = err.code;
        this.codeName = err.codeName;
        this.errmsg = err.errmsg;
        if (err.errInfo !== undefined) this.errInfo = err.errInfo;
        this._op = op;
    }
    getOperation() { return this._op; }
    toString() { return "WriteError(" + globalThis.tojson(this.tojsonObj()) + ")"; }
    tojsonObj() {
        const o = {index: this.index, code: this.code, errmsg: this.errmsg};
        if (this.errInfo !== undefined) o.errInfo = this.errInfo;
        o.op = this._op;
        return o;
    }
    tojson(indent, nolint) { return globalThis.tojson(this.tojsonObj(), indent, nolint); }
}

class WriteConcernError {
    constructor(e) {
        this.code = e.code;
        this.codeName = e.codeName;
        this.errmsg = e.errmsg;
        if (e.errInfo !== undefined) this.errInfo = e.errInfo;
        if (e.errorLabels !== undefined) this.errorLabels = e.errorLabels;
    }
    toString() { return "WriteConcernError(" + globalThis.tojson(this) + ")"; }
    tojson(indent, nolint) {
        return globalThis.tojson({code: this.code, codeName: this.codeName, errmsg: this.errmsg,
                                  errInfo: this.errInfo}, indent, nolint);
    }
}

/** The counters both result kinds carry, in the legacy shell's field order. */
const kCounts = ["nInserted", "nUpserted", "nMatched", "nModified", "nRemoved"];
function copyCounts(from, to) {
    for (const k of kCounts) to[k] = from[k];
    return to;
}

class BulkWriteResult {
    constructor(r, singleKind = true) {
        copyCounts(r, this);
        // Writes of one kind only: toSingleResult() may describe them (as the legacy shell's
        // single batch type).
        Object.defineProperty(this, "_singleKind", {value: singleKind, enumerable: false});
        this.writeErrors = r.writeErrors;
        this._upserted = r.upserted;
        this._insertedIds = r.insertedIds;
        this.writeConcernErrors = r.writeConcernErrors;
        if (r.writeConcernErrors.length) this.writeConcernError = r.writeConcernErrors[0];
        Object.defineProperty(this, "ok", {value: 1, enumerable: false, writable: true});
    }
    getUpsertedIds() { return this._upserted; }
    getUpsertedIdAt(i) { return this._upserted[i]; }
    getInsertedIds() { return this._insertedIds; }
    getRawResponse() { return this; }
    hasWriteErrors() { return this.writeErrors.length > 0; }
    getWriteErrorCount() { return this.writeErrors.length; }
    getWriteErrorAt(i) { return this.writeErrors[i]; }
    getWriteErrors() { return this.writeErrors; }
    hasWriteConcernError() { return this.writeConcernErrors.length > 0; }
    getWriteConcernError() { return this.writeConcernErrors[0] || null; }
    toSingleResult() {
        if (!this._singleKind)
            throw new Error("Cannot output single WriteResult from multiple batch result");
        return new WriteResult(copyCounts(this, {
            upserted: this._upserted, writeErrors: this.writeErrors,
            writeConcernErrors: this.writeConcernErrors,
        }));
    }
    tojson(indent, nolint) {
        const o = {
            writeErrors: this.writeErrors.map((e) => e.tojsonObj()),
            writeConcernErrors: this.writeConcernErrors,
        };
        copyCounts(this, o).upserted = this._upserted;
        return globalThis.tojson(o, indent, nolint);
    }
    toString() { return "BulkWriteResult(" + this.tojson() + ")"; }
}

class WriteResult {
    constructor(r) {
        copyCounts(r, this);
        if (r.upserted && r.upserted.length) this._id = r.upserted[r.upserted.length - 1]._id;
        if (r.writeErrors.length) this.writeError = r.writeErrors[r.writeErrors.length - 1];
        if (r.writeConcernErrors && r.writeConcernErrors.length) {
            this.writeConcernError = r.writeConcernErrors[r.writeConcernErrors.length - 1];
        }
        Object.defineProperty(this, "ok", {value: 1, enumerable: false, writable: true});
    }
    getUpsertedId() { return this._id === undefined ? null : {_id: this._id}; }
    getRawResponse() { return this; }
    hasWriteError() { return this.writeError !== undefined; }
    getWriteError() { return this.writeError || null; }
    getWriteErrors() { return this.writeError ? [this.writeError] : []; }
    hasWriteConcernError() { return this.writeConcernError !== undefined; }
    getWriteConcernError() { return this.writeConcernError || null; }
    tojson(indent, nolint) {
        const o = {nInserted: this.nInserted};
        for (const k of kCounts.slice(1)) if (this[k] !== undefined) o[k] = this[k];
        if (this._id !== undefined) o._id = this._id;
        if (this.writeError) o.writeError = {code: this.writeError.code, errmsg: this.writeError.errmsg};
        if (this.writeConcernError) o.writeConcernError = this.writeConcernError;
        return "WriteResult(" + globalThis.tojson(o, indent, nolint) + ")";
    }
    toString() { return this.tojson(); }
}

/** The command as a whole failed (ok: 0): returned by the legacy write helpers. */
class WriteCommandError extends Error {
    constructor(res) {
        super(res.errmsg || "write command failed");
        this.name = "WriteCommandError";
        Object.assign(this, res);
        this.ok = 0;
    }
    getWriteErrors() { return []; }
    hasWriteErrors() { return false; }
    hasWriteError() { return false; }
    getWriteError() { return null; }
    tojson(indent, nolint) {
        const o = {};
        for (const k of Object.keys(this)) o[k] = this[k];
        return globalThis.tojson(o, indent, nolint);
    }
    toString() { return "WriteCommandError(" + this.tojson() + ")"; }
}

class BulkWriteError extends Error {
    constructor(result) {
        super("write error at item " + (result.writeErrors.length ? result.writeErrors[0].index : "?") +
              " in bulk operation: " + (result.writeErrors.length ? result.writeErrors[0].errmsg : ""));
        this.name = "BulkWriteError";
        this._result = result;
        copyCounts(result, this);  // the legacy shell's error carries the result's counters
        this.writeErrors = result.writeErrors;
        this.writeConcernError = result.writeConcernError;
        if (result.writeErrors.length) this.code = result.writeErrors[0].code;
    }
    toResult() { return this._result; }
    getWriteErrors() { return this.writeErrors; }
    hasWriteErrors() { return this.writeErrors.length > 0; }
    getWriteErrorCount() { return this.writeErrors.length; }
    getWriteErrorAt(i) { return this.writeErrors[i]; }
    getUpsertedIds() { return this._result.getUpsertedIds(); }
    getUpsertedIdAt(i) { return this._result.getUpsertedIdAt(i); }
    hasWriteConcernError() { return this._result.hasWriteConcernError(); }
    getWriteConcernError() { return this._result.getWriteConcernError(); }
}

/** Merges write command replies into the legacy counters. */
class ResultAccumulator {
    constructor() {
        this.r = {nInserted: 0, nUpserted: 0, nMatched: 0, nModified: 0, nRemoved: 0,
                  upserted: [], insertedIds: [], writeErrors: [], writeConcernErrors: []};
    }
    add(kind, reply, offset, ops) {
        const r = this.r;
        (this.kinds = this.kinds || new Set()).add(kind);
        const n = reply.n || 0;
        if (kind === "insert") r.nInserted += n;
        else if (kind === "delete") r.nRemoved += n;
        else if (kind === "update") {
            const up = reply.upserted || [];
            r.nUpserted += up.length;
            r.nMatched += n - up.length;
            r.nModified += reply.nModified || 0;
            for (const u of up) r.upserted.push({index: u.index + offset, _id: u._id});
        }
        for (const we of reply.writeErrors || []) {
            const e = Object.assign({}, we, {index: we.index + offset});
            r.writeErrors.push(new WriteError(e, ops ? ops[we.index] : undefined));
        }
        if (reply.writeConcernError) r.writeConcernErrors.push(new WriteConcernError(reply.writeConcernError));
    }
    bulkResult() {
        return new BulkWriteResult(this.r, !this.kinds || this.kinds.size <= 1);
    }
}

module.exports = {WriteError, WriteConcernError, BulkWriteResult, WriteResult, WriteCommandError,
                  BulkWriteError, ResultAccumulator};
