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
    // A regex is an argument of $eq/$in (a regex match), never of $ne or an ordering.
    for (const op of ["$ne", "$gt", "$gte", "$lt", "$lte"])
        findFails({a: {[op]: /x/}}, ErrorCodes.BadValue);
    assert.eq(0, coll.find({a: {$in: [/zzz/]}}).itcount());
}

function commentIsAccepted() {
    assert.eq(1, coll.find({$comment: "hello", a: 1}).itcount());
}

runScenarios(setUp, unknownFieldOperator, unknownTopLevelOperator, operatorsWithBadArguments, commentIsAccepted);
