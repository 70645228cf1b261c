/**
 * An object element of an array that lacks the rest of an index path gives the index a null
 * key, as upstream's: {a.b: null} finds {a: [{}, {b: 1}]} through an index on a.b as it does by a
 * collection scan. A scalar element does not (and {a.b: null} does not match it); a sparse
 * index skips a document whose only keys are such nulls.
 */
const coll = db[jsTestName()];

function counts(filter) {
    return [coll.find(filter).hint({$natural: 1}).itcount(), coll.find(filter).hint({"a.b": 1}).itcount()];
}

coll.drop();
assert.commandWorked(coll.createIndex({"a.b": 1}));
assert.commandWorked(coll.insert({_id: 1, a: [{}, {b: 1}]}));
assert.commandWorked(coll.insert({_id: 2, a: [5, {b: 1}]}));
assert.commandWorked(coll.insert({_id: 3, a: [{c: 1}, {b: [{}]}]}));
// _id 1 (element {}) and 3 (element {c: 1}) lack a.b in an object element; 2's 5 does not count.
const ids = (filter, hint) => coll.find(filter).hint(hint).toArray().map(d => d._id).sort();
assert.eq([1, 3], ids({"a.b": null}, {$natural: 1}));
assert.eq([1, 3], ids({"a.b": null}, {"a.b": 1}));
assert.eq([2, 2], counts({a: {$elemMatch: {b: null}}}));
assert.eq([2, 2], counts({"a.b": 1}));
assert.commandWorked(coll.validate({full: true}));

coll.drop();
assert.commandWorked(coll.createIndex({"a.b": 1}, {sparse: true}));
assert.commandWorked(coll.insert({_id: 1, a: [{}, {}]}));
assert.commandWorked(coll.insert({_id: 2, a: [{}, {b: null}]}));
// Only the document with a real a.b is in the sparse index.
assert.eq([2], coll.find({}).hint({"a.b": 1}).toArray().map(d => d._id));
const v = assert.commandWorked(coll.validate({full: true}));
assert(v.valid, tojson(v));
