// reIndex on a standalone: every index but _id is dropped and built again with the same spec;
// the reply lists them. Refused on time-series collections (115), views (166) and missing
// collections (26).
const coll = db.reindex_basic;
coll.drop();
for (let i = 0; i < 50; i++)
    assert.commandWorked(coll.insert({_id: i, a: i % 7, b: i, s: "x" + i}));
assert.commandWorked(coll.createIndex({a: 1}));
assert.commandWorked(coll.createIndex({b: 1}, {unique: true}));
assert.commandWorked(coll.createIndex({s: 1}, {partialFilterExpression: {b: {$gt: 10}}, name: "s_partial"}));
const before = coll.getIndexes();

const res = assert.commandWorked(db.runCommand({reIndex: coll.getName()}));
assert.eq(4, res.nIndexesWas);
assert.eq(4, res.nIndexes);
assert.eq(4, res.indexes.length);
const sortByName = (l) => l.slice().sort((x, y) => (x.name < y.name ? -1 : 1));
assert.eq(sortByName(before), sortByName(coll.getIndexes()));

// The rebuilt indexes hold the data: they answer queries and keep enforcing uniqueness.
assert.eq(7, coll.find({a: 3}).hint({a: 1}).itcount());
assert.eq(39, coll.find({s: {$gte: ""}, b: {$gt: 10}}).hint("s_partial").itcount());
assert.commandFailedWithCode(coll.insert({_id: 100, b: 5}), ErrorCodes.DuplicateKey);

const ts = db.reindex_ts;
ts.drop();
assert.commandWorked(db.createCollection(ts.getName(), {timeseries: {timeField: "t"}}));
assert.commandFailedWithCode(db.runCommand({reIndex: ts.getName()}), ErrorCodes.CommandNotSupported);
assert.commandFailedWithCode(db.runCommand({reIndex: "system.buckets." + ts.getName()}),
                             ErrorCodes.CommandNotSupported);
db.reindex_view.drop();
assert.commandWorked(db.createView("reindex_view", coll.getName(), []));
assert.commandFailedWithCode(db.runCommand({reIndex: "reindex_view"}), ErrorCodes.CommandNotSupportedOnView);
assert.commandFailedWithCode(db.runCommand({reIndex: "reindex_missing"}), ErrorCodes.NamespaceNotFound);
