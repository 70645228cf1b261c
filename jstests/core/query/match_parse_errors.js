/**
 * Malformed filters fail with upstream's codes: unknown operators are BadValue (2);
 * $comment is accepted at the top level.
 */
const coll = db[jsTestName()];

function findFails(filter, code) {
    return assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: filter}), code);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, a: 1}));
}

function unknownFieldOperator() {
    const res = findFails({a: {$foo: 1}}, ErrorCodes.BadValue);
    assert(res.errmsg.includes("unknown operator: $foo"), tojson(res));
}

function unknownTopLevelOperator() {
    const res = findFails({$foo: 1}, ErrorCodes.BadValue);
    assert(res.errmsg.includes("unknown top level operator: $foo"), tojson(res));
}

function operatorsWithBadArguments() {
    findFails({$and: 1}, ErrorCodes.BadValue);
    findFails({a: {$exists: true, $foo: 2}}, ErrorCodes.BadValue);
}

function commentIsAccepted() {
    assert.eq(1, coll.find({$comment: "hello", a: 1}).itcount());
}

runScenarios(setUp, unknownFieldOperator, unknownTopLevelOperator, operatorsWithBadArguments, commentIsAccepted);
