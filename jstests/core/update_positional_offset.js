// The positional `$` takes its index from an array the query traverses implicitly, never from
// an array element the query names by its offset ("a.1"), on the same path or on another one.
const coll = db.update_positional_offset;

function reset(doc) {
    coll.drop();
    assert.commandWorked(coll.insert(doc));
}

// Only offsets on the way: no position, the update fails (2 BadValue).
reset({_id: 1, x: [5, 6]});
assert.commandFailedWithCode(
    db.runCommand({update: coll.getName(), updates: [{q: {_id: 1, "x.1": 6}, u: {$set: {"x.$": 0}}}]}),
    ErrorCodes.BadValue);
reset({_id: 1, x: [{y: [7]}]});
assert.commandFailedWithCode(
    db.runCommand(
        {update: coll.getName(), updates: [{q: {_id: 1, "x.0.y.0": 7}, u: {$set: {"x.$.y.0": 0}}}]}),
    ErrorCodes.BadValue);

// An offset, then an implicitly traversed array: the position is the traversed one's.
reset({_id: 1, x: [{y: [3, 4, 5]}]});
assert.commandWorked(coll.update({_id: 1, "x.0.y": 5}, {$set: {"x.0.y.$": 50}}));
assert.eq({_id: 1, x: [{y: [3, 4, 50]}]}, coll.findOne());

// A traversed array, then an offset below it: the position is the traversed array's.
reset({_id: 1, x: [{y: [0]}, {y: [1, 2]}]});
assert.commandWorked(coll.update({_id: 1, "x.y.1": 2}, {$set: {"x.$.y.1": 20}}));
assert.eq({_id: 1, x: [{y: [0]}, {y: [1, 20]}]}, coll.findOne());

// An offset on another path does not replace the position of the traversed one.
reset({_id: 1, x: [7, 8, 9], z: [[0]]});
assert.commandWorked(coll.update({_id: 1, x: 9, "z.0.0": 0}, {$set: {"x.$": 90}}));
assert.eq({_id: 1, x: [7, 8, 90], z: [[0]]}, coll.findOne());
