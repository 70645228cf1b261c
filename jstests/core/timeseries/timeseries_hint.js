// hint on find and aggregate over a time-series collection (by name, by user key pattern,
// translated to the buckets index) and on aggregate over a plain collection; an index the
// hint does not name is BadValue.
const coll = db.ts_hint;
coll.drop();
assert.commandWorked(db.createCollection(
    coll.getName(),
    {timeseries: {timeField: "t", metaField: "m"}, collation: {locale: "en_US", numericOrdering: true}}));
for (const m of ["8", "16", "64", "128"])
    assert.commandWorked(coll.insert({t: ISODate("2024-01-01T00:00:00Z"), m}));
assert.commandWorked(coll.createIndex({m: 1}, {name: "numeric"}));
assert.commandWorked(
    coll.createIndex({m: 1}, {name: "string", collation: {locale: "en_US", numericOrdering: false}}));
const metas = (docs) => docs.map(d => d.m);
assert.eq(["8", "16", "64", "128"], metas(coll.find().hint("numeric").toArray()));
assert.eq(["128", "16", "64", "8"], metas(coll.find().hint("string").toArray()));
assert.eq(["128", "16", "64", "8"], metas(coll.aggregate([{$match: {}}], {hint: "string"}).toArray()));
assert.eq(["8", "16", "64", "128"], metas(coll.find().hint({m: 1}).toArray()));
assert.commandFailedWithCode(db.runCommand({find: coll.getName(), hint: "nope"}), ErrorCodes.BadValue);
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), pipeline: [], cursor: {}, hint: {zz: 1}}),
    ErrorCodes.BadValue);

const plain = db.hint_plain;
plain.drop();
assert.commandWorked(plain.insert([{_id: 1, a: 2}, {_id: 2, a: 1}]));
assert.commandWorked(plain.createIndex({a: 1}));
assert.eq([{a: 1}, {a: 2}], plain.aggregate([{$project: {_id: 0}}], {hint: {a: 1}}).toArray());
assert.eq([{a: 2}, {a: 1}], plain.aggregate([{$project: {_id: 0}}], {hint: {$natural: 1}}).toArray());
