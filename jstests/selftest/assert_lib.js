/**
 * Self-test of jstests/libs (assert.js, error_codes.js, shell_compat.js) under
 * mongosh. Needs any server that answers ping and rejects unknown commands.
 */
function equalityHelpers() {
    assert.eq(1, 1);
    assert.eq(NumberLong("5"), 5);
    assert.eq(NumberInt(3), 3.0);
    assert.eq({a: 1, b: [1, 2]}, {a: 1, b: [1, 2]});
    assert.neq({a: 1, b: 2}, {b: 2, a: 1});  // eq is field-order sensitive
    assert.docEq({a: 1, b: {c: 2, d: 3}}, {b: {d: 3, c: 2}, a: NumberInt(1)});
    assert.throws(() => assert.docEq({a: [1, 2]}, {a: [2, 1]}));
    assert.sameMembers([{a: 1}, {b: 2}, {a: 1}], [{b: 2}, {a: 1}, {a: 1}]);
    assert.throws(() => assert.sameMembers([{a: 1}, {a: 1}], [{a: 1}, {b: 2}]));
    assert.contains(3, [1, 2, 3]);
    assert.throws(() => assert.contains(4, [1, 2, 3]));
    assert.lt(1, 2);
    assert.lte(2, 2);
    assert.gt(NumberLong("3"), 2);
    assert.gte(2, 2);
    assert.throws(() => assert.gt(1, 2));
    assert.close(1.00001, 1.00002);
    assert.isnull(null);
    assert.isnull(undefined);
    assert.throws(() => assert.isnull(0));
}

function messagesIncludeCallerText() {
    const e = assert.throws(() => assert.eq(1, 2, "custom msg"));
    assert(e.message.includes("custom msg"), e.message);
    assert(e.message.includes("messagesIncludeCallerText"), e.message);
}

function commandReplies() {
    const failed = db.runCommand({selfTestNoSuchCommand: 1});
    assert.eq(0, failed.ok);
    assert.commandFailed(failed);
    assert.commandFailedWithCode(failed, ErrorCodes.CommandNotFound);
    assert.commandFailedWithCode(failed, [ErrorCodes.BadValue, ErrorCodes.CommandNotFound]);
    assert.throws(() => assert.commandFailedWithCode(failed, ErrorCodes.BadValue));
    assert.throws(() => assert.commandWorked(failed));
    assert.commandFailedWithCode(db.adminCommand({selfTestNoSuchCommand: 1}), ErrorCodes.CommandNotFound);
    assert.commandFailedWithCode(() => db.getSiblingDB("other").runCommand({nope: 1}), 59);
    assert.commandWorked(db.runCommand({ping: 1}));
    assert.throws(() => assert.commandFailed(db.runCommand({ping: 1})));
}

function writeResults() {
    const dup = {ok: 1, n: 0, writeErrors: [{index: 0, code: 11000, errmsg: "E11000 duplicate key"}]};
    assert.commandFailedWithCode(dup, ErrorCodes.DuplicateKey);
    assert.writeError(dup);
    assert.writeErrorWithCode(dup, ErrorCodes.DuplicateKey);
    assert.throws(() => assert.writeOK(dup));
    assert.throws(() => assert.writeError({ok: 1, n: 1}));
    assert.writeOK({ok: 1, n: 1});
    assert.writeOK({acknowledged: true, insertedId: 1});
    const wce = {ok: 1, n: 1, writeConcernError: {code: 64, errmsg: "timeout"}};
    assert.commandFailedWithCode(wce, ErrorCodes.WriteConcernFailed);
}

function thrownErrors() {
    const err = assert.throwsWithCode(() => {
        const e = new Error("boom");
        e.code = 5;
        throw e;
    }, 5);
    assert.eq("boom", err.message);
    assert.commandFailedWithCode(err, 5);
    assert.throws(() => assert.throwsWithCode(() => 1, 5));
    assert.eq(2, assert.doesNotThrow(() => 2));
}

function errorCodesTable() {
    assert.eq(11000, ErrorCodes.DuplicateKey);
    assert.eq(26, ErrorCodes.NamespaceNotFound);
    assert.eq(53, ErrorCodes.InvalidIdField);
    assert.eq(40415, ErrorCodes.IDLUnknownField);
    assert.eq("DuplicateKey", ErrorCodeStrings[11000]);
    assert.throws(() => ErrorCodes.NoSuchCodeName);
    assert.throws(() => assert.commandFailedWithCode({ok: 0, code: 1}, undefined));
}

function printing() {
    assert.eq('{ "a" : 1, "b" : [ 1, "x" ] }', tojsononeline({a: 1, b: [1, "x"]}));
    assert.eq('ObjectId("507f1f77bcf86cd799439011")', tojson(ObjectId("507f1f77bcf86cd799439011")));
    assert.eq("NumberLong(3)", tojson(NumberLong("3")));
    assert.eq('ISODate("1970-01-01T00:00:00.000Z")', tojson(new Date(0)));
    assert.eq("Timestamp(1, 2)", tojson(Timestamp({t: 1, i: 2})));
}

function ordering() {
    assert.eq(-1, bsonWoCompare({a: 1}, {a: 2}));
    assert.eq(0, bsonWoCompare({a: 1}, {a: NumberLong("1")}));
    assert.eq(-1, bsonWoCompare({a: null}, {a: 1}));
    assert.eq(1, bsonWoCompare({a: "s"}, {a: 100}));
    assert.eq(0, bsonUnorderedFieldsCompare({a: 1, b: 2}, {b: 2, a: 1}));
}

function soon() {
    let n = 0;
    assert.soon(() => ++n > 3, "counter", 5000, 1);
    assert.soon(() => db.runCommand({ping: 1}).ok === 1);
    assert.throws(() => assert.soon(() => false, "never", 50, 10));
}

function scenarioNamesInFailures() {
    function failingScenario() {
        db.runCommand({ping: 1});  // a server round trip loses names in mongosh stacks
        assert.eq(1, 2);
    }
    const e = assert.throws(() => runScenarios(failingScenario));
    assert(e.message.includes("in scenario: failingScenario"), e.message);
}

function testData() {
    assert.eq("assert_lib", jsTestName());
    assert.eq(TestData.testName, jsTest.name());
    assert(TestData.port > 0);
}

equalityHelpers();
messagesIncludeCallerText();
commandReplies();
writeResults();
thrownErrors();
errorCodesTable();
printing();
ordering();
soon();
scenarioNamesInFailures();
testData();
