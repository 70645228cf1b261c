/**
 * On a standalone (no --replSet) the replica-set commands fail with
 * NoReplicationEnabled, hello has no setName, and dbHash/applyOps still work.
 */
const coll = db[jsTestName()];

function replCommandsNeedReplSet() {
    assert.commandFailedWithCode(db.adminCommand({replSetGetStatus: 1}),
                                 ErrorCodes.NoReplicationEnabled);
    assert.commandFailedWithCode(db.adminCommand({replSetInitiate: {}}),
                                 ErrorCodes.NoReplicationEnabled);
    assert.commandFailedWithCode(db.adminCommand({replSetGetConfig: 1}),
                                 ErrorCodes.NoReplicationEnabled);
    const hello = assert.commandWorked(db.adminCommand({hello: 1}));
    assert.eq(undefined, hello.setName);
    assert.eq(true, hello.isWritablePrimary);
}

function applyOpsAppliesCrudAndDeltaUpdates() {
    coll.drop();
    const ns = coll.getFullName();
    const res = assert.commandWorked(db.adminCommand({
        applyOps: [
            {op: "c", ns: db.getName() + ".$cmd", o: {create: coll.getName()}},
            {op: "i", ns: ns, o: {_id: 1, a: {b: [1, 2]}, c: 1}},
            {op: "i", ns: ns, o: {_id: 2, x: 1}},
            {op: "u", ns: ns, o: {$v: 2, diff: {d: {c: false}, sa: {sb: {a: true, u1: 5}}}}, o2: {_id: 1}},
            {op: "u", ns: ns, o: {_id: 2, y: 2}, o2: {_id: 2}},
            {op: "d", ns: ns, o: {_id: 3}},
        ]
    }));
    assert.eq(6, res.applied);
    assert.eq([{_id: 1, a: {b: [1, 5]}}, {_id: 2, y: 2}], coll.find().sort({_id: 1}).toArray());
}

function applyOpsRejectsDeltaOnMissingDocument() {
    assert.commandFailedWithCode(db.adminCommand({
        applyOps: [{op: "u", ns: coll.getFullName(), o: {$v: 2, diff: {u: {a: 1}}}, o2: {_id: 99}}]
    }), ErrorCodes.UpdateOperationFailed);
}

function dbHashChangesWithData() {
    const before = assert.commandWorked(db.runCommand({dbHash: 1, collections: [coll.getName()]}));
    assert.eq(32, before.md5.length);
    assert.eq(32, before.collections[coll.getName()].length);
    assert.commandWorked(coll.insertOne({_id: 3}));
    const after = assert.commandWorked(db.runCommand({dbHash: 1, collections: [coll.getName()]}));
    assert.neq(before.md5, after.md5);
}

function transactionsNeedReplSet() {
    coll.drop();
    const res = db.runCommand({
        insert: coll.getName(),
        documents: [{_id: 1}],
        lsid: {id: UUID()},
        txnNumber: NumberLong(1),
        startTransaction: true,
        autocommit: false,
    });
    assert.commandFailedWithCode(res, ErrorCodes.IllegalOperation);
    assert.eq(0, coll.countDocuments({}));
}

runScenarios(replCommandsNeedReplSet, applyOpsAppliesCrudAndDeltaUpdates,
             applyOpsRejectsDeltaOnMissingDocument, dbHashChangesWithData,
             transactionsNeedReplSet);
