/**
 * $densify's specification is parsed by the IDL parser (idl/document_source_densify.idl): the
 * generic codes for missing (40414), unknown (40415) and mistyped (14) fields, then the rules
 * between fields with upstream's codes. An explicit range without partitions is filled even
 * when no document holds the field.
 */
const coll = db[jsTestName()];
coll.drop();

function densify(spec) {
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$densify: spec}], cursor: {}});
}
const D = (s) => ISODate("2024-03-0" + s + "T00:00:00Z");

const cases = [
    [{range: {step: 1, bounds: "full"}}, 40414],
    [{field: "x"}, 40414],
    [{field: "x", range: {bounds: "full"}}, 40414],
    [{field: "x", range: {step: 1}}, 40414],
    [{field: "x", range: {step: 1, bounds: "full"}, extra: 1}, 40415],
    [{field: "x", range: {step: 1, bounds: "full", extra: 1}}, 40415],
    [{field: 3, range: {step: 1, bounds: "full"}}, ErrorCodes.TypeMismatch],
    [{field: "x", range: {step: "1", bounds: "full"}}, ErrorCodes.TypeMismatch],
    [{field: "x", range: {step: 1, bounds: 7}}, ErrorCodes.TypeMismatch],
    [{field: "x", range: {step: 1, bounds: "full", unit: 5}}, ErrorCodes.TypeMismatch],
    [{field: "x", partitionByFields: "p", range: {step: 1, bounds: "full"}},
     ErrorCodes.TypeMismatch],
    [{field: "x", partitionByFields: [1], range: {step: 1, bounds: "full"}},
     ErrorCodes.TypeMismatch],
    [{field: "x", partitionByFields: ["x"], range: {step: 1, bounds: "full"}}, 8993000],
    [{field: "x", partitionByFields: ["x.y"], range: {step: 1, bounds: "full"}}, 8993000],
    [{field: "x.y", partitionByFields: ["x"], range: {step: 1, bounds: "full"}}, 9554500],
    [{field: "$x", range: {step: 1, bounds: "full"}}, 16410],
    [{field: "x", partitionByFields: ["$p"], range: {step: 1, bounds: "full"}}, 16410],
    [{field: "x", range: {step: 0, bounds: "full"}}, 5733401],
    [{field: "x", range: {step: -2, bounds: [0, 4]}}, 5733401],
    [{field: "x", range: {step: 1, bounds: "partition"}}, 5733408],
    [{field: "x", partitionByFields: [], range: {step: 1, bounds: "partition"}}, 5733408],
    [{field: "x", range: {step: 1, bounds: [0]}}, 5733403],
    [{field: "x", range: {step: 1, bounds: [0, 1, 2]}}, 5733403],
    [{field: "x", range: {step: 1, bounds: [3, 1]}}, 5733402],
    [{field: "x", range: {step: 1, bounds: [D(3), D(1)], unit: "day"}}, 5733402],
    [{field: "x", range: {step: 1, bounds: [0, 4], unit: "day"}}, 5733409],
    [{field: "x", range: {step: 1, bounds: [0, D(1)]}}, 5733406],
    [{field: "x", range: {step: 1, bounds: [D(1), 4], unit: "day"}}, 5733402],
    [{field: "x", range: {step: 1.5, bounds: [D(1), D(3)], unit: "day"}}, 6586400],
];
for (const [spec, code] of cases)
    assert.commandFailedWithCode(densify(spec), code, tojson(spec));

// Optional fields given as null are absent (the IDL rule).
assert.commandWorked(densify({field: "x", partitionByFields: null,
                              range: {step: 1, bounds: "full", unit: null}}));
assert.commandWorked(densify({field: "x", range: {step: NumberDecimal("0.5"), bounds: [0, 1]}}));

// An explicit range fills an empty collection, and around documents without the field.
let out = coll.aggregate([{$densify: {field: "x", range: {step: 2, bounds: [0, 7]}}}]).toArray();
assert.eq(out.map(d => d.x), [0, 2, 4, 6], out);
assert.commandWorked(coll.insert({_id: 1, other: true}));
out = coll.aggregate([{$densify: {field: "x", range: {step: 2, bounds: [0, 3]}}},
                      {$project: {_id: 0}}]).toArray();
assert.sameMembers(out, [{other: true}, {x: 0}, {x: 2}], out);
// With partitions, nothing is generated for a collection without partitions.
assert.commandWorked(coll.remove({}));
out = coll.aggregate([
    {$densify: {field: "x", partitionByFields: ["p"], range: {step: 1, bounds: [0, 3]}}}
]).toArray();
assert.eq(out, []);

// A value of the other kind than the range (a date in a numeric range, a number with a unit)
// is upstream's 6053600.
assert.commandWorked(coll.insert([{x: new Date(0)}, {x: new Date(86400000)}]));
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), pipeline: [{$densify: {field: "x", range: {step: 1, bounds: "full"}}}], cursor: {}}),
    6053600);
assert.commandWorked(coll.remove({}));
assert.commandWorked(coll.insert([{x: 1}, {x: 3}]));
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), pipeline: [{$densify: {field: "x", range: {step: 1, bounds: "full", unit: "day"}}}], cursor: {}}),
    6053600);
