/**
 * Decimal128 in aggregation expressions and accumulators: exact arithmetic, type
 * promotion (int/long/double + decimal -> decimal), conversions and their errors.
 */
const coll = db[jsTestName()];

function evalExpr(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return coll.aggregate([{$project: {_id: 0, r: expr}}]).toArray()[0].r;
}

function evalError(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: expr}}], cursor: {}});
}

/** The value is a decimal whose text form is exactly `str`. */
function assertDec(str, v, msg) {
    assert.eq("Decimal128", v && v._bsontype, "expected a decimal, got " + tojson(v) + " " + (msg || ""));
    assert.eq(str, v.toString(), msg);
}

function arithmetic() {
    assertDec("0.3", evalExpr({$add: [NumberDecimal("0.1"), NumberDecimal("0.2")]}));
    assertDec("0.3", evalExpr({$add: ["$a", "$b"]}, {a: NumberDecimal("0.1"), b: NumberDecimal("0.2")}));
    assertDec("3.5", evalExpr({$add: [1, NumberLong(2), NumberDecimal("0.5")]}));
    assertDec("1.00", evalExpr({$subtract: [NumberDecimal("1.10"), NumberDecimal("0.10")]}));
    assertDec("-1", evalExpr({$subtract: [NumberInt(1), NumberDecimal("2")]}));
    assertDec("7.50", evalExpr({$multiply: [NumberDecimal("2.50"), 3]}));
    assertDec("0.3333333333333333333333333333333333", evalExpr({$divide: [NumberDecimal("1"), 3]}));
    assertDec("0.25", evalExpr({$divide: [1, NumberDecimal("4")]}));
    assertDec("1.5", evalExpr({$mod: [NumberDecimal("7.5"), 2]}));
    assertDec("3.5", evalExpr({$abs: NumberDecimal("-3.5")}));
    assertDec("2", evalExpr({$ceil: NumberDecimal("1.2")}));
    assertDec("-2", evalExpr({$floor: NumberDecimal("-1.2")}));
    assertDec("1.24", evalExpr({$round: [NumberDecimal("1.235"), 2]}));
    assertDec("2", evalExpr({$round: NumberDecimal("2.5")}));
    assertDec("1.23", evalExpr({$trunc: [NumberDecimal("1.239"), 2]}));
    assertDec("1.2", evalExpr({$round: [NumberDecimal("1.2"), 3]}));
    assertDec("4", evalExpr({$sqrt: NumberDecimal("16")}));
    assertDec("1024", evalExpr({$pow: [NumberDecimal("2"), 10]}));
    assertDec("3", evalExpr({$log10: NumberDecimal("1000")}));
    assertDec("3", evalExpr({$log: [NumberDecimal("1000"), 10]}));
    assertDec("1", evalExpr({$exp: NumberDecimal("0")}));
    assertDec("0", evalExpr({$ln: NumberDecimal("1")}));
    // Doubles join decimals rounded to 15 significant digits.
    assertDec("0.600000000000000", evalExpr({$add: [0.1, NumberDecimal("0.5")]}));
    assert.eq(null, evalExpr({$add: [NumberDecimal("1"), "$missing"]}));

    assert.commandFailedWithCode(evalError({$divide: [1, NumberDecimal("0")]}), 16608);
    assert.commandFailedWithCode(evalError({$mod: [NumberDecimal("1"), NumberDecimal("0.0")]}), 16610);
    assert.commandFailedWithCode(evalError({$sqrt: NumberDecimal("-1")}), 28714);
    assert.commandFailedWithCode(evalError({$ln: NumberDecimal("0")}), 28766);
    assert.commandFailedWithCode(evalError({$log10: NumberDecimal("-5")}), 28761);
    assert.commandFailedWithCode(evalError({$log: [NumberDecimal("10"), NumberDecimal("1")]}), 28759);
    assert.commandFailedWithCode(evalError({$pow: [NumberDecimal("0"), -1]}), 28764);
}

function comparisons() {
    assert.eq(false, evalExpr({$eq: [NumberDecimal("0.1"), 0.1]}));
    assert.eq(true, evalExpr({$eq: [NumberDecimal("1.000"), 1]}));
    assert.eq(true, evalExpr({$eq: [NumberDecimal("9223372036854775807"), NumberLong("9223372036854775807")]}));
    assert.eq(false, evalExpr({$eq: [NumberDecimal("9223372036854775806"), NumberLong("9223372036854775807")]}));
    assert.eq(true, evalExpr({$lt: [NumberDecimal("0.1"), 0.1]}));
    assert.eq(-1, evalExpr({$cmp: [NumberDecimal("NaN"), -Infinity]}));
    assert.eq(true, evalExpr({$eq: [NumberDecimal("NaN"), NaN]}));
}

function conversions() {
    assertDec("0.100000000000000", evalExpr({$toDecimal: 0.1}));
    assertDec("5", evalExpr({$toDecimal: NumberInt(5)}));
    assertDec("9223372036854775807", evalExpr({$toDecimal: NumberLong("9223372036854775807")}));
    assertDec("1", evalExpr({$toDecimal: true}));
    assertDec("1.50", evalExpr({$toDecimal: "1.50"}));
    assertDec("-Infinity", evalExpr({$toDecimal: "-Infinity"}));
    assertDec("0.1", evalExpr({$convert: {input: "0.1", to: "decimal"}}));
    assert.eq("1.50", evalExpr({$toString: NumberDecimal("1.50")}));
    assert.eq("1E+10", evalExpr({$toString: NumberDecimal("1E+10")}));
    assertDec("123.456", evalExpr({$toDecimal: {$toString: NumberDecimal("123.456")}}));
    assert.eq(2, evalExpr({$toInt: NumberDecimal("2.9")}));
    assert.eq(-2, evalExpr({$toLong: NumberDecimal("-2.9")}));
    assert.eq(NumberLong("9223372036854775807"), evalExpr({$toLong: NumberDecimal("9223372036854775807")}));
    assert.eq(0.5, evalExpr({$toDouble: NumberDecimal("0.5")}));
    assert.eq(true, evalExpr({$toBool: NumberDecimal("0.001")}));
    assert.eq(false, evalExpr({$toBool: NumberDecimal("-0.000")}));
    assert.eq(ISODate("1970-01-01T00:00:01Z"), evalExpr({$toDate: NumberDecimal("1000.7")}));

    const kConversionFailure = 241;
    assert.commandFailedWithCode(evalError({$toInt: NumberDecimal("3000000000")}), kConversionFailure);
    assert.commandFailedWithCode(evalError({$toLong: NumberDecimal("1E+19")}), kConversionFailure);
    assert.commandFailedWithCode(evalError({$toInt: NumberDecimal("NaN")}), kConversionFailure);
    assert.commandFailedWithCode(evalError({$toLong: NumberDecimal("-Infinity")}), kConversionFailure);
    assert.commandFailedWithCode(evalError({$toDouble: NumberDecimal("1E+400")}), kConversionFailure);
    assert.commandFailedWithCode(evalError({$toDecimal: "abc"}), kConversionFailure);
    assert.eq(-1, evalExpr({$convert: {input: NumberDecimal("1E+40"), to: "int", onError: -1}}));
}

function accumulators() {
    coll.drop();
    assert.commandWorked(coll.insert([
        {_id: 1, g: 1, v: NumberDecimal("0.1")},
        {_id: 2, g: 1, v: NumberDecimal("0.2")},
        {_id: 3, g: 1, v: NumberInt(1)},
        {_id: 4, g: 2, v: 1},
        {_id: 5, g: 2, v: NumberLong(2)},
        {_id: 6, g: 3, v: NumberDecimal("1")},
        {_id: 7, g: 3, v: NumberDecimal("2")},
        {_id: 8, g: 3, v: NumberDecimal("2")},
    ]));
    const res = coll.aggregate([
                        {$group: {_id: "$g", s: {$sum: "$v"}, a: {$avg: "$v"}, mn: {$min: "$v"}, mx: {$max: "$v"}}},
                        {$sort: {_id: 1}}
                    ]).toArray();
    assertDec("1.3", res[0].s);
    assertDec("0.4333333333333333333333333333333333", res[0].a);
    assertDec("0.1", res[0].mn);
    assert.eq(1, res[0].mx);
    assert.eq(3, res[1].s);
    assert.eq("Decimal128" === (res[1].s && res[1].s._bsontype), false);
    assert.eq(1.5, res[1].a);
    assertDec("5", res[2].s);
    assertDec("1.666666666666666666666666666666667", res[2].a);
}

arithmetic();
comparisons();
conversions();
accumulators();
