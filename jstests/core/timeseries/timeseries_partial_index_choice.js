// A partial index whose filter the query implies is preferred over an index that bounds as many
// key fields without one: it holds a subset of the entries for the same matches.
const coll = db.ts_partial_choice;
coll.drop();
assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "ts", metaField: "sensor"}}));
const base = ISODate("2023-01-01T00:00:00Z");
const docs = [];
for (let i = 0; i < 40; i++)
    docs.push({ts: new Date(base.getTime() + i * 86400000), sensor: i % 5, x: i, y: i % 13});
assert.commandWorked(coll.insertMany(docs));

function scannedIndex(filter) {
    let name = null;
    const walk = (node) => {
        if (Array.isArray(node))
            return node.forEach(walk);
        if (node === null || typeof node !== "object")
            return;
        if (node.stage === "IXSCAN" && name === null)
            name = node.indexName;
        Object.values(node).forEach(walk);
    };
    walk(coll.find(filter).explain());
    return name;
}

const since = ISODate("2023-01-20T00:00:00Z");
assert.commandWorked(coll.createIndex({ts: 1}, {name: "ts_sensor_gt1", partialFilterExpression: {sensor: {$gt: 1}}}));
const f1 = {ts: {$gte: since}, sensor: {$gt: 1}};
assert.eq("ts_sensor_gt1", scannedIndex(f1));
assert.eq(docs.filter((d) => d.ts >= since && d.sensor > 1).length, coll.find(f1).itcount());

assert.commandWorked(coll.createIndex({sensor: 1}, {name: "sensor_y_ge10", partialFilterExpression: {y: {$gte: 10}}}));
const f2 = {sensor: {$gt: 1}, y: {$gte: 10}};
assert.eq("sensor_y_ge10", scannedIndex(f2));
assert.eq(docs.filter((d) => d.sensor > 1 && d.y >= 10).length, coll.find(f2).itcount());

// A query that does not imply the partial filter cannot use it.
const f3 = {ts: {$gte: since}, sensor: {$gte: 1}};
assert.neq("ts_sensor_gt1", scannedIndex(f3));
assert.eq(docs.filter((d) => d.ts >= since && d.sensor >= 1).length, coll.find(f3).itcount());
