// Error codes upstream returns where ours differed (found by running upstream's jstests).
const coll = db.upstream_error_codes;
coll.drop();
assert.commandWorked(coll.insert({_id: 1, txt: "hello"}));

// An unknown operator as a whole projected value is 31325; anywhere else in an expression 168.
assert.commandFailedWithCode(
    db.runCommand({aggregate: coll.getName(), cursor: {}, pipeline: [{$project: {x: {$nope: 1}}}]}),
    31325);
assert.commandFailedWithCode(
    db.runCommand(
        {aggregate: coll.getName(), cursor: {}, pipeline: [{$project: {x: {$add: [{$nope: 1}]}}}]}),
    168);
assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {$expr: {$nope: 1}}}), 168);

// $alwaysTrue / $alwaysFalse take exactly 1.
assert.commandFailedWithCode(db.runCommand({find: coll.getName(), filter: {$alwaysTrue: 0}}),
                             ErrorCodes.FailedToParse);
assert.eq(1, coll.find({$alwaysTrue: 1}).itcount());

// Only a time-series collection puts a view on system.buckets.<name> (the view <name>).
db.upstream_error_codes_ts.drop();
assert.commandWorked(db.createCollection("upstream_error_codes_ts", {timeseries: {timeField: "t"}}));
assert.commandFailedWithCode(
    db.runCommand({create: "badView", viewOn: "system.buckets.upstream_error_codes_ts", pipeline: []}),
    ErrorCodes.InvalidNamespace);
