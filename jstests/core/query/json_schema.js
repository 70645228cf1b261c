/**
 * $jsonSchema basics: required, properties with bsonType, minimum/maximum,
 * and unknown keywords failing with FailedToParse (9).
 */
const coll = db[jsTestName()];

function ids(filter) {
    return coll.find(filter).sort({_id: 1}).toArray().map((d) => d._id);
}

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, name: "a", age: NumberInt(30)},
        {_id: 2, name: "b", age: 15.5},
        {_id: 3, name: 7},
        {_id: 4, age: NumberInt(40)},
    ]));
}

function requiredFields() {
    assert.eq([1, 2, 3], ids({$jsonSchema: {required: ["name"]}}));
    assert.eq([1, 2], ids({$jsonSchema: {required: ["name", "age"]}}));
}

function propertiesWithBsonType() {
    assert.eq([1, 2, 4], ids({$jsonSchema: {properties: {name: {bsonType: "string"}}}}));
    assert.eq([1, 3, 4], ids({$jsonSchema: {properties: {age: {bsonType: "int"}}}}));
    assert.eq([1, 2, 3, 4], ids({$jsonSchema: {properties: {age: {bsonType: "number"}}}}));
}

function numericBounds() {
    assert.eq([1, 3], ids({$jsonSchema: {properties: {age: {minimum: 20, maximum: 35}}}}));
    assert.eq([1], ids({$jsonSchema: {required: ["age"], properties: {age: {minimum: 20, maximum: 35}}}}));
}

function unknownKeywordFails() {
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {$jsonSchema: {foo: 1}}}), ErrorCodes.FailedToParse);
}

function validatorRejectsNonMatchingDocuments() {
    const v = db[jsTestName() + "_validated"];
    v.drop();
    assert.commandWorked(db.createCollection(
        v.getName(), {validator: {$jsonSchema: {required: ["x"], properties: {x: {bsonType: "int"}}}}}));
    assert.commandWorked(v.insert({x: NumberInt(1)}));
    assert.commandFailedWithCode(v.insert({y: 1}), ErrorCodes.DocumentValidationFailure);
    assert.commandFailedWithCode(v.insert({x: "s"}), ErrorCodes.DocumentValidationFailure);
    assert.eq(1, v.find().itcount());
}

runScenarios(setUp, requiredFields, propertiesWithBsonType, numericBounds, unknownKeywordFails,
             validatorRejectsNonMatchingDocuments);
