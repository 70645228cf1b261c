/**
 * Makes mongosh 2.x behave like the legacy `mongo` shell where jstests rely on it.
 *
 * - db.runCommand / db.adminCommand / coll.runCommand return the server's reply
 *   document when the command fails ({ok: 0, code, codeName, errmsg}) instead of
 *   throwing MongoServerError, so that
 *   `assert.commandFailedWithCode(db.runCommand(...), ErrorCodes.X)` works.
 *   Network errors and client-side errors still throw.
 * - The legacy collection helpers coll.insert / coll.update / coll.remove /
 *   coll.createIndex / coll.createIndexes do not throw either: like the legacy
 *   shell they return a WriteResult-like object ({nInserted, nUpserted, nMatched,
 *   nModified, nRemoved, writeErrors?, writeConcernError?}) or the createIndexes
 *   reply, so upstream-style `assert.commandWorked(coll.insert(doc))` and
 *   `assert.commandFailedWithCode(coll.createIndex(spec), code)` work. insert adds
 *   an ObjectId _id to documents that have none (as the legacy shell did).
 * - Small helpers used by jstests: isNumber, isString, isObject, Object.bsonsize.
 *
 * The mongosh CRUD API (insertOne, updateMany, findOneAndUpdate, ...) is left
 * alone and still throws MongoServerError / MongoBulkWriteError on errors; check
 * those with assert.commandFailedWithCode(() => ..., code) or assert.throwsWithCode.
 */
(function() {
"use strict";

function serverReplyOf(e) {
    if (e && typeof e === "object" && e.errorResponse && typeof e.errorResponse === "object" &&
        e.errorResponse.ok !== undefined) {
        return e.errorResponse;
    }
    return null;
}

function wrapReturningReply(proto, name) {
    const orig = proto[name];
    if (typeof orig !== "function" || orig.__returnsErrorReply) return;
    const wrapped = function(...args) {
        try {
            // Assigning the result makes mongosh await it inside the try block.
            const r = orig.apply(this, args);
            return r;
        } catch (e) {
            const reply = serverReplyOf(e);
            if (reply) return reply;
            throw e;
        }
    };
    wrapped.__returnsErrorReply = true;
    proto[name] = wrapped;
}

if (typeof db === "object" && db) {
    const dbProto = Object.getPrototypeOf(db);
    wrapReturningReply(dbProto, "runCommand");
    wrapReturningReply(dbProto, "adminCommand");
    const collProto = Object.getPrototypeOf(db.getCollection("__shell_compat_probe__"));
    wrapReturningReply(collProto, "runCommand");
}

// ---------------------------------------------------------------------------
// Legacy write helpers returning WriteResult-like objects.

function asNumber(x) {
    if (typeof x === "number") return x;
    if (x && typeof x.toNumber === "function") return x.toNumber();  // Long
    if (x && typeof x.valueOf === "function" && typeof x.valueOf() === "number") return x.valueOf();
    return 0;
}

function makeWriteResult(reply, kind) {
    if (reply.ok === 0 || reply.ok === false) {
        return reply;  // command-level failure: hand back the error reply
    }
    const upserted = Array.isArray(reply.upserted) ? reply.upserted : [];
    const n = asNumber(reply.n);
    const res = {
        nInserted: kind === "insert" ? n : 0,
        nUpserted: upserted.length,
        nMatched: kind === "update" ? n - upserted.length : 0,
        nModified: kind === "update" ? asNumber(reply.nModified) : 0,
        nRemoved: kind === "delete" ? n : 0,
    };
    if (upserted.length === 1) res._id = upserted[0]._id;
    if (upserted.length > 1) res.upserted = upserted;
    if (Array.isArray(reply.writeErrors) && reply.writeErrors.length) res.writeErrors = reply.writeErrors;
    if (reply.writeConcernError) res.writeConcernError = reply.writeConcernError;
    Object.defineProperties(res, {
        hasWriteError: {value: () => Array.isArray(res.writeErrors) && res.writeErrors.length > 0},
        getWriteError: {value: () => (res.writeErrors ? res.writeErrors[0] : null)},
        getWriteErrors: {value: () => res.writeErrors || []},
        getWriteErrorCount: {value: () => (res.writeErrors ? res.writeErrors.length : 0)},
        hasWriteConcernError: {value: () => !!res.writeConcernError},
        getWriteConcernError: {value: () => res.writeConcernError || null},
        getUpsertedId: {value: () => (upserted.length ? {_id: upserted[0]._id} : null)},
        getRawResponse: {value: () => reply},
    });
    return res;
}

function splitWriteOptions(options) {
    const cmdFields = {};
    if (options && typeof options === "object") {
        for (const k of ["ordered", "writeConcern", "bypassDocumentValidation", "comment", "let"]) {
            if (options[k] !== undefined) cmdFields[k] = options[k];
        }
    }
    return cmdFields;
}

function legacyInsert(docs, options) {
    const list = Array.isArray(docs) ? docs : [docs];
    for (const d of list) {
        if (d !== null && typeof d === "object" && d._id === undefined) {
            // Put _id first, as the server would, and mutate the caller's object like the legacy shell.
            const rest = Object.assign({}, d);
            for (const k of Object.keys(d)) delete d[k];
            d._id = new ObjectId();
            Object.assign(d, rest);
        }
    }
    const cmd = Object.assign({insert: this.getName(), documents: list}, splitWriteOptions(options));
    const reply = this.getDB().runCommand(cmd);
    return makeWriteResult(reply, "insert");
}

function legacyUpdate(query, update, upsertOrOptions, multi) {
    const stmt = {q: query, u: update};
    let options = {};
    if (upsertOrOptions !== null && typeof upsertOrOptions === "object") {
        options = upsertOrOptions;
        for (const k of ["upsert", "multi", "arrayFilters", "collation", "hint"]) {
            if (options[k] !== undefined) stmt[k] = options[k];
        }
    } else {
        if (upsertOrOptions !== undefined) stmt.upsert = !!upsertOrOptions;
        if (multi !== undefined) stmt.multi = !!multi;
    }
    const cmd = Object.assign({update: this.getName(), updates: [stmt]}, splitWriteOptions(options));
    const reply = this.getDB().runCommand(cmd);
    return makeWriteResult(reply, "update");
}

function legacyRemove(query, justOneOrOptions) {
    let options = {};
    let justOne = false;
    if (justOneOrOptions !== null && typeof justOneOrOptions === "object") {
        options = justOneOrOptions;
        justOne = !!options.justOne;
    } else {
        justOne = !!justOneOrOptions;
    }
    const stmt = {q: query === undefined ? {} : query, limit: justOne ? 1 : 0};
    if (options.collation !== undefined) stmt.collation = options.collation;
    const cmd = Object.assign({delete: this.getName(), deletes: [stmt]}, splitWriteOptions(options));
    const reply = this.getDB().runCommand(cmd);
    return makeWriteResult(reply, "delete");
}

function defaultIndexName(keys) {
    return Object.keys(keys).map((k) => k + "_" + keys[k]).join("_");
}

function legacyCreateIndexes(keysList, options, commitQuorum) {
    const opts = Object.assign({}, options || {});
    const indexes = keysList.map((keys) => {
        const spec = Object.assign({key: keys}, opts);
        if (spec.name === undefined) spec.name = defaultIndexName(keys);
        return spec;
    });
    const cmd = {createIndexes: this.getName(), indexes: indexes};
    if (commitQuorum !== undefined) cmd.commitQuorum = commitQuorum;
    const reply = this.getDB().runCommand(cmd);
    return reply;
}

function legacyCreateIndex(keys, options, commitQuorum) {
    const reply = legacyCreateIndexes.call(this, [keys], options, commitQuorum);
    return reply;
}

if (typeof db === "object" && db) {
    const collProto = Object.getPrototypeOf(db.getCollection("__shell_compat_probe__"));
    collProto.insert = legacyInsert;
    collProto.update = legacyUpdate;
    collProto.remove = legacyRemove;
    collProto.createIndex = legacyCreateIndex;
    collProto.createIndexes = legacyCreateIndexes;
    collProto.ensureIndex = legacyCreateIndex;
}

globalThis.isNumber = (x) => typeof x === "number";
globalThis.isString = (x) => typeof x === "string";
globalThis.isObject = (x) => typeof x === "object" && x !== null;
if (typeof Object.bsonsize !== "function" && typeof bsonsize === "function") {
    Object.bsonsize = bsonsize;
}
})();
