/**
 * control.min/control.max of a time-series collection with a default collation order strings
 * by that collation but store the original strings (spec §3.6); deletes that rewrite a
 * bucket recompute them the same way.
 */
function createColl(n, o) {
    return db.runCommand(Object.assign({create: n}, o || {}));
}
const name = jsTestName();
const t0 = ISODate("2024-01-01T00:00:00Z");

function at(seconds) {
    return new Date(t0.getTime() + seconds * 1000);
}

function controlOf(collName) {
    const buckets = db.getCollection("system.buckets." + collName).find().toArray();
    assert.eq(1, buckets.length, tojson(buckets));
    return buckets[0].control;
}

function fill(collOptions) {
    db[name].drop();
    assert.commandWorked(createColl(name, Object.assign({timeseries: {timeField: "t", metaField: "m"}},
                                                        collOptions)));
    assert.commandWorked(db[name].insert({t: at(0), m: 1, s: "a"}));
    assert.commandWorked(db[name].insert({t: at(1), m: 1, s: "B"}));
}

function simpleCollationIsBinary() {
    fill({});
    const c = controlOf(name);
    assert.eq("B", c.min.s, tojson(c));
    assert.eq("a", c.max.s, tojson(c));
}

function collatedMinMax() {
    fill({collation: {locale: "en", strength: 2}});
    let c = controlOf(name);
    assert.eq("a", c.min.s, tojson(c));
    assert.eq("B", c.max.s, tojson(c));
    // "A" equals "a" under strength 2: the stored bound stays "a".
    assert.commandWorked(db[name].insert({t: at(2), m: 1, s: "A"}));
    c = controlOf(name);
    assert.eq("a", c.min.s, tojson(c));
    assert.eq("B", c.max.s, tojson(c));
    assert.commandWorked(db[name].insert({t: at(3), m: 1, s: "c"}));
    assert.eq("c", controlOf(name).max.s);
}

function nestedStringsUseCollation() {
    db[name].drop();
    assert.commandWorked(createColl(
        name, {timeseries: {timeField: "t"}, collation: {locale: "en", strength: 2}}));
    assert.commandWorked(db[name].insert({t: at(0), o: {x: "a"}}));
    assert.commandWorked(db[name].insert({t: at(1), o: {x: "B"}}));
    const c = controlOf(name);
    assert.eq("a", c.min.o.x, tojson(c));
    assert.eq("B", c.max.o.x, tojson(c));
}

function deleteRewriteUsesCollation() {
    fill({collation: {locale: "en", strength: 2}});
    assert.commandWorked(db[name].insert({t: at(2), m: 1, s: "c"}));
    assert.commandWorked(db[name].deleteMany({s: "c"}));
    const c = controlOf(name);
    assert.eq(2, db[name].find().itcount());
    assert.eq("a", c.min.s, tojson(c));
    assert.eq("B", c.max.s, tojson(c));
}

runScenarios(simpleCollationIsBinary, collatedMinMax, nestedStringsUseCollation,
             deleteRewriteUsesCollation);
