/**
 * A j: true write whose journal flush fails is applied, and its reply says the durability is
 * unknown with a writeConcernError (ok: 1), as upstream's write-concern wait reports it.
 * The fail point failJournalFlush (test commands only) makes the next flushes fail.
 */
const coll = db.journal_flush_failure;
coll.drop();

assert.commandWorked(db.adminCommand({configureFailPoint: "failJournalFlush", mode: {times: 1}}));
let res = db.runCommand({insert: coll.getName(), documents: [{_id: 1}], writeConcern: {j: true}});
assert.eq(1, res.ok, tojson(res));
assert.eq(1, res.n, tojson(res));
assert(res.writeConcernError, tojson(res));
assert.eq(ErrorCodes.UnknownError, res.writeConcernError.code, tojson(res));
assert.eq("UnknownError", res.writeConcernError.codeName, tojson(res));
assert.eq(1, coll.countDocuments({_id: 1}));

// The point fired once: the next journaled write is acknowledged without an error.
res = db.runCommand({insert: coll.getName(), documents: [{_id: 2}], writeConcern: {j: true}});
assert.commandWorked(res);
assert(!res.writeConcernError, tojson(res));

// A write without j does not wait for the journal, so the point does not touch it.
assert.commandWorked(db.adminCommand({configureFailPoint: "failJournalFlush", mode: "alwaysOn"}));
res = db.runCommand({insert: coll.getName(), documents: [{_id: 3}]});
assert.commandWorked(res);
assert(!res.writeConcernError, tojson(res));
assert.commandWorked(db.adminCommand({configureFailPoint: "failJournalFlush", mode: "off"}));
