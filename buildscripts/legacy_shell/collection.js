// The legacy shell's DBCollection (db.coll): legacy write helpers that return WriteResult /
// BulkWriteResult / WriteCommandError instead of throwing, the CRUD API, the Bulk API,
// find/aggregate/count/distinct, index helpers, stats/validate helpers.
"use strict";
const {DBQuery, DBCommandCursor, Explainable, commandError} = require("./query.js");
const W = require("./write_results.js");

const kMaxBatch = 100000;
// A write command's statements stay under the message limit (16 MiB of BSON plus the room the
// server allows for the command around them), as the legacy shell splits its batches.
const kMaxBatchBytes = 16 * 1024 * 1024;

function makeCollection(mongo, db, name, fullName) {
    const target = new DBCollection(mongo, db, name, fullName);
    return new Proxy(target, {
        get(t, prop, receiver) {
            if (typeof prop !== "string" || prop in t || prop === "then" || prop === "toJSON" ||
                prop === "inspect" || prop === "constructor" || prop === "$$typeof") {
                return Reflect.get(t, prop, receiver);
            }
            return t.getDB().getCollection(t._name + "." + prop);
        },
    });
}

function ensureId(doc) {
    if (doc && typeof doc === "object" && !Array.isArray(doc) && doc._id === undefined &&
        doc._bsontype === undefined) {
        // The legacy shell gives every inserted document an _id, first, in a copy (save() is
        // the helper that sets it on the caller's object).
        return Object.assign({_id: ObjectId()}, doc);
    }
    return doc;
}

function assignId(doc) {
    if (doc && typeof doc === "object" && !Array.isArray(doc) && doc._id === undefined &&
        doc._bsontype === undefined)
        doc._id = ObjectId();
    return doc;
}

/** A query argument as the legacy shell reads it: an ObjectId or id string means {_id: it}. */
function massageQuery(q) {
    if (q === undefined || q === null) return {};
    if (typeof q === "function") return {$where: q.toString()};
    if (typeof q === "object" && q._bsontype === "ObjectId") return {_id: q};
    if (typeof q === "object") return q;
    if (typeof q === "string") return q.length === 24 ? {_id: q} : {$where: q};
    throw new Error("don't know how to massage : " + typeof q);
}

class Bulk {
    constructor(coll, ordered) {
        this._coll = coll;
        this._ordered = ordered;
        this._ops = [];  // {kind, stmt, op}
        this._executed = false;
    }
    insert(doc) {
        const d = ensureId(doc);
        this._ops.push({kind: "insert", stmt: d, op: d});
        return this;
    }
    find(q) {
        if (q === undefined) throw new Error("Bulk.find() requires a selector");
        const bulk = this;
        const spec = {q};
        const view = {
            collation(c) { spec.collation = c; return view; },
            arrayFilters(a) { spec.arrayFilters = a; return view; },
            hint(h) { spec.hint = h; return view; },
            upsert() { spec.upsert = true; return view; },
            update(u) { bulk._update(spec, u, true); },
            updateOne(u) { bulk._update(spec, u, false); },
            replaceOne(u) { bulk._update(spec, u, false); },
            remove() { bulk._delete(spec, 0); },
            delete() { bulk._delete(spec, 0); },
            removeOne() { bulk._delete(spec, 1); },
            deleteOne() { bulk._delete(spec, 1); },
        };
        return view;
    }
    _update(spec, u, multi) {
        const stmt = {q: spec.q, u, multi, upsert: !!spec.upsert};
        for (const k of ["collation", "arrayFilters", "hint"]) if (spec[k] !== undefined) stmt[k] = spec[k];
        this._ops.push({kind: "update", stmt, op: stmt});
    }
    _delete(spec, limit) {
        const stmt = {q: spec.q, limit};
        for (const k of ["collation", "hint"]) if (spec[k] !== undefined) stmt[k] = spec[k];
        this._ops.push({kind: "delete", stmt, op: stmt});
    }
    tojson() { return "{ \"nInsertOps\" : " + this._ops.filter((o) => o.kind === "insert").length + " }"; }
    execute(wc) {
        if (this._executed) throw new Error("A bulk operation cannot be re-executed");
        this._executed = true;
        if (this._ops.length === 0) throw new Error("Invalid Operation, no operations specified");
        const acc = runBatches(this._coll, this._ops, this._ordered, wc);
        if (acc instanceof W.WriteCommandError) throw acc;
        const res = acc.bulkResult();
        if (res.writeErrors.length) throw new W.BulkWriteError(res);
        return res;
    }
    getOperations() { return this._ops.map((o) => o.op); }
}

/** Runs [{kind, stmt}] as write commands in order; a failed command → WriteCommandError. */
function runBatches(coll, ops, ordered, wc, extra) {
    const acc = new W.ResultAccumulator();
    let i = 0;
    while (i < ops.length) {
        const kind = ops[i].kind;
        let j = i;
        let bytes = 0;
        while (j < ops.length && ops[j].kind === kind && j - i < kMaxBatch) {
            const size = Object.bsonsize(ops[j].stmt);
            if (j > i && bytes + size > kMaxBatchBytes) break;
            bytes += size;
            j++;
        }
        const batch = ops.slice(i, j);
        const field = kind === "insert" ? "documents" : kind === "update" ? "updates" : "deletes";
        const cmd = {[kind]: coll.getName(), [field]: batch.map((o) => o.stmt), ordered};
        if (extra) Object.assign(cmd, extra);
        const w = wc || coll.getDB().getWriteConcern();
        if (w) cmd.writeConcern = w;
        const res = coll.getDB().runCommand(cmd);
        if (!res.ok) return new W.WriteCommandError(res);
        acc.add(kind, res, i, batch.map((o) => o.op));
        if (kind === "insert") {
            const failed = new Set((res.writeErrors || []).map((e) => e.index));
            batch.forEach((o, k) => {
                if (!failed.has(k) && o.stmt && o.stmt._id !== undefined) acc.r.insertedIds.push({index: i + k, _id: o.stmt._id});
            });
        }
        if (ordered && res.writeErrors && res.writeErrors.length) break;
        i = j;
    }
    return acc;
}

function parseWriteOptions(opts) {
    const o = {ordered: true, wc: undefined, extra: {}};
    if (opts && typeof opts === "object") {
        if (opts.ordered !== undefined) o.ordered = opts.ordered;
        if (opts.writeConcern) o.wc = opts.writeConcern;
        if (opts.bypassDocumentValidation !== undefined) o.extra.bypassDocumentValidation = opts.bypassDocumentValidation;
        if (opts.let !== undefined) o.extra.let = opts.let;
        if (opts.comment !== undefined) o.extra.comment = opts.comment;
    }
    return o;
}

class DBCollection {
    constructor(mongo, db, name, fullName) {
        this._mongo = mongo;
        this._db = db;
        this._name = name;
        this._fullName = fullName;
    }
    getName() { return this._name; }
    getFullName() { return this._fullName; }
    // Sharded when config.collections lists it (never, on a standalone or replica set).
    _isSharded() {
        return this._db.getSiblingDB("config").collections.countDocuments(
                   {_id: this._fullName, dropped: {$ne: true}}) > 0;
    }
    getDB() { return this._db; }
    getMongo() { return this._mongo; }
    toString() { return this._fullName; }
    tojson() { return this._fullName; }
    shellPrint() { print(this._fullName); }
    getCollection(sub) { return this._db.getCollection(this._name + "." + sub); }
    runCommand(cmd, extra) {
        if (typeof cmd === "string") {
            const o = {[cmd]: this._name};
            if (extra && typeof extra === "object") Object.assign(o, extra);
            cmd = o;
        }
        return this._db.runCommand(cmd);
    }
    runReadCommand(cmd, extra) { return this.runCommand(cmd, extra); }

    // ----- reads
    find(filter, projection, limit, skip, batchSize, options) {
        return new DBQuery(this, massageQuery(filter), projection, limit, skip, batchSize, options);
    }
    findOne(filter, projection, options, readConcern, collation) {
        const q = this.find(filter, projection).limit(-1);
        if (readConcern) q.readConcern(readConcern);
        if (collation) q.collation(collation);
        const c = q;
        return c.hasNext() ? c.next() : null;
    }
    aggregate(pipeline, opts) {
        if (!Array.isArray(pipeline)) {
            pipeline = Array.from(arguments);
            opts = {};
        }
        opts = opts || {};
        const cmd = Object.assign({aggregate: this._name, pipeline}, opts);
        if (cmd.explain) {
            const res = this._db.runCommand(cmd);
            if (!res.ok) throw commandError(res, "aggregate failed");
            return res;
        }
        if (cmd.cursor === undefined) cmd.cursor = {};
        const res = this._db.runCommand(cmd);
        if (!res.ok) throw commandError(res, "aggregate failed");
        return new DBCommandCursor(this._db, res, opts.cursor && opts.cursor.batchSize);
    }
    count(query, options) {
        const cmd = Object.assign({count: this._name, query: query || {}}, options || {});
        const res = this._db.runCommand(cmd);
        if (!res.ok) throw commandError(res, "count failed");
        return res.n;
    }
    countDocuments(query, options) {
        options = options || {};
        const pipeline = [{$match: query || {}}];
        if (options.skip) pipeline.push({$skip: options.skip});
        if (options.limit) pipeline.push({$limit: options.limit});
        pipeline.push({$group: {_id: null, n: {$sum: 1}}});
        const aggOpts = {};
        for (const k of ["hint", "collation", "maxTimeMS"]) if (options[k] !== undefined) aggOpts[k] = options[k];
        const r = this.aggregate(pipeline, aggOpts).toArray();
        return r.length ? r[0].n : 0;
    }
    estimatedDocumentCount(options) {
        const res = this._db.runCommand(Object.assign({count: this._name}, options || {}));
        if (!res.ok) throw commandError(res, "count failed");
        return res.n;
    }
    distinct(key, query, options) {
        const cmd = Object.assign({distinct: this._name, key, query: query || {}}, options || {});
        const res = this._db.runCommand(cmd);
        if (!res.ok) throw commandError(res, "distinct failed");
        return res.values;
    }
    explain(verbosity) { return new Explainable(this, verbosity); }

    // ----- legacy writes
    insert(docs, options) {
        const single = !Array.isArray(docs);
        const list = single ? [docs] : docs;
        const o = parseWriteOptions(typeof options === "number" ? {ordered: !(options & 1)} : options);
        const ops = list.map((d) => {
            const doc = ensureId(d);
            return {kind: "insert", stmt: doc, op: doc};
        });
        const acc = runBatches(this, ops, o.ordered, o.wc, o.extra);
        if (acc instanceof W.WriteCommandError) return acc;
        const res = acc.bulkResult();
        return single ? res.toSingleResult() : res;
    }
    update(query, update, upsert, multi) {
        const stmt = {q: query, u: update, upsert: false, multi: false};
        let o = parseWriteOptions(null);
        if (upsert !== null && typeof upsert === "object") {
            o = parseWriteOptions(upsert);
            if (multi !== undefined) throw new Error("Fourth argument must be empty when specifying upsert and multi with an object.");
            stmt.upsert = !!upsert.upsert;
            stmt.multi = !!upsert.multi;
            for (const k of ["collation", "arrayFilters", "hint"]) if (upsert[k] !== undefined) stmt[k] = upsert[k];
        } else {
            stmt.upsert = !!upsert;
            stmt.multi = !!multi;
        }
        if (query === undefined) throw new Error("need a query");
        stmt.q = massageQuery(query);
        if (update === undefined) throw new Error("need an update object or pipeline");
        const acc = runBatches(this, [{kind: "update", stmt, op: stmt}], true, o.wc, o.extra);
        if (acc instanceof W.WriteCommandError) return acc;
        return acc.bulkResult().toSingleResult();
    }
    remove(query, justOne) {
        if (query === undefined) throw new Error("remove needs a query");
        query = massageQuery(query);
        let limit = 0;
        let o = parseWriteOptions(null);
        const stmt = {q: query};
        if (justOne !== null && typeof justOne === "object") {
            o = parseWriteOptions(justOne);
            limit = justOne.justOne ? 1 : 0;
            if (justOne.collation) stmt.collation = justOne.collation;
            if (justOne.hint) stmt.hint = justOne.hint;
        } else if (justOne) {
            limit = 1;
        }
        stmt.limit = limit;
        const acc = runBatches(this, [{kind: "delete", stmt, op: stmt}], true, o.wc, o.extra);
        if (acc instanceof W.WriteCommandError) return acc;
        return acc.bulkResult().toSingleResult();
    }
    save(doc, opts) {
        if (doc === undefined || doc === null) throw new Error("can't save a null");
        if (doc._id === undefined) {
            doc._id = ObjectId();
            return this.insert(doc, opts);
        }
        return this.update({_id: doc._id}, doc, true);
    }
    initializeOrderedBulkOp() { return new Bulk(this, true); }
    initializeUnorderedBulkOp() { return new Bulk(this, false); }

    // ----- CRUD API (throws on errors)
    _crudWrite(kind, stmts, opts) {
        const o = parseWriteOptions(opts);
        const ops = stmts.map((s) => ({kind, stmt: s, op: s}));
        const acc = runBatches(this, ops, o.ordered, o.wc, o.extra);
        if (acc instanceof W.WriteCommandError) throw acc;
        const res = acc.bulkResult();
        if (res.writeErrors.length) {
            const we = res.writeErrors[0];
            const e = new Error(we.errmsg);
            e.name = "WriteError";
            Object.assign(e, {code: we.code, codeName: we.codeName, errmsg: we.errmsg, index: we.index,
                              errInfo: we.errInfo, writeErrors: res.writeErrors});
            throw e;
        }
        if (res.writeConcernError) {
            const e = new Error(res.writeConcernError.errmsg);
            e.name = "WriteConcernError";
            Object.assign(e, res.writeConcernError);
            e.writeConcernError = res.writeConcernError;
            throw e;
        }
        return res;
    }
    // The CRUD helpers, unlike insert(), give the caller's own documents their _id (so the
    // same array inserted into two collections yields the same _ids, as tests rely on).
    insertOne(doc, opts) {
        const d = assignId(doc);
        this._crudWrite("insert", [d], opts);
        return {acknowledged: true, insertedId: d._id};
    }
    insertMany(docs, opts) {
        const ds = docs.map(assignId);
        this._crudWrite("insert", ds, opts);
        return {acknowledged: true, insertedIds: ds.map((d) => d._id)};
    }
    _updateResult(res) {
        const r = {acknowledged: true, matchedCount: res.nMatched, modifiedCount: res.nModified};
        if (res._upserted.length) {
            r.upsertedId = res._upserted[0]._id;
            r.upsertedCount = res._upserted.length;
        }
        return r;
    }
    _updateStmt(filter, update, opts, multi) {
        opts = opts || {};
        const s = {q: filter, u: update, multi, upsert: !!opts.upsert};
        for (const k of ["collation", "arrayFilters", "hint"]) if (opts[k] !== undefined) s[k] = opts[k];
        return s;
    }
    updateOne(filter, update, opts) {
        if (update && !Array.isArray(update) && Object.keys(update).some((k) => !k.startsWith("$"))) {
            throw new Error("the update operation document must contain atomic operators");
        }
        return this._updateResult(this._crudWrite("update", [this._updateStmt(filter, update, opts, false)], opts));
    }
    updateMany(filter, update, opts) {
        if (update && !Array.isArray(update) && Object.keys(update).some((k) => !k.startsWith("$"))) {
            throw new Error("the update operation document must contain atomic operators");
        }
        return this._updateResult(this._crudWrite("update", [this._updateStmt(filter, update, opts, true)], opts));
    }
    replaceOne(filter, replacement, opts) {
        if (replacement && Object.keys(replacement).some((k) => k.startsWith("$"))) {
            throw new Error("the replace operation document must not contain atomic operators");
        }
        return this._updateResult(this._crudWrite("update", [this._updateStmt(filter, replacement, opts, false)], opts));
    }
    deleteOne(filter, opts) {
        const s = Object.assign({q: filter, limit: 1}, opts && opts.collation ? {collation: opts.collation} : {},
                                opts && opts.hint ? {hint: opts.hint} : {});
        const res = this._crudWrite("delete", [s], opts);
        return {acknowledged: true, deletedCount: res.nRemoved};
    }
    deleteMany(filter, opts) {
        const s = Object.assign({q: filter, limit: 0}, opts && opts.collation ? {collation: opts.collation} : {},
                                opts && opts.hint ? {hint: opts.hint} : {});
        const res = this._crudWrite("delete", [s], opts);
        return {acknowledged: true, deletedCount: res.nRemoved};
    }
    bulkWrite(ops, opts) {
        const stmts = [];
        for (const op of ops) {
            const k = Object.keys(op)[0];
            const v = op[k];
            if (k === "insertOne") stmts.push({kind: "insert", stmt: ensureId(v.document)});
            else if (k === "updateOne" || k === "updateMany" || k === "replaceOne") {
                stmts.push({kind: "update", stmt: this._updateStmt(v.filter, k === "replaceOne" ? v.replacement : v.update, v, k === "updateMany")});
            } else if (k === "deleteOne" || k === "deleteMany") {
                const s = {q: v.filter, limit: k === "deleteOne" ? 1 : 0};
                if (v.collation) s.collation = v.collation;
                if (v.hint) s.hint = v.hint;
                stmts.push({kind: "delete", stmt: s});
            } else {
                throw new Error("bulkWrite: unknown operation " + k);
            }
        }
        const o = parseWriteOptions(opts);
        const acc = runBatches(this, stmts.map((s) => Object.assign(s, {op: s.stmt})), o.ordered, o.wc, o.extra);
        if (acc instanceof W.WriteCommandError) throw acc;
        const res = acc.bulkResult();
        if (res.writeErrors.length) throw new W.BulkWriteError(res);
        const ins = {};
        res._insertedIds.forEach((x) => { ins[x.index] = x._id; });
        const ups = {};
        res._upserted.forEach((x) => { ups[x.index] = x._id; });
        return {acknowledged: true, insertedCount: res.nInserted, insertedIds: ins, matchedCount: res.nMatched,
                modifiedCount: res.nModified, deletedCount: res.nRemoved, upsertedCount: res.nUpserted,
                upsertedIds: ups};
    }
    findAndModify(params) {
        const cmd = Object.assign({findAndModify: this._name}, params);
        const res = this._db.runCommand(cmd);
        if (!res.ok) {
            if (res.code === 26 /* NamespaceNotFound */ && /^ns not found/.test(res.errmsg || "")) return null;
            throw commandError(res, "findAndModifyFailed failed");
        }
        if (res.writeConcernError) throw commandError(res, "findAndModify write concern error");
        return res.value;
    }
    _fam(filter, opts, extra) {
        opts = opts || {};
        const p = Object.assign({query: filter}, extra);
        if (opts.sort) p.sort = opts.sort;
        if (opts.projection) p.fields = opts.projection;
        if (opts.upsert) p.upsert = true;
        if (opts.returnNewDocument || opts.returnDocument === "after") p.new = true;
        for (const k of ["collation", "arrayFilters", "hint", "maxTimeMS", "writeConcern", "let", "bypassDocumentValidation"]) {
            if (opts[k] !== undefined) p[k] = opts[k];
        }
        return this.findAndModify(p);
    }
    findOneAndUpdate(filter, update, opts) { return this._fam(filter, opts, {update}); }
    findOneAndReplace(filter, replacement, opts) { return this._fam(filter, opts, {update: replacement}); }
    findOneAndDelete(filter, opts) { return this._fam(filter, opts, {remove: true}); }

    // ----- DDL and indexes
    drop(options) {
        const cmd = Object.assign({drop: this._name}, options || {});
        const res = this._db.runCommand(cmd);
        if (!res.ok) {
            if (res.code === 26) return false;
            throw commandError(res, "drop failed");
        }
        return true;
    }
    exists() {
        const infos = this._db.getCollectionInfos({name: this._name});
        return infos.length ? infos[0] : null;
    }
    getMetadata() { return this.exists(); }
    isCapped() {
        const e = this.exists();
        return !!(e && e.options && e.options.capped);
    }
    renameCollection(newName, dropTarget) {
        if (typeof newName === "object") return this._db.adminCommand(Object.assign({renameCollection: this._fullName}, newName));
        return this._db.adminCommand({renameCollection: this._fullName, to: this._db.getName() + "." + newName,
                                      dropTarget: !!dropTarget});
    }
    createIndex(keys, options, commitQuorum, cmdArgs) {
        return this.createIndexes([keys], options, commitQuorum, cmdArgs);
    }
    createIndexes(keysArray, options, commitQuorum, cmdArgs) {
        // Legacy forms of the options: a string is the index name, a boolean `unique`.
        // An empty string names nothing: the generated name is used, as the legacy shell does.
        if (typeof options === "string") options = options ? {name: options} : {};
        else if (typeof options === "boolean") options = {unique: options};
        const indexes = keysArray.map((k) => {
            const spec = Object.assign({key: k}, options || {});
            if (spec.name === undefined) spec.name = indexName(k);
            return spec;
        });
        const cmd = Object.assign({createIndexes: this._name, indexes}, cmdArgs || {});
        if (commitQuorum !== undefined) cmd.commitQuorum = commitQuorum;
        return this._db.runCommand(cmd);
    }
    // The legacy alias: returns createIndex's reply (an error reply is returned, not thrown).
    ensureIndex(keys, options) {
        return this.createIndex(keys, options);
    }
    dropIndex(index) {
        if (index === undefined) throw new Error("need to specify index to dropIndex");
        return this._db.runCommand({dropIndexes: this._name, index});
    }
    dropIndexes(indexes) {
        return this._db.runCommand({dropIndexes: this._name, index: indexes === undefined ? "*" : indexes});
    }
    getIndexes(opts) {
        const res = this._db.runCommand(Object.assign({listIndexes: this._name}, opts || {}));
        if (!res.ok) {
            if (res.code === 26) return [];
            throw commandError(res, "listIndexes failed");
        }
        return new DBCommandCursor(this._db, res).toArray();
    }
    getIndexByName(name) { return this.getIndexes().find((i) => i.name === name); }
    getIndexSpecs() { return this.getIndexes(); }
    getIndices() { return this.getIndexes(); }
    getIndexKeys() { return this.getIndexes().map((i) => i.key); }
    hideIndex(index) { return this._db.runCommand({collMod: this._name, index: indexSpec(index, {hidden: true})}); }
    unhideIndex(index) { return this._db.runCommand({collMod: this._name, index: indexSpec(index, {hidden: false})}); }
    reIndex() { return this._db.runCommand({reIndex: this._name}); }
    validate(opts) {
        if (typeof opts !== "object" || opts === null) opts = opts ? {full: true} : {};
        return this._db.runCommand(Object.assign({validate: this._name}, opts));
    }
    // As the legacy shell's: collStats, then indexDetails kept only when asked for (all of
    // them, or the one index named by indexDetailsKey / indexDetailsName).
    stats(opts) {
        const o = typeof opts === "number" ? {scale: opts} : Object.assign({}, opts || {});
        if (o.indexDetailsKey && o.indexDetailsName)
            throw new Error("Cannot filter indexDetails on both indexDetailsKey and indexDetailsName");
        if (o.indexDetailsKey && typeof o.indexDetailsKey !== "object")
            throw new Error("Expected indexDetailsKey to be an object");
        if (o.indexDetailsName && typeof o.indexDetailsName !== "string")
            throw new Error("Expected indexDetailsName to be a string");
        const cmd = {collStats: this._name};
        for (const [k, v] of Object.entries(o))
            if (!["indexDetails", "indexDetailsKey", "indexDetailsName"].includes(k)) cmd[k] = v;
        const res = this._db.runCommand(cmd);
        if (!res.ok || !res.indexDetails) return res;
        if (!o.indexDetails) {
            delete res.indexDetails;
            return res;
        }
        let name = o.indexDetailsName;
        if (o.indexDetailsKey) {
            const found = this.getIndexes().find((i) => globalThis.friendlyEqual(i.key, o.indexDetailsKey));
            name = found ? found.name : undefined;
        }
        if (name !== undefined) {
            const kept = {};
            if (res.indexDetails[name]) kept[name] = res.indexDetails[name];
            res.indexDetails = kept;
        }
        return res;
    }
    dataSize() { return this.stats().size; }
    storageSize() { return this.stats().storageSize; }
    totalIndexSize() { return this.stats().totalIndexSize; }
    totalSize() {
        const s = this.stats();
        return (s.storageSize || 0) + (s.totalIndexSize || 0);
    }
    latencyStats(opts) {
        return this.aggregate([{$collStats: {latencyStats: opts || {}}}]);
    }
    getShardDistribution() {}
    getPlanCache() {
        const coll = this;
        return {
            clear() { return coll._db.runCommand({planCacheClear: coll._name}); },
            list(pipeline) {
                return coll.aggregate([{$planCacheStats: {}}].concat(pipeline || [])).toArray();
            },
            clearPlansByQuery(query, projection, sort) {
                const cmd = {planCacheClear: coll._name, query};
                if (projection) cmd.projection = projection;
                if (sort) cmd.sort = sort;
                return coll._db.runCommand(cmd);
            },
        };
    }
    convertToCapped(bytes) { return this._db.runCommand({convertToCapped: this._name, size: bytes}); }
    watch() { throw new Error("change streams are not supported by this shell"); }
}

function indexSpec(index, extra) {
    return Object.assign(typeof index === "string" ? {name: index} : {keyPattern: index}, extra);
}

function indexName(keys) {
    const parts = [];
    for (const k of Object.keys(keys)) {
        const v = keys[k];
        parts.push(k + "_" + (typeof v === "number" ? v : (v && v.valueOf ? String(v.valueOf()) : String(v))));
    }
    return parts.join("_");
}

module.exports = {makeCollection, DBCollection, Bulk, massageQuery};
