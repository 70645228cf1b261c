/**
 * Differential: random filters of equalities, ranges, $in lists and regexes over fields with
 * compound, descending, multikey, hashed and collated indexes give the same documents as a
 * collection scan, with and without a collation, sorted or not.
 */
const coll = db[jsTestName()];
coll.drop();

let seed = 12345;
function rand(n) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
}
const strings = ["", "a", "ab", "abc", "b", "B", "ba", "é", "\u00e9a", "a.b", "[x]", "z"];
function value() {
    switch (rand(8)) {
        case 0: return rand(10);
        case 1: return rand(10) + 0.5;
        case 2: return strings[rand(strings.length)];
        case 3: return null;
        case 4: return [rand(10), strings[rand(strings.length)]];
        case 5: return {x: rand(3)};
        case 6: return /^a/;
        default: return rand(3) === 0 ? undefined : rand(5);
    }
}
const docs = [];
for (let i = 0; i < 300; i++) {
    const d = {_id: i};
    for (const f of ["a", "b", "c", "s"]) {
        const v = value();
        if (v !== undefined)
            d[f] = v;
    }
    docs.push(d);
}
assert.commandWorked(coll.insertMany(docs));
assert.commandWorked(coll.createIndex({a: 1, b: -1}));
assert.commandWorked(coll.createIndex({b: 1, c: 1}));
assert.commandWorked(coll.createIndex({c: "hashed"}));
assert.commandWorked(coll.createIndex({s: 1}, {collation: {locale: "fr", strength: 2}}));
assert.commandWorked(coll.createIndex({s: -1, a: 1}));

function regex() {
    const r = [/^a/, /^ab/, /^a.b/, /b$/, /^A/i, /^\Qa.\E/, /^é/, /^a?/, /^[ab]/][rand(9)];
    return rand(2) ? r : {$regex: r.source, $options: r.flags};
}
function predicate() {
    switch (rand(6)) {
        case 0: return value() ?? null;
        case 1: {
            const list = [];
            for (let i = rand(4) + 1; i > 0; i--) {
                const v = rand(4) ? value() : regex();
                if (v !== undefined && !(v instanceof Object && "$regex" in v))
                    list.push(v);
            }
            return {$in: list};
        }
        case 2: return {$gt: value() ?? 0};
        case 3: return {$gte: value() ?? 0, $lt: rand(2) ? rand(10) : strings[rand(strings.length)]};
        case 4: return regex();
        default: {
            const p = {$in: [strings[rand(strings.length)], rand(10)]};
            p[rand(2) ? "$lte" : "$gt"] = rand(2) ? "b" : 5;
            return p;
        }
    }
}
function ids(cursor) {
    return cursor.toArray().map(d => d._id).sort((x, y) => x - y);
}
for (let i = 0; i < 300; i++) {
    const filter = {};
    for (const f of ["a", "b", "c", "s"])
        if (rand(2))
            filter[f] = predicate();
    const collation = rand(3) === 0 ? {locale: "fr", strength: 2} : undefined;
    let indexed = coll.find(filter), scanned = coll.find(filter).hint({$natural: 1});
    if (collation) {
        indexed = indexed.collation(collation);
        scanned = scanned.collation(collation);
    }
    const sort = [undefined, {a: 1}, {s: -1}, {b: 1, c: 1}][rand(4)];
    if (sort) {
        indexed = indexed.sort(Object.assign({}, sort, {_id: 1}));
        scanned = scanned.sort(Object.assign({}, sort, {_id: 1}));
        assert.eq(scanned.toArray(), indexed.toArray(), tojson({filter, collation, sort}));
    } else {
        assert.eq(ids(scanned), ids(indexed), tojson({filter, collation}));
    }
}
