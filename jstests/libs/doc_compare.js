/**
 * canonicalDoc(d): a copy of `d` with the fields of every plain object sorted by
 * name (arrays keep their order; dates and BSON wrappers stay as they are), so two
 * result sets can be compared regardless of field order.
 */
globalThis.canonicalDoc = function canonicalDoc(d) {
    if (Array.isArray(d))
        return d.map(canonicalDoc);
    if (d !== null && typeof d === "object" && !(d instanceof Date) && d._bsontype === undefined) {
        const out = {};
        for (const k of Object.keys(d).sort())
            out[k] = canonicalDoc(d[k]);
        return out;
    }
    return d;
};
