/**
 * A standalone refuses retryable writes as upstream does: a txnNumber fails with
 * IllegalOperation ("Transaction numbers are only allowed on a replica set member or
 * mongos") and nothing is written. (A txnNumber without lsid, InvalidOptions, cannot be sent
 * from mongosh, which always adds its session's lsid: unit-tested in transaction_table_test.)
 */
const coll = db[jsTestName()];
const lsid = {id: UUID()};

function txnNumberIsRefusedOnAStandalone() {
    coll.drop();
    for (const cmd of [
             {insert: coll.getName(), documents: [{_id: 1}]},
             {update: coll.getName(), updates: [{q: {_id: 1}, u: {$set: {a: 1}}, upsert: true}]},
             {delete: coll.getName(), deletes: [{q: {}, limit: 1}]},
             {findAndModify: coll.getName(), query: {}, update: {$set: {a: 1}}, upsert: true},
         ]) {
        assert.commandFailedWithCode(
            db.runCommand(Object.assign({}, cmd, {lsid: lsid, txnNumber: NumberLong("1")})),
            ErrorCodes.IllegalOperation);
    }
    assert.eq(0, coll.find().itcount());
}

function lsidAloneIsAPlainWrite() {
    coll.drop();
    assert.commandWorked(
        db.runCommand({insert: coll.getName(), documents: [{_id: 1}], lsid: lsid}));
    assert.eq(1, coll.find().itcount());
}

txnNumberIsRefusedOnAStandalone();
lsidAloneIsAPlainWrite();
