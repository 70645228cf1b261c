// A blocking MongoDB wire-protocol connection for the legacy shell: the test code runs
// synchronously on the main thread (as in the legacy `mongo` shell) while a worker thread
// owns the socket (sync_worker.js). The main thread posts a request and sleeps on an
// Atomics flag until the worker has the whole reply, which it then takes with
// receiveMessageOnPort. OP_MSG only (kind-0 body section, no document sequences).
"use strict";
const path = require("path");
const {Worker, MessageChannel, receiveMessageOnPort} = require("worker_threads");
const BSON = require("bson");
const {serializeBson} = require("./types.js");

const OP_MSG = 2013;
let nextRequestId = 1;

class NetworkError extends Error {
    constructor(message) {
        super(message);
        this.name = "NetworkError";
    }
}

class SyncConnection {
    constructor(host, port) {
        this.host = host;
        this.port = port;
        this.flagBuffer = new SharedArrayBuffer(4);
        this.flag = new Int32Array(this.flagBuffer);
        const {port1, port2} = new MessageChannel();
        this.replyPort = port1;
        this.worker = new Worker(path.join(__dirname, "sync_worker.js"), {
            workerData: {host, port, flag: this.flagBuffer, replyPort: port2},
            transferList: [port2],
        });
        this.worker.unref();
        this.closed = false;
        const r = this._call({op: "connect"});
        if (r.error) throw new NetworkError(r.error + " (" + host + ":" + port + ")");
    }

    _call(msg) {
        Atomics.store(this.flag, 0, 0);
        this.worker.postMessage(msg);
        for (;;) {
            Atomics.wait(this.flag, 0, 0, 1000);
            const got = receiveMessageOnPort(this.replyPort);
            if (got) return got.message;
        }
    }

    /** Sends `cmd` (an object already in BSON-ready form) to `dbName`; returns the reply. */
    runCommand(dbName, cmd, serializeOptions) {
        if (this.closed) throw new NetworkError("connection closed");
        const body = Object.assign({}, cmd);
        body.$db = dbName;
        const bytes = serializeBson(body, serializeOptions);
        const header = Buffer.alloc(21);
        const len = 21 + bytes.length;
        header.writeInt32LE(len, 0);
        header.writeInt32LE(nextRequestId++, 4);
        header.writeInt32LE(0, 8);
        header.writeInt32LE(OP_MSG, 12);
        header.writeUInt32LE(0, 16);
        header.writeUInt8(0, 20);
        const r = this._call({op: "send", bytes: Buffer.concat([header, bytes]), expectReply: true});
        if (r.error) {
            this.closed = true;
            throw new NetworkError(r.error);
        }
        return this._parseReply(Buffer.from(r.reply));
    }

    _parseReply(buf) {
        const opCode = buf.readInt32LE(12);
        if (opCode !== OP_MSG) throw new NetworkError("unexpected reply opCode " + opCode);
        let off = 20;  // header + flagBits
        let doc = null;
        while (off < buf.length) {
            const kind = buf.readUInt8(off);
            off += 1;
            if (kind === 0) {
                const l = buf.readInt32LE(off);
                doc = BSON.deserialize(buf.subarray(off, off + l),
                                       {promoteLongs: false, promoteBuffers: false, bsonRegExp: false});
                off += l;
            } else {
                const l = buf.readInt32LE(off);
                off += l;
            }
        }
        return doc;
    }

    close() {
        if (this.closed) return;
        this.closed = true;
        try {
            this._call({op: "close"});
        } catch (e) {
        }
    }
}

module.exports = {SyncConnection, NetworkError};
