// Worker side of SyncConnection (sync_connection.js): owns one TCP socket to mongod and
// turns the main thread's blocking request/reply calls into socket I/O.
"use strict";
const {workerData, parentPort} = require("worker_threads");
const net = require("net");

const {host, port, flag, replyPort} = workerData;
const signal = new Int32Array(flag);
let socket = null;
let pending = Buffer.alloc(0);
let waiting = false;
let closedError = null;

function answer(msg) {
    replyPort.postMessage(msg);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
}

function tryDeliver() {
    if (!waiting) return;
    if (pending.length >= 4) {
        const len = pending.readInt32LE(0);
        if (len < 16) {
            waiting = false;
            answer({error: "invalid reply length " + len});
            return;
        }
        if (pending.length >= len) {
            const msg = pending.subarray(0, len);
            pending = pending.subarray(len);
            waiting = false;
            answer({reply: Uint8Array.from(msg)});
            return;
        }
    }
    if (closedError) {
        waiting = false;
        answer({error: closedError});
    }
}

function connect() {
    return new Promise((resolve) => {
        socket = net.connect({host, port});
        socket.setNoDelay(true);
        socket.on("connect", () => resolve(null));
        socket.on("data", (d) => {
            pending = pending.length ? Buffer.concat([pending, d]) : d;
            tryDeliver();
        });
        socket.on("error", (e) => {
            closedError = closedError || ("network error: " + e.message);
            resolve(closedError);
            tryDeliver();
        });
        socket.on("close", () => {
            closedError = closedError || "network error: connection closed";
            tryDeliver();
        });
    });
}

parentPort.on("message", async (m) => {
    if (m.op === "connect") {
        const err = await connect();
        answer(err ? {error: err} : {ok: true});
    } else if (m.op === "send") {
        if (closedError) {
            answer({error: closedError});
            return;
        }
        waiting = m.expectReply;
        socket.write(Buffer.from(m.bytes));
        if (!m.expectReply) answer({ok: true});
        else tryDeliver();
    } else if (m.op === "close") {
        if (socket) socket.destroy();
        answer({ok: true});
        process.exit(0);
    }
});
