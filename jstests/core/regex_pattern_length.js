/**
 * A $regex pattern longer than upstream's limit (32761 bytes) is 51091 ("pattern string is
 * longer than the limit set by the application"); long patterns under it work.
 */
const coll = db[jsTestName()];

function longPatterns() {
    coll.drop();
    assert.commandWorked(coll.insert({a: "y".repeat(30000)}));
    assert.eq(1, coll.find({a: {$regex: "^" + "y".repeat(30000)}}).itcount());
    const res = db.runCommand({find: coll.getName(), filter: {a: {$regex: "^" + "y".repeat(32766)}}});
    assert.commandFailedWithCode(res, 51091);
    assert(res.errmsg.includes("pattern string is longer than the limit set by the application"), res);
}

runScenarios(longPatterns);
