// Tailable cursors and the request rules around them, as upstream's find and getMore have them:
// skip and limit apply across getMores, a tailable cursor over an empty capped collection is
// dead at once, tailable excludes singleBatch and non-natural sorts, awaitData needs tailable,
// and maxTimeMS on getMore is for awaitData cursors only. Also: explain's inner $db.
const name = "tailable_cursor_rules";
const coll = db[name];
coll.drop();
assert.commandWorked(db.createCollection(name, {capped: true, size: 4096}));
for (let i = 1; i <= 5; i++)
    assert.commandWorked(coll.insert({_id: i}));

// skip: the first matching records are dropped; the cursor stays open for new ones.
let res = assert.commandWorked(db.runCommand({find: name, tailable: true, skip: 4}));
assert.eq([{_id: 5}], res.cursor.firstBatch);
const skipId = res.cursor.id;
assert.neq(0, Number(skipId));
res = assert.commandWorked(db.runCommand({getMore: skipId, collection: name}));
assert.eq([], res.cursor.nextBatch);
assert.commandWorked(coll.insert({_id: 6}));
res = assert.commandWorked(db.runCommand({getMore: skipId, collection: name}));
assert.eq([{_id: 6}], res.cursor.nextBatch);

// limit: counts across batches; the cursor closes when it is used up, not before.
res = assert.commandWorked(db.runCommand({find: name, tailable: true, limit: 7}));
assert.eq(6, res.cursor.firstBatch.length);
assert.neq(0, Number(res.cursor.id));
assert.commandWorked(coll.insert({_id: 7}));
assert.commandWorked(coll.insert({_id: 8}));
res = assert.commandWorked(db.runCommand({getMore: res.cursor.id, collection: name}));
assert.eq([{_id: 7}], res.cursor.nextBatch);
assert.eq(0, Number(res.cursor.id));

// maxTimeMS on a getMore: refused for a cursor that is not awaitData, which stays open.
res = assert.commandWorked(db.runCommand({find: name, tailable: true, batchSize: 2}));
assert.commandFailedWithCode(
    db.runCommand({getMore: res.cursor.id, collection: name, maxTimeMS: 1000}), ErrorCodes.BadValue);
assert.commandWorked(db.runCommand({getMore: res.cursor.id, collection: name}));
res = assert.commandWorked(
    db.runCommand({find: name, tailable: true, awaitData: true, batchSize: 2}));
assert.commandWorked(db.runCommand({getMore: res.cursor.id, collection: name, maxTimeMS: 100}));

// Request rules.
assert.commandFailedWithCode(db.runCommand({find: name, tailable: true, singleBatch: true}),
                             ErrorCodes.BadValue);
assert.commandFailedWithCode(db.runCommand({find: name, awaitData: true}), ErrorCodes.BadValue);
assert.commandFailedWithCode(db.runCommand({find: name, tailable: true, sort: {_id: 1}}),
                             ErrorCodes.BadValue);
assert.commandWorked(db.runCommand({find: name, tailable: true, sort: {$natural: 1}}));

// An empty capped collection: the tailable cursor is dead (id 0).
coll.drop();
assert.commandWorked(db.createCollection(name, {capped: true, size: 4096}));
res = assert.commandWorked(db.runCommand({find: name, tailable: true}));
assert.eq(0, Number(res.cursor.id));
assert.eq([], res.cursor.firstBatch);

// explain: the explained command's $db, when given, must be the explain's database.
assert.commandFailedWithCode(db.runCommand({explain: {find: name, $db: "not_" + db.getName()}}),
                             ErrorCodes.InvalidNamespace);
assert.commandWorked(db.runCommand({explain: {find: name, $db: db.getName()}}));
