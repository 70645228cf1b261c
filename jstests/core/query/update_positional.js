/**
 * Positional $, all-positional $[] and filtered $[<id>] with arrayFilters,
 * and their errors: BadValue (2) and FailedToParse (9).
 */
const coll = db[jsTestName()];

function doc() {
    return coll.findOne({_id: 1});
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1, arr: [1, 2, 3, 4], grades: [{g: 80, m: 1}, {g: 90, m: 2}]}));
}

function positionalUpdatesFirstMatch() {
    assert.commandWorked(coll.updateOne({_id: 1, arr: 2}, {$set: {"arr.$": 20}}));
    assert.eq([1, 20, 3, 4], doc().arr);
    assert.commandWorked(coll.updateOne({_id: 1, "grades.g": 90}, {$set: {"grades.$.m": 5}}));
    assert.eq([{g: 80, m: 1}, {g: 90, m: 5}], doc().grades);
}

function allPositional() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$inc: {"arr.$[]": 1}}));
    assert.eq([2, 21, 4, 5], doc().arr);
}

function filteredPositional() {
    assert.commandWorked(coll.updateOne({_id: 1}, {$set: {"arr.$[e]": 0}}, {arrayFilters: [{e: {$gte: 5}}]}));
    assert.eq([2, 0, 4, 0], doc().arr);
}

function filteredPositionalOnSubdocuments() {
    assert.commandWorked(
        coll.updateOne({_id: 1}, {$inc: {"grades.$[g].g": 1}}, {arrayFilters: [{"g.g": {$lt: 85}}]}));
    assert.eq([{g: 81, m: 1}, {g: 90, m: 5}], doc().grades);
}

function positionalErrors() {
    const cmd = (u, extra) => db.runCommand(
        {update: coll.getName(), updates: [Object.assign({q: {_id: 1}, u: u}, extra || {})]});
    // $ needs the query to match an array element.
    assert.commandFailedWithCode(cmd({$set: {"arr.$": 1}}), ErrorCodes.BadValue);
    // $[x] without a matching array filter.
    assert.commandFailedWithCode(cmd({$set: {"arr.$[x]": 1}}), ErrorCodes.BadValue);
    // An array filter that no update path uses.
    assert.commandFailedWithCode(cmd({$set: {a: 1}}, {arrayFilters: [{x: 1}]}), ErrorCodes.FailedToParse);
}

runScenarios(setUp, positionalUpdatesFirstMatch, allPositional, filteredPositional,
             filteredPositionalOnSubdocuments,
             positionalErrors);
