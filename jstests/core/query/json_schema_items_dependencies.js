/**
 * $jsonSchema array keywords (items as one schema or one schema per position, additionalItems
 * for the elements past them) and dependencies (property -> required names, or -> a schema
 * the whole object must match), with their parse errors.
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, a: [2, "x"]},
        {_id: 2, a: [2, "x", true]},
        {_id: 3, a: [3]},
        {_id: 4, a: []},
        {_id: 5, a: "not an array"},
        {_id: 6, p: 1, q: 1},
        {_id: 7, p: 1},
        {_id: 8, q: 1},
    ]));
}

function ids(schema) {
    return coll.find({$jsonSchema: schema}).sort({_id: 1}).toArray().map(d => d._id);
}

function itemsPerPosition() {
    assert.eq([1, 2, 4, 5, 6, 7, 8], ids({properties: {a: {items: [{multipleOf: 2}, {bsonType: "string"}]}}}));
    assert.eq([1, 2, 4, 5, 6, 7, 8], ids({properties: {a: {items: [{minimum: 2, maximum: 2}, {bsonType: "string"}]}}}));
    // additionalItems: false refuses elements past the positional schemas.
    assert.eq([1, 4, 5, 6, 7, 8],
              ids({properties: {a: {items: [{minimum: 2, maximum: 2}, {}], additionalItems: false}}}));
    assert.eq([1, 2, 3, 4, 5, 6, 7, 8],
              ids({properties: {a: {items: [{}, {}], additionalItems: {bsonType: "bool"}}}}));
    assert.eq([3, 4, 5, 6, 7, 8],
              ids({properties: {a: {items: [{}], additionalItems: {bsonType: "bool"}}}}));
    // With items as one schema, additionalItems does nothing.
    assert.eq([3, 4, 5, 6, 7, 8], ids({properties: {a: {items: {bsonType: "number"}, additionalItems: false}}}));
}

function multipleOf() {
    assert.eq([1, 2, 4, 5, 6, 7, 8], ids({properties: {a: {items: {anyOf: [{bsonType: "string"}, {bsonType: "bool"}, {multipleOf: 2}]}}}}));
    assert.eq([3, 4, 5, 6, 7, 8], ids({properties: {a: {items: {multipleOf: 1.5}}}}));
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {$jsonSchema: {multipleOf: 0}}}),
                                 ErrorCodes.FailedToParse);
    assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {$jsonSchema: {multipleOf: "2"}}}),
                                 ErrorCodes.TypeMismatch);
}

function dependencies() {
    assert.eq([1, 2, 3, 4, 5, 6, 8], ids({dependencies: {p: ["q"]}}));
    assert.eq([1, 2, 3, 4, 5, 7, 8], ids({dependencies: {p: {not: {required: ["q"]}}}}));
}

function parseErrors() {
    const find = (schema) => db.runCommand({find: coll.getName(), filter: {$jsonSchema: schema}});
    assert.commandFailedWithCode(find({items: [1]}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(find({items: [{}], additionalItems: 1}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(find({dependencies: 1}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(find({dependencies: {p: []}}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(find({dependencies: {p: [1]}}), ErrorCodes.TypeMismatch);
    assert.commandFailedWithCode(find({dependencies: {p: {nope: 1}}}), ErrorCodes.FailedToParse);
}

runScenarios(setUp, itemsPerPosition, multipleOf, dependencies, parseErrors);
