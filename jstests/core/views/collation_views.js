/**
 * A view's default collation applies to aggregate on the view; an aggregate that asks
 * for a different collation fails with OptionNotSupportedOnView (167), the same one
 * works, and a $lookup into a view whose collation differs from the pipeline's fails.
 */
const coll = db[jsTestName() + "_src"];
const ciView = jsTestName() + "_ci";
const simpleView = jsTestName() + "_simple";
const caseInsensitive = {locale: "en", strength: 2};

function setUp() {
    db[ciView].drop();
    db[simpleView].drop();
    coll.drop();
    assert.commandWorked(coll.insertMany([{_id: 1, k: "a"}, {_id: 2, k: "A"}, {_id: 3, k: "b"}]));
    assert.commandWorked(db.runCommand(
        {create: ciView, viewOn: coll.getName(), pipeline: [], collation: caseInsensitive}));
    assert.commandWorked(db.runCommand({create: simpleView, viewOn: coll.getName(), pipeline: []}));
}

function viewDefaultApplies() {
    assert.eq(2, db[ciView].aggregate([{$match: {k: "a"}}]).itcount());
    assert.eq(2, db[ciView].aggregate([{$group: {_id: "$k"}}]).itcount());
    assert.eq(1, db[simpleView].aggregate([{$match: {k: "a"}}]).itcount());
}

function sameCollationIsAccepted() {
    assert.eq(2, db[ciView].aggregate([{$match: {k: "a"}}], {collation: caseInsensitive}).itcount());
}

function differentCollationFails() {
    assert.commandFailedWithCode(
        db.runCommand({aggregate: ciView, pipeline: [], cursor: {}, collation: {locale: "fr"}}),
        ErrorCodes.OptionNotSupportedOnView);
    assert.commandFailedWithCode(
        db.runCommand(
            {aggregate: ciView, pipeline: [], cursor: {}, collation: {locale: "simple"}}),
        ErrorCodes.OptionNotSupportedOnView);
    assert.commandFailedWithCode(
        db.runCommand(
            {aggregate: simpleView, pipeline: [], cursor: {}, collation: caseInsensitive}),
        ErrorCodes.OptionNotSupportedOnView);
}

function lookupIntoViewWithOtherCollationFails() {
    assert.commandFailedWithCode(
        db.runCommand({
            aggregate: coll.getName(),
            pipeline: [{$lookup: {from: ciView, localField: "k", foreignField: "k", as: "j"}}],
            cursor: {},
        }),
        ErrorCodes.OptionNotSupportedOnView);
    const res = coll.aggregate(
                        [
                            {$match: {_id: 3}},
                            {$lookup: {from: ciView, localField: "k", foreignField: "k", as: "j"}},
                        ],
                        {collation: caseInsensitive})
                    .toArray();
    assert.eq(1, res[0].j.length);
}

setUp();
viewDefaultApplies();
sameCollationIsAccepted();
differentCollationFails();
lookupIntoViewWithOtherCollationFails();
