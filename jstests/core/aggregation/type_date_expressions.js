/**
 * Type expressions ($type $convert $toInt $toString $toDate ...) and date
 * expressions ($year ... $dateToString $dateFromString $dateAdd $dateDiff ...).
 */
const coll = db[jsTestName()];

function evalExpr(expr, doc) {
    coll.drop();
    assert.commandWorked(coll.insert(Object.assign({_id: 1}, doc || {})));
    return coll.aggregate([{$project: {_id: 0, r: expr}}]).toArray()[0].r;
}

function evalError(expr) {
    coll.drop();
    assert.commandWorked(coll.insert({_id: 1}));
    return db.runCommand({aggregate: coll.getName(), pipeline: [{$project: {r: expr}}], cursor: {}});
}

function types() {
    assert.eq("double", evalExpr({$type: 1.5}));
    assert.eq("missing", evalExpr({$type: "$nope"}));
    assert.eq("array", evalExpr({$type: [[1]]}));
    assert.eq(true, evalExpr({$isNumber: NumberLong(1)}));
    assert.eq(42, evalExpr({$toInt: "42"}));
    assert.eq(NumberLong(5), evalExpr({$toLong: 5.9}));
    assert.eq(2.5, evalExpr({$toDouble: "2.5"}));
    assert.eq("2.5", evalExpr({$toString: 2.5}));
    assert.eq("7", evalExpr({$toString: NumberLong(7)}));
    assert.eq(true, evalExpr({$toBool: "false"}));
    assert.eq(ISODate("2021-02-03T04:05:06Z"), evalExpr({$toDate: "2021-02-03T04:05:06Z"}));
    assert.eq(ObjectId("5f1e2d3c4b5a697887766554"),
              evalExpr({$toObjectId: "5f1e2d3c4b5a697887766554"}));
    assert.eq(-1, evalExpr({$convert: {input: "abc", to: "int", onError: -1}}));
    assert.eq("n", evalExpr({$convert: {input: null, to: "int", onNull: "n"}}));
    assert.eq(1, evalExpr({$convert: {input: true, to: 16}}));
}

function typeErrors() {
    assert.commandFailedWithCode(evalError({$toInt: "abc"}), ErrorCodes.ConversionFailure);
    assert.commandFailedWithCode(evalError({$convert: {input: 1, to: "bogus"}}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(evalError({$convert: {to: "int"}}), ErrorCodes.FailedToParse);
}

function dates() {
    const doc = {d: ISODate("2021-03-14T23:30:45.123Z")};
    assert.eq(2021, evalExpr({$year: "$d"}, doc));
    assert.eq(3, evalExpr({$month: "$d"}, doc));
    assert.eq(14, evalExpr({$dayOfMonth: "$d"}, doc));
    assert.eq(23, evalExpr({$hour: "$d"}, doc));
    assert.eq(30, evalExpr({$minute: "$d"}, doc));
    assert.eq(45, evalExpr({$second: "$d"}, doc));
    assert.eq(123, evalExpr({$millisecond: "$d"}, doc));
    assert.eq(1, evalExpr({$dayOfWeek: "$d"}, doc));
    assert.eq(73, evalExpr({$dayOfYear: "$d"}, doc));
    assert.eq(10, evalExpr({$isoWeek: "$d"}, doc));
    assert.eq(7, evalExpr({$isoDayOfWeek: "$d"}, doc));
    assert.eq(15, evalExpr({$dayOfMonth: {date: "$d", timezone: "Europe/Paris"}}, doc));
    assert.eq("2021-03-14", evalExpr({$dateToString: {date: "$d", format: "%Y-%m-%d"}}, doc));
    assert.eq("2021-03-14T23:30:45.123Z", evalExpr({$dateToString: {date: "$d"}}, doc));
    assert.eq(ISODate("2021-03-14T23:30:00Z"),
              evalExpr({$dateFromString: {dateString: "2021-03-14T23:30:00Z"}}));
    assert.eq(ISODate("2021-03-14T22:30:00Z"),
              evalExpr({$dateFromString: {dateString: "2021-03-14 23:30", format: "%Y-%m-%d %H:%M",
                                          timezone: "+01:00"}}));
    assert.eq({year: 2021, month: 3, day: 14, hour: 23, minute: 30, second: 45, millisecond: 123},
              evalExpr({$dateToParts: {date: "$d"}}, doc));
    assert.eq(ISODate("2021-03-14T00:00:00Z"), evalExpr({$dateFromParts: {year: 2021, month: 3, day: 14}}));
    assert.eq(ISODate("2021-04-14T23:30:45.123Z"),
              evalExpr({$dateAdd: {startDate: "$d", unit: "month", amount: 1}}, doc));
    assert.eq(ISODate("2021-03-13T23:30:45.123Z"),
              evalExpr({$dateSubtract: {startDate: "$d", unit: "day", amount: 1}}, doc));
    assert.eq(NumberLong(2),
              evalExpr({$dateDiff: {startDate: ISODate("2021-01-31"), endDate: ISODate("2021-03-01"),
                                    unit: "month"}}));
}

function dateErrors() {
    assert.commandFailedWithCode(evalError({$year: "x"}), 16006);
    assert.commandFailedWithCode(evalError({$year: {date: new Date(), timezone: "Nowhere/X"}}), 40485);
    assert.commandFailedWithCode(evalError({$dateFromString: {dateString: "nope"}}),
                                 ErrorCodes.ConversionFailure);
    assert.commandFailedWithCode(evalError({$dateToString: {date: new Date(), format: "%Q"}}), 18536);
}

runScenarios(types, typeErrors, dates, dateErrors);
