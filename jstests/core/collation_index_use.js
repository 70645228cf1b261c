/**
 * Results through collated indexes: string bounds on a {locale: "en", strength: 2} index
 * are built from comparison keys, so a query of that collation finds every case variant
 * through the (hinted) index and gets its sort order from it; a query of another
 * collation filters after FETCH and sorts itself; number bounds work under any collation.
 */
const coll = db[jsTestName()];
const en2 = {locale: "en", strength: 2};

function ids(cursor) {
    return cursor.toArray().map((d) => d._id);
}

function setUp() {
    coll.drop();
    assert.commandWorked(db.runCommand({
        insert: coll.getName(),
        documents: [{_id: 1, a: "foo"}, {_id: 2, a: "FOO"}, {_id: 3, a: "b"}, {_id: 4, a: 7},
                    {_id: 5, a: "C"}, {_id: 6, a: "a"}]
    }));
    assert.commandWorked(db.runCommand(
        {createIndexes: coll.getName(), indexes: [{key: {a: 1}, name: "a_en", collation: en2}]}));
}

function equalityFollowsTheIndexCollation() {
    assert.sameMembers([1, 2], ids(coll.find({a: "Foo"}).collation(en2).hint("a_en")));
    assert.sameMembers([1, 2], ids(coll.find({a: "Foo"}).collation(en2)));
}

function rangesFollowTheIndexCollation() {
    // Case-insensitively "a" < "b" < "C" < "foo"; in binary order "C" < "FOO" < "a".
    const q = coll.find({a: {$gt: "a", $lt: "D"}}).collation(en2).hint("a_en");
    assert.sameMembers([3, 5], ids(q));
}

function otherCollationFiltersAfterFetch() {
    assert.eq([1], ids(coll.find({a: "foo"}).hint("a_en")));
    assert.eq([1], ids(coll.find({a: "foo"})));
}

function numbersUseTheIndexUnderAnyCollation() {
    assert.eq([4], ids(coll.find({a: 7}).hint("a_en")));
    assert.eq([4], ids(coll.find({a: {$gte: 7}}).hint("a_en")));
}

function sortOrderComesFromTheCollation() {
    const ordered = ids(coll.find({a: {$type: "string"}}).sort({a: 1}).collation(en2).hint("a_en"));
    assert.eq([6, 3, 5], ordered.slice(0, 3));
    assert.sameMembers([1, 2], ordered.slice(3));
    assert.eq([5, 2, 6, 3, 1],
              ids(coll.find({a: {$type: "string"}}).sort({a: 1}).hint("a_en")));
}

for (const t of [equalityFollowsTheIndexCollation, rangesFollowTheIndexCollation,
                 otherCollationFiltersAfterFetch, numbersUseTheIndexUnderAnyCollation,
                 sortOrderComesFromTheCollation]) {
    setUp();
    t();
}
