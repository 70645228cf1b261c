/**
 * $regex and regex literals with options i, m, s and x, matching strings and
 * array elements; $options without $regex fails with BadValue (2).
 */
const coll = db[jsTestName()];

function ids(filter) {
    return coll.find(filter).sort({_id: 1}).toArray().map((d) => d._id);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, s: "abc"},
        {_id: 2, s: "ABC"},
        {_id: 3, s: "x\nabc"},
        {_id: 4, s: "a\nc"},
        {_id: 5, s: ["zz", "abz"]},
        {_id: 6, s: 5},
    ]));
}

function plainRegex() {
    assert.eq([1, 5], ids({s: /^ab/}));
    assert.eq([1, 5], ids({s: {$regex: "^ab"}}));
    assert.eq([1, 3], ids({s: {$regex: /bc$/}}));
}

function caseInsensitiveOption() {
    assert.eq([1, 2, 5], ids({s: {$regex: "^ab", $options: "i"}}));
    assert.eq([1, 2, 5], ids({s: /^ab/i}));
}

function multilineOption() {
    assert.eq([1, 5], ids({s: {$regex: "^abc?"}}));
    assert.eq([1, 3, 5], ids({s: {$regex: "^abc?", $options: "m"}}));
}

function dotAllOption() {
    assert.eq([1], ids({s: {$regex: "^a.c$"}}));
    assert.eq([1, 4], ids({s: {$regex: "^a.c$", $options: "s"}}));
}

function extendedOption() {
    assert.eq([], ids({s: {$regex: "a b c"}}));
    assert.eq([1, 3], ids({s: {$regex: "a b c # comment", $options: "x"}}));
}

function optionsWithoutRegexFails() {
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {s: {$options: "i"}}}), ErrorCodes.BadValue);
}

function invalidPatternOrFlagFails() {
    // Codes 51091 (invalid regular expression) and 51108 (invalid flag).
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {s: {$regex: "("}}}), 51091);
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {s: {$regex: "a", $options: "z"}}}), 51108);
}

function flagsInBothPlacesFail() {
    // A regex with flags and a non-empty $options: the code says which came first.
    const find = (filter) => db.runCommand({find: coll.getName(), filter: {s: filter}});
    assert.commandFailedWithCode(find({$regex: /ab/i, $options: "s"}), 51075);
    assert.commandFailedWithCode(find({$options: "s", $regex: /ab/i}), 51074);
    assert.commandWorked(find({$regex: /ab/i, $options: ""}));
}

runScenarios(setUp, plainRegex, caseInsensitiveOption, multilineOption, dotAllOption, extendedOption,
             optionsWithoutRegexFails, invalidPatternOrFlagFails, flagsInBothPlacesFail);
