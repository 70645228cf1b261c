// A $project computing a dotted path ({"c.a": "$meta"}) or a sub-projection ({c: {a: ...}})
// over a time-series collection writes into the measurement's own c, element by element when
// c is an array: the unpacking must keep c (it was pruned, giving c: {a: 4}).
const coll = db.ts_project_dotted_computed;
coll.drop();
assert.commandWorked(
    db.createCollection(coll.getName(), {timeseries: {timeField: "time", metaField: "meta"}}));
const t = ISODate("2024-01-01T00:00:00Z");
assert.commandWorked(coll.insert({_id: 0, time: t, meta: 4, c: [{}, {}], d: {e: 1}}));
assert.docEq([{_id: 0, c: [{a: 4}, {a: 4}]}], coll.aggregate([{$project: {"c.a": "$meta"}}]).toArray());
assert.docEq([{_id: 0, c: [{a: 4}, {a: 4}]}], coll.aggregate([{$project: {c: {a: "$meta"}}}]).toArray());
assert.docEq([{_id: 0, d: {e: 1, f: 4}}], coll.aggregate([{$project: {"d.f": "$meta", "d.e": 1}}]).toArray());
assert.docEq([{_id: 0, x: 4}], coll.aggregate([{$project: {x: "$meta"}}]).toArray());
