/**
 * Result types and error codes of the date expressions, as upstream 8.0: $dateDiff and
 * $isoWeekYear are longs, the other date parts ints; $dateFromParts bounds its parts (31034,
 * 40523, 31095), refuses non-integers (40515), reports millisecond overflow (DurationOverflow
 * 159) and returns null at the first nullish part; $dateFromString refuses a day past the
 * end of its month (ConversionFailure, caught by onError).
 */
const d = ISODate("2024-12-30T10:20:30.456Z");

function evaluate(expr) {
    const res = assert.commandWorked(db.runCommand({
        aggregate: 1,
        pipeline: [{$documents: [{d: d}]}, {$project: {_id: 0, r: expr}}],
        cursor: {}
    }));
    return res.cursor.firstBatch[0].r;
}

function failsWith(expr, code) {
    assert.commandFailedWithCode(db.runCommand({
        aggregate: 1,
        pipeline: [{$documents: [{d: d}]}, {$project: {_id: 0, r: expr}}],
        cursor: {}
    }),
                                 code,
                                 tojson(expr));
}

function resultTypes() {
    const diff = evaluate({$dateDiff: {startDate: "$d", endDate: {$add: ["$d", 864e5]}, unit: "day"}});
    assert(diff instanceof NumberLong, tojson(diff));
    assert.eq(NumberLong(1), diff);
    const isoYear = evaluate({$isoWeekYear: "$d"});
    assert(isoYear instanceof NumberLong, tojson(isoYear));
    assert.eq(NumberLong(2025), isoYear);
    for (const op of ["$year", "$month", "$dayOfMonth", "$hour", "$minute", "$second",
                      "$millisecond", "$dayOfWeek", "$dayOfYear", "$week", "$isoWeek",
                      "$isoDayOfWeek"]) {
        const v = evaluate({[op]: "$d"});
        assert.eq("number", typeof v, op + " " + tojson(v));
    }
    assert.eq(2024, evaluate({$year: "$d"}));
    assert.eq(456, evaluate({$millisecond: "$d"}));
}

function dateFromPartsBounds() {
    failsWith({$dateFromParts: {year: 2020, month: 40000}}, 31034);
    failsWith({$dateFromParts: {year: 2020, hour: -32769}}, 31034);
    failsWith({$dateFromParts: {isoWeekYear: 2020, isoWeek: 32768}}, 31034);
    failsWith({$dateFromParts: {year: 0}}, 40523);
    failsWith({$dateFromParts: {year: 10000}}, 40523);
    failsWith({$dateFromParts: {isoWeekYear: 10000}}, 31095);
    failsWith({$dateFromParts: {year: 2020.5}}, 40515);
    failsWith({$dateFromParts: {year: 2020, second: NumberLong("9000000000000000000")}},
              ErrorCodes.DurationOverflow);
    // Out-of-range but in-bounds parts roll over.
    assert.eq(ISODate("2021-01-31T02:00:00.995Z"),
              evaluate({
                  $dateFromParts:
                      {year: 2020, month: 14, day: -1, hour: 25, second: 3601, millisecond: -5}
              }));
    // Hours are wall-clock time in the timezone (03:00 EDT on the day DST starts).
    assert.eq(ISODate("2024-03-10T07:00:00Z"),
              evaluate({
                  $dateFromParts:
                      {year: 2024, month: 3, day: 10, hour: 3, timezone: "America/New_York"}
              }));
    // A nullish time part gives null before the date parts are checked.
    assert.eq(null, evaluate({$dateFromParts: {year: "not a number", hour: null}}));
}

function dateFromStringRefusesInvalidDays() {
    failsWith({$dateFromString: {dateString: "2024-02-30"}}, ErrorCodes.ConversionFailure);
    failsWith({$dateFromString: {dateString: "2023-02-29T00:00:00Z"}},
              ErrorCodes.ConversionFailure);
    assert.eq("bad", evaluate({$dateFromString: {dateString: "2023-04-31", onError: "bad"}}));
    assert.eq(ISODate("2024-02-29T00:00:00Z"),
              evaluate({$dateFromString: {dateString: "2024-02-29"}}));
}

resultTypes();
dateFromPartsBounds();
dateFromStringRefusesInvalidDays();
