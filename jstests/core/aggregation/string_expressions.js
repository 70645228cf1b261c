/**
 * String expressions: $concat $substrBytes $substrCP $toLower $toUpper $split $trim
 * $strLenCP $indexOfCP $regexMatch $regexFind $regexFindAll $replaceOne $replaceAll.
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

function basics() {
    assert.eq("ab-c", evalExpr({$concat: ["a", "b", "-", "$x"]}, {x: "c"}));
    assert.eq(null, evalExpr({$concat: ["a", "$missing"]}));
    assert.eq("bc", evalExpr({$substrBytes: ["abcd", 1, 2]}));
    assert.eq("éa", evalExpr({$substrCP: ["héat", 1, 2]}));
    assert.eq("abc", evalExpr({$toLower: "AbC"}));
    assert.eq("ABC", evalExpr({$toUpper: "aBc"}));
    assert.eq(["a", "b", "c"], evalExpr({$split: ["a,b,c", ","]}));
    assert.eq("x", evalExpr({$trim: {input: "  x \n"}}));
    assert.eq("x--", evalExpr({$ltrim: {input: "--x--", chars: "-"}}));
    assert.eq(4, evalExpr({$strLenCP: "héat"}));
    assert.eq(5, evalExpr({$strLenBytes: "héat"}));
    assert.eq(2, evalExpr({$indexOfCP: ["héat", "a"]}));
    assert.eq(-1, evalExpr({$indexOfBytes: ["abc", "z"]}));
    assert.eq(0, evalExpr({$strcasecmp: ["ABC", "abc"]}));
    assert.eq("a-b-c", evalExpr({$replaceAll: {input: "a b c", find: " ", replacement: "-"}}));
    assert.eq("a-b c", evalExpr({$replaceOne: {input: "a b c", find: " ", replacement: "-"}}));
}

function regex() {
    assert.eq(true, evalExpr({$regexMatch: {input: "Hello", regex: "^h", options: "i"}}));
    assert.eq(false, evalExpr({$regexMatch: {input: "Hello", regex: /^x/}}));
    assert.eq({match: "l1", idx: 2, captures: ["1"]},
              evalExpr({$regexFind: {input: "abl1l2", regex: "l(\\d)"}}));
    assert.eq(2, evalExpr({$regexFindAll: {input: "abl1l2", regex: "l\\d"}}).length);
    assert.eq(null, evalExpr({$regexFind: {input: "abc", regex: "z"}}));
}

function errors() {
    assert.commandFailedWithCode(evalError({$concat: ["a", 1]}), 16702);
    assert.commandFailedWithCode(evalError({$split: [1, ","]}), 40085);
    assert.commandFailedWithCode(evalError({$split: ["a", ""]}), 40087);
    assert.commandFailedWithCode(evalError({$strLenCP: 1}), 34471);
    assert.commandFailedWithCode(evalError({$substrCP: ["abc", -1, 1]}), 34455);
    assert.commandFailedWithCode(evalError({$substrCP: ["abc", 1, -1]}), 34454);
    assert.commandFailedWithCode(evalError({$regexMatch: {input: 1, regex: "a"}}), 51104);
    assert.commandFailedWithCode(evalError({$regexMatch: {input: "a", regex: "a", options: "q"}}), 51108);
}

runScenarios(basics, regex, errors);
