// The legacy `mongo` shell's BSON value constructors and helpers, over the `bson` npm
// package: NumberLong, NumberInt, NumberDecimal, ObjectId, ISODate, Timestamp, BinData,
// HexData, UUID, MD5, MinKey, MaxKey, DBRef, Code, DBPointer; Object.bsonsize,
// bsonBinaryEqual, toBsonValue (the legacy shell sends every JS number as a double).
"use strict";
const crypto = require("crypto");
const BSON = require("bson");
const {Long, Int32, Double, Decimal128, ObjectId, Timestamp, Binary, MinKey, MaxKey, DBRef, Code} =
    BSON;

function callable(ctor, make) {
    // A function usable with and without `new`, whose instances are the bson class's.
    const f = function(...args) {
        return make(...args);
    };
    f.prototype = ctor.prototype;
    Object.defineProperty(f, Symbol.hasInstance, {value: (x) => x instanceof ctor});
    // x.constructor is the shell's constructor (tests compare it with NumberLong and the
    // others); the bson package does not read it.
    Object.defineProperty(ctor.prototype, "constructor",
                          {value: f, writable: true, configurable: true, enumerable: false});
    return f;
}

const NumberLong = callable(Long, (v, hi, lo) => {
    if (v === undefined) return Long.ZERO;
    if (hi !== undefined && lo !== undefined) {  // NumberLong(floatApprox, top, bottom)
        return Long.fromBits(lo >>> 0, hi | 0);
    }
    if (typeof v === "string") {
        // As strtoll: an optional sign, '+' included.
        if (!/^\s*[-+]?\d+\s*$/.test(v)) throw new Error("could not convert \"" + v + "\" to NumberLong");
        return Long.fromString(v.trim().replace(/^\+/, ""));
    }
    if (v instanceof Long) return v;
    if (typeof v === "bigint") return Long.fromBigInt(v);
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error("could not convert " + v + " to NumberLong");
    return Long.fromNumber(Math.trunc(n));
});
Object.defineProperty(Long.prototype, "floatApprox", {get() { return this.toNumber(); }});
Object.defineProperty(Long.prototype, "top", {get() { return this.high; }});
Object.defineProperty(Long.prototype, "bottom", {get() { return this.low >>> 0; }});
Long.prototype.valueOf = function() { return this.toNumber(); };
const longDigits = Long.prototype.toString;
Long.prototype.tojson = function() {
    const n = this.toNumber();
    return Number.isSafeInteger(n) ? "NumberLong(" + longDigits.call(this, 10) + ")"
                                   : "NumberLong(\"" + longDigits.call(this, 10) + "\")";
};
// String(NumberLong(4)) is "NumberLong(4)", as in the legacy shell; with a radix, the digits.
Long.prototype.toString = function(radix) {
    return radix === undefined ? this.tojson() : longDigits.call(this, radix);
};
Long.prototype.compare = Long.prototype.compare;
Long.prototype.exactValueString = function() { return longDigits.call(this, 10); };

const NumberInt = callable(Int32, (v) => new Int32(v === undefined ? 0 : Number(v) | 0));
Int32.prototype.toNumber = function() { return this.valueOf(); };
Int32.prototype.tojson = function() { return "NumberInt(" + this.valueOf() + ")"; };

const NumberDecimal = callable(Decimal128, (v) => {
    if (v === undefined) v = "0";
    if (v instanceof Decimal128) return v;
    return Decimal128.fromString(typeof v === "number" ? v.toString() : String(v));
});
Decimal128.prototype.tojson = function() { return "NumberDecimal(\"" + this.toString() + "\")"; };
Decimal128.prototype.toNumber = function() { return parseFloat(this.toString()); };

const ObjectIdCtor = callable(ObjectId, (v) => (v === undefined ? new ObjectId() : new ObjectId(v)));
Object.defineProperty(ObjectId.prototype, "str", {get() { return this.toHexString(); }});
ObjectId.prototype.tojson = function() { return "ObjectId(\"" + this.toHexString() + "\")"; };
ObjectId.prototype.isObjectId = true;  // the legacy shell's marker
ObjectId.prototype.valueOf = function() { return this.toHexString(); };
// String(ObjectId(...)) is 'ObjectId("...")', as in the legacy shell; an encoding keeps the
// driver's conversion.
const objectIdToString = ObjectId.prototype.toString;
ObjectId.prototype.toString = function(encoding) {
    return encoding === undefined ? this.tojson() : objectIdToString.call(this, encoding);
};
ObjectIdCtor.fromDate = (d) => ObjectId.createFromTime(Math.floor(d.getTime() / 1000));
ObjectIdCtor.createFromTime = (s) => ObjectId.createFromTime(s);
ObjectIdCtor.isValid = (s) => ObjectId.isValid(s);

function ISODate(s) {
    if (s === undefined) return new Date();
    if (s instanceof Date) return new Date(s.getTime());
    if (typeof s === "number") return new Date(s);
    let str = String(s).trim();
    // Accept the shapes the legacy shell accepts: date only, no 'T', no zone (UTC), +hhmm.
    let m = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i
                .exec(str);
    if (!m) throw new Error("invalid ISO date: " + str);
    const ms = m[7] ? Math.round(Number("0." + m[7]) * 1000) : 0;
    let t = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] || 0), +(m[5] || 0), +(m[6] || 0), ms);
    if (m[8] && m[8].toUpperCase() !== "Z") {
        const z = m[8].replace(":", "");
        const sign = z[0] === "-" ? -1 : 1;
        t -= sign * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5))) * 60000;
    }
    const d = new Date(t);
    if (isNaN(d.getTime())) throw new Error("invalid ISO date: " + str);
    return d;
}
Date.prototype.tojson = function() {
    const v = this.getTime();
    if (isNaN(v)) return "new Date(NaN)";
    if (v < -62167219200000 || v > 253402300799999) return "new Date(" + v + ")";
    let iso = this.toISOString();
    if (iso.endsWith(".000Z")) iso = iso.slice(0, -5) + "Z";
    return "ISODate(\"" + iso + "\")";
};

const TimestampCtor = callable(Timestamp, (t, i) => {
    if (t === undefined) return new Timestamp({t: 0, i: 0});
    if (typeof t === "object" && !(t instanceof Long)) return new Timestamp(t);
    return new Timestamp({t: Number(t) >>> 0, i: Number(i || 0) >>> 0});
});
Timestamp.prototype.getTime = function() { return this.getHighBits() >>> 0; };
Timestamp.prototype.getInc = function() { return this.getLowBits() >>> 0; };
Timestamp.prototype.tojson = function() {
    return "Timestamp(" + (this.getHighBits() >>> 0) + ", " + (this.getLowBits() >>> 0) + ")";
};
Timestamp.prototype.toStringIncomparable = Timestamp.prototype.tojson;

const BinData = callable(Binary, (sub, b64) => {
    if (typeof b64 !== "string") throw new Error("BinData needs a base64 string");
    return new Binary(Buffer.from(b64, "base64"), Number(sub));
});
// As in the legacy shell, where BinData is a native class: Object.prototype.toString gives
// "[object BinData]".
Object.defineProperty(Binary.prototype, Symbol.toStringTag, {value: "BinData", configurable: true});
Binary.prototype.base64 = function() { return Buffer.from(this.buffer.subarray(0, this.position)).toString("base64"); };
Binary.prototype.hex = function() { return Buffer.from(this.buffer.subarray(0, this.position)).toString("hex"); };
Binary.prototype.subtype = function() { return this.sub_type; };
Binary.prototype.length = function() { return this.position; };
Binary.prototype.tojson = function() {
    if (this.sub_type === 4 && this.position === 16) {
        const h = this.hex();
        return "UUID(\"" + h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" +
            h.slice(16, 20) + "-" + h.slice(20) + "\")";
    }
    return "BinData(" + this.sub_type + ",\"" + this.base64() + "\")";
};

// String(binData) and `${UUID()}` print the shell form, as the legacy shell's BinData does; an
// explicit encoding ("hex", "base64", ...) keeps the driver's conversion.
for (const cls of [Binary, BSON.UUID].filter(Boolean)) {
    const driverToString = cls.prototype.toString;
    cls.prototype.toString = function(encoding) {
        return encoding === undefined && typeof this.tojson === "function"
            ? this.tojson()
            : driverToString.call(this, encoding);
    };
}

function HexData(sub, hex) {
    return new Binary(Buffer.from(String(hex), "hex"), Number(sub));
}
function UUID(s) {
    if (s === undefined) return new Binary(crypto.randomBytes(16).map((b, i) => i === 6 ? (b & 0x0f) | 0x40 : i === 8 ? (b & 0x3f) | 0x80 : b), 4);
    return new Binary(Buffer.from(String(s).replace(/-/g, ""), "hex"), 4);
}
function MD5(s) {
    return new Binary(Buffer.from(String(s), "hex"), 5);
}

const minKey = new MinKey();
const maxKey = new MaxKey();
function MinKeyCtor() { return minKey; }
function MaxKeyCtor() { return maxKey; }
MinKeyCtor.tojson = () => "{ \"$minKey\" : 1 }";
MaxKeyCtor.tojson = () => "{ \"$maxKey\" : 1 }";
Object.defineProperty(MinKeyCtor, Symbol.hasInstance, {value: (x) => x instanceof MinKey || x === MinKeyCtor});
Object.defineProperty(MaxKeyCtor, Symbol.hasInstance, {value: (x) => x instanceof MaxKey || x === MaxKeyCtor});

const DBRefCtor = callable(DBRef, (coll, id, db) => new DBRef(coll, id, db));
// The legacy shell's DBRef: $ref/$id/$db fields and fetch() of the document it names (through
// the shell's current database connection).
Object.defineProperties(DBRef.prototype, {
    $ref: {get() { return this.collection; }, set(v) { this.collection = v; }, configurable: true},
    $id: {get() { return this.oid; }, set(v) { this.oid = v; }, configurable: true},
    $db: {get() { return this.db; }, set(v) { this.db = v; }, configurable: true},
    getRef: {value() { return this.collection; }, configurable: true, writable: true},
    getCollection: {value() { return this.collection; }, configurable: true, writable: true},
    getId: {value() { return this.oid; }, configurable: true, writable: true},
    getDb: {value() { return this.db; }, configurable: true, writable: true},
    fetch: {
        value() {
            const current = globalThis.db;
            const target = this.db ? current.getSiblingDB(this.db) : current;
            return target.getCollection(this.collection).findOne({_id: this.oid});
        },
        configurable: true, writable: true,
    },
});
const CodeCtor = callable(Code, (code, scope) => new Code(code, scope));
function DBPointer(ns, id) {
    return new DBRef(ns, id);
}

// JS `undefined` goes out as BSON undefined (type 6), as the legacy shell sends it; the bson
// package writes it as null. toBsonValue puts this marker in its place, and serializeBson
// writes the document twice, the marker once as null and once as MinKey: both have no value
// bytes, so the two encodings differ only in the type bytes of the markers, which become 6.
let undefinedAs = null;
let undefinedSeen = false;
const undefinedMarker = Object.freeze({
    toBSON() {
        undefinedSeen = true;
        return undefinedAs;
    },
});

// The bson package writes into one buffer of 17 MiB; a larger message (up to the 48 MB a
// server takes) needs a larger one.
function serializeOnce(doc, opts) {
    try {
        return BSON.serialize(doc, opts);
    } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        BSON.setInternalBufferSize(BSON.calculateObjectSize(doc, opts) + 1024);
        return BSON.serialize(doc, opts);
    }
}

function serializeBson(doc, options) {
    const opts = Object.assign({checkKeys: false, ignoreUndefined: false}, options || {});
    undefinedSeen = false;
    undefinedAs = null;
    const asNull = serializeOnce(doc, opts);
    if (!undefinedSeen) return asNull;
    undefinedAs = minKey;
    const asMinKey = serializeOnce(doc, opts);
    undefinedAs = null;
    for (let i = 0; i < asNull.length; i++) {
        if (asNull[i] !== asMinKey[i]) asNull[i] = 0x06;
    }
    return asNull;
}

/**
 * A copy of `v` ready for BSON.serialize with the legacy shell's typing: JS numbers become
 * doubles; functions become Code; MinKey/MaxKey used without a call become the values;
 * undefined becomes the marker serializeBson writes as BSON undefined.
 */
function toBsonValue(v, depth) {
    depth = depth || 0;
    if (depth > 250) throw new Error("Object nested too deep");
    if (typeof v === "number") return new Double(v);
    if (v === undefined) return undefinedMarker;
    if (v === null || typeof v !== "object") {
        if (v === MinKeyCtor) return minKey;
        if (v === MaxKeyCtor) return maxKey;
        if (typeof v === "bigint") return Long.fromBigInt(v);
        if (typeof v === "function") return new Code(v.toString());  // as the legacy shell does
        return v;
    }
    if (Array.isArray(v)) return v.map((x) => toBsonValue(x, depth + 1));
    // The prototypes are values of their type in the legacy shell (SpiderMonkey's are).
    if (v === Date.prototype) return new Date(0);
    if (v instanceof RegExp || v === RegExp.prototype) {
        // The flags go as written (BSON keeps any; the server rejects the ones it does not know).
        const r = new BSON.BSONRegExp(v.source, "");
        r.options = v.flags.split("").sort().join("");  // bson would refuse flags like "g"
        return r;
    }
    if (v._bsontype !== undefined || v instanceof Date || ArrayBuffer.isView(v)) {
        return v;
    }
    if (typeof v.toBSON === "function") return toBsonValue(v.toBSON(), depth);
    const out = {};
    for (const k of Object.keys(v)) {
        const x = v[k];
        out[k] = toBsonValue(x, depth + 1);
    }
    return out;
}

function bsonsize(doc) {
    return BSON.calculateObjectSize(toBsonValue(doc), {checkKeys: false, ignoreUndefined: false});
}

function serialize(doc) {
    return serializeBson(toBsonValue(doc));
}

function bsonBinaryEqual(a, b) {
    return Buffer.compare(serialize({x: a}), serialize({x: b})) === 0;
}

function install(g) {
    Object.assign(g, {
        NumberLong, NumberInt, NumberDecimal, ObjectId: ObjectIdCtor, ISODate,
        Timestamp: TimestampCtor, BinData, HexData, UUID, MD5, MinKey: MinKeyCtor,
        MaxKey: MaxKeyCtor, DBRef: DBRefCtor, Code: CodeCtor, DBPointer, bsonBinaryEqual,
        bsonObjToArray: (o) => Object.values(o),
    });
    Object.bsonsize = bsonsize;
}

module.exports = {install, toBsonValue, serialize, serializeBson, bsonsize, BSON};
