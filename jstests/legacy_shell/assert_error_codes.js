// The error assert.commandWorked throws carries the failed reply's codes, as upstream's shell's
// does, so a test may write assert.commandFailedWithCode(assert.throws(() =>
// assert.commandWorked(...)), code). collection._isSharded() is false off a sharded cluster.
const e = assert.throws(() => assert.commandWorked(db.runCommand({create: "a\x00b"})));
assert.eq(ErrorCodes.InvalidNamespace, e.code, tojson(e));
assert.eq("InvalidNamespace", e.codeName);
assert.commandFailedWithCode(e, ErrorCodes.InvalidNamespace);

const coll = db.assert_error_codes;
coll.drop();
assert.commandWorked(coll.insert({_id: 1}));
const w = assert.throws(() => assert.commandWorked(coll.insert({_id: 1})));
assert.commandFailedWithCode(w, ErrorCodes.DuplicateKey);
const w2 = assert.throws(() => assert.writeOK(coll.insert({_id: 1})));
assert.commandFailedWithCode(w2, ErrorCodes.DuplicateKey);

assert.eq(false, coll._isSharded());
