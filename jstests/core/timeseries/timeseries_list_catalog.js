// $listCatalog: a collection's catalog entry (with the buckets collection's time-series flags);
// {aggregate: 1} on admin lists every collection and view; collectionless elsewhere is refused.
const name = "ts_list_catalog";
db[name].drop();
assert.commandWorked(db.createCollection(name, {timeseries: {timeField: "t", metaField: "m"}}));
const buckets = db.getCollection("system.buckets." + name);
const entries = buckets.aggregate([{$listCatalog: {}}]).toArray();
assert.eq(1, entries.length, tojson(entries));
const e = entries[0];
assert.eq(db.getName(), e.db);
assert.eq("system.buckets." + name, e.name);
assert.eq("collection", e.type);
assert.eq(false, e.md.timeseriesBucketsMayHaveMixedSchemaData, tojson(e));
assert(e.md.indexes.some(i => i.spec.name === "m_1_t_1"), tojson(e));

const all = db.getSiblingDB("admin").aggregate([{$listCatalog: {}}]).toArray();
assert(all.some(x => x.db === db.getName() && x.name === name && x.type === "timeseries"), tojson(all));
assert(all.some(x => x.db === db.getName() && x.name === "system.buckets." + name), tojson(all));
assert.commandFailedWithCode(db.runCommand({aggregate: 1, pipeline: [{$listCatalog: {}}], cursor: {}}),
                             ErrorCodes.InvalidNamespace);
assert.commandFailedWithCode(
    db.runCommand({aggregate: buckets.getName(), pipeline: [{$listCatalog: 1}], cursor: {}}),
    ErrorCodes.FailedToParse);
