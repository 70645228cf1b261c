/**
 * Text indexes and $text: the stored spec's normal form, one text index per collection,
 * stemming and stop words, negated terms and phrases, case and diacritic sensitivity,
 * {$meta: "textScore"} in find (projection, sort) and aggregate, compound prefixes, and the
 * errors upstream gives (27 without a text index, 291 without the prefix equality or under
 * an $or with an unindexed clause, 17313 for $match with $text not first, BadValue for a
 * malformed $text), explain shapes (TEXT_OR when scores are read, else OR + FETCH).
 */
const coll = db[jsTestName()];

function setUp() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, title: "Running dogs", body: "The dogs ran through the park", cat: "a"},
        {_id: 2, title: "Cats", body: "A cat sleeps all day; cats sleep", cat: "a"},
        {_id: 3, title: "Dog", body: "Which food do dogs like?", cat: "b"},
        {_id: 4, title: "Café culture", body: "coffee and CAKE", cat: "b"},
        {_id: 5, title: "nothing here", cat: "a"},
        {_id: 6, other: "dogs everywhere"},
    ]));
    assert.commandWorked(coll.createIndex({title: "text", body: "text"}, {weights: {title: 5}}));
}

function ids(filter, projection) {
    return coll.find(filter, projection).toArray().map(d => d._id).sort((x, y) => x - y);
}

function storedSpec() {
    setUp();
    const idx = coll.getIndexes().filter(i => i.name === "title_text_body_text")[0];
    assert(idx, tojson(coll.getIndexes()));
    assert.docEq({_fts: "text", _ftsx: 1}, idx.key);
    assert.docEq({body: 1, title: 5}, idx.weights);
    assert.eq("english", idx.default_language);
    assert.eq("language", idx.language_override);
    assert.eq(3, idx.textIndexVersion);
    assert.commandFailedWithCode(coll.createIndex({other: "text"}), ErrorCodes.CannotCreateIndex);
    // The same index again is no change.
    assert.commandWorked(coll.createIndex({title: "text", body: "text"}, {weights: {title: 5}}));
}

function termsStemsAndStopWords() {
    setUp();
    assert.eq([1, 3], ids({$text: {$search: "dog"}}));
    assert.eq([1], ids({$text: {$search: "run"}}));
    assert.eq([2], ids({$text: {$search: "CATS"}}));
    assert.eq([], ids({$text: {$search: "the"}}));
    assert.eq([1, 2, 3], ids({$text: {$search: "dog cat"}}));
    // Fields outside the index are not searched.
    assert.eq([], ids({$text: {$search: "everywhere"}}));
    assert.eq([4], ids({$text: {$search: "cafe"}}));
}

function negationsAndPhrases() {
    setUp();
    assert.eq([3], ids({$text: {$search: "dog -park"}}));
    assert.eq([], ids({$text: {$search: "-dog"}}));
    assert.eq([1], ids({$text: {$search: "\"dogs ran\""}}));
    assert.eq([3], ids({$text: {$search: "dog -\"dogs ran\""}}));
    // A '-' inside a word is no negation.
    assert.eq([1, 3], ids({$text: {$search: "dog-park"}}));
}

function sensitivity() {
    setUp();
    assert.eq([4], ids({$text: {$search: "cake"}}));
    assert.eq([], ids({$text: {$search: "cake", $caseSensitive: true}}));
    assert.eq([4], ids({$text: {$search: "CAKE", $caseSensitive: true}}));
    assert.eq([], ids({$text: {$search: "cafe", $diacriticSensitive: true}}));
    assert.eq([4], ids({$text: {$search: "café", $diacriticSensitive: true}}));
    // $language none: no stemming, no stop words.
    // (The index holds English stems: "dogs" unstemmed finds nothing, "dog" finds both.)
    assert.eq([], ids({$text: {$search: "dogs", $language: "none"}}));
    assert.eq([1, 3], ids({$text: {$search: "dog", $language: "none"}}));
}

function scores() {
    setUp();
    const docs =
        coll.find({$text: {$search: "dog"}}, {score: {$meta: "textScore"}}).sort({
            score: {$meta: "textScore"}
        }).toArray();
    assert.eq(2, docs.length, tojson(docs));
    docs.forEach(d => assert.gt(d.score, 0, tojson(d)));
    assert.gte(docs[0].score, docs[1].score, tojson(docs));
    // The title weighs 5, and a string that is the term alone scores 1.1 times: "Dog" first.
    assert.eq(3, docs[0]._id, tojson(docs));
    // The score of one term is the sum over fields of weight * freq * coefficient.
    const one = coll.findOne({_id: 2, $text: {$search: "cat"}}, {s: {$meta: "textScore"}});
    // title "Cats": 5 * 1; body: cat, sleeps, day, cats, sleep (5 words, cat twice).
    assert.close(5 * 1 * 1 + 1 * 1.5 * (0.5 * 2 / 5 + 0.5), one.s, tojson(one));

    const agg = coll.aggregate([
                        {$match: {$text: {$search: "dog"}}},
                        {$project: {s: {$meta: "textScore"}}},
                        {$sort: {s: -1}}
                    ])
                    .toArray();
    assert.eq(docs.map(d => d._id), agg.map(d => d._id));
    assert.eq(docs.map(d => d.score), agg.map(d => d.s));
    // A $sort by the score after another stage (not in the find layer): each document keeps
    // its own score for the stages after it, with or without a limit.
    for (const limit of [[], [{$limit: 10}]]) {
        const sorted = coll.aggregate([
                               {$match: {$text: {$search: "dog"}}},
                               {$project: {title: 1}},
                               {$sort: {score: {$meta: "textScore"}}},
                               ...limit,
                               {$project: {s: {$meta: "textScore"}}},
                           ])
                           .toArray();
        assert.eq(docs.map(d => d._id), sorted.map(d => d._id), tojson(sorted));
        assert.eq(docs.map(d => d.score), sorted.map(d => d.s), tojson(sorted));
    }
    assert.throwsWithCode(
        () => coll.aggregate([{$project: {a: 1}}, {$sort: {s: {$meta: "textScore"}}}]).toArray(),
        40218);
    // textScore metadata needs a $text.
    assert.throwsWithCode(() => coll.aggregate([{$project: {s: {$meta: "textScore"}}}]).toArray(),
                          40218);
}

function compoundPrefix() {
    coll.drop();
    assert.commandWorked(coll.insertMany([
        {_id: 1, cat: "a", t: "red apple"},
        {_id: 2, cat: "b", t: "green apple"},
        {_id: 3, cat: "a", t: "pear"},
    ]));
    assert.commandWorked(coll.createIndex({cat: 1, t: "text"}));
    assert.eq([1], ids({cat: "a", $text: {$search: "apple"}}));
    assert.eq([2], ids({cat: "b", $text: {$search: "apple"}}));
    assert.commandFailedWithCode(
        db.runCommand({find: coll.getName(), filter: {$text: {$search: "apple"}}}),
        ErrorCodes.NoQueryExecutionPlans);
    assert.commandFailedWithCode(coll.insert({_id: 4, cat: ["a", "b"], t: "plum"}),
                                 ErrorCodes.CannotBuildIndexKeys);
}

function errors() {
    setUp();
    const find = (filter) => db.runCommand({find: coll.getName(), filter: filter});
    assert.commandFailedWithCode(find({$text: "dog"}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({$text: {}}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({$text: {$search: 1}}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({$text: {$search: "x", $foo: 1}}), ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({$text: {$search: "x", $language: "klingon"}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({$and: [{$text: {$search: "x"}}, {$text: {$search: "y"}}]}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({a: {$elemMatch: {$text: {$search: "x"}}}}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(find({$or: [{$text: {$search: "dog"}}, {cat: "a"}]}),
                                 ErrorCodes.NoQueryExecutionPlans);
    assert.commandFailedWithCode(find({$nor: [{$text: {$search: "dog"}}, {_id: 1}]}),
                                 ErrorCodes.BadValue);
    assert.commandFailedWithCode(db.runCommand({
        aggregate: coll.getName(),
        pipeline: [{$sort: {_id: 1}}, {$match: {$text: {$search: "dog"}}}],
        cursor: {}
    }),
                                 17313);

    const noIndex = db[jsTestName() + "_noindex"];
    noIndex.drop();
    assert.commandWorked(noIndex.insert({t: "dog"}));
    assert.commandFailedWithCode(
        db.runCommand({find: noIndex.getName(), filter: {$text: {$search: "dog"}}}),
        ErrorCodes.IndexNotFound);
    assert.commandFailedWithCode(
        noIndex.createIndex({x: 1}, {partialFilterExpression: {$text: {$search: "x"}}}),
        ErrorCodes.CannotCreateIndex);
    noIndex.drop();
}

function explainShape() {
    setUp();
    // Scores read: TEXT_OR adds them up before anything is returned.
    let e = coll.find({$text: {$search: "dog -park"}}, {score: {$meta: "textScore"}})
                .explain("executionStats");
    let s = JSON.stringify(e.queryPlanner.winningPlan);
    assert(s.includes("TEXT_MATCH") && s.includes("TEXT_OR") && s.includes("IXSCAN"), s);
    assert.eq(1, e.executionStats.nReturned, tojson(e.executionStats));
    // Scores not read: the index scans stream through OR and FETCH (one term: no OR).
    e = coll.find({$text: {$search: "dog cat -park"}}).explain("executionStats");
    s = JSON.stringify(e.queryPlanner.winningPlan);
    assert(!s.includes("TEXT_OR") && s.includes("\"OR\"") && s.includes("FETCH"), s);
    assert.eq(2, e.executionStats.nReturned, tojson(e.executionStats));
    e = coll.explain("executionStats").aggregate([{$match: {$text: {$search: "dog -park"}}}]);
    s = JSON.stringify(e);
    assert(!s.includes("TEXT_OR") && !s.includes("\"OR\"") && s.includes("FETCH"), s);
    e = coll.explain().aggregate([
        {$match: {$text: {$search: "dog cat"}}},
        {$project: {s: {$meta: "textScore"}}},
    ]);
    assert(JSON.stringify(e).includes("TEXT_OR"), e);
    // $text under $or: the other clauses must be able to use an index.
    assert.eq([1, 2, 3],
              coll.find({$or: [{$text: {$search: "dog"}}, {_id: 2}]}).sort({_id: 1}).toArray().map(
                  d => d._id));
    assert.commandFailedWithCode(
        db.runCommand(
            {find: coll.getName(), filter: {$or: [{$text: {$search: "dog"}}, {body: "x"}]}}),
        ErrorCodes.NoQueryExecutionPlans);
}

function writesKeepTheIndexCurrent() {
    setUp();
    assert.commandWorked(coll.update({_id: 5}, {$set: {body: "a dog appears"}}));
    assert.eq([1, 3, 5], ids({$text: {$search: "dog"}}));
    assert.commandWorked(coll.remove({_id: 1}));
    assert.eq([3, 5], ids({$text: {$search: "dog"}}));
    assert.commandWorked(coll.insert({_id: 7, title: "dog", language: "none"}));
    assert.commandFailedWithCode(coll.insert({_id: 8, title: "x", language: "klingon"}), 17262);
    assert.eq([3, 5, 7], ids({$text: {$search: "dog"}}));
}

storedSpec();
termsStemsAndStopWords();
negationsAndPhrases();
sensitivity();
scores();
compoundPrefix();
errors();
explainShape();
writesKeepTheIndexCurrent();
