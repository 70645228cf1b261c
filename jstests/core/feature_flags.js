/**
 * getParameter shows the 8.0 feature flags whose behaviour this server has, in 8.0's shape
 * ({value, version, shouldBeFCVGated}), as FeatureFlagUtil reads them; they cannot be changed
 * at runtime. Unknown flags are not found.
 */
let res = assert.commandWorked(
    db.adminCommand({getParameter: 1, featureFlagTimeseriesAlwaysUseCompressedBuckets: 1}));
assert.docEq({value: true, version: "8.0", shouldBeFCVGated: true},
             res.featureFlagTimeseriesAlwaysUseCompressedBuckets, tojson(res));
// Arbitrary time-series updates are on here (this project's deliberate difference from 8.0).
res = assert.commandWorked(db.adminCommand({getParameter: 1, featureFlagTimeseriesUpdatesSupport: 1}));
assert.eq(true, res.featureFlagTimeseriesUpdatesSupport.value, tojson(res));

// Buckets are compressed from the first insert, as the first flag says.
const coll = db[jsTestName()];
coll.drop();
assert.commandWorked(db.createCollection(coll.getName(), {timeseries: {timeField: "t"}}));
assert.commandWorked(coll.insert({t: ISODate(), x: 1}));
const bucket = db.getCollection("system.buckets." + coll.getName()).findOne();
assert.gte(bucket.control.version, 2, tojson(bucket));

const all = assert.commandWorked(db.adminCommand({getParameter: "*"}));
assert(all.hasOwnProperty("featureFlagTimeseriesAlwaysUseCompressedBuckets"), tojson(all));

assert.commandFailedWithCode(db.adminCommand({getParameter: 1, featureFlagToaster: 1}),
                             ErrorCodes.InvalidOptions);
assert.commandFailedWithCode(
    db.adminCommand({setParameter: 1, featureFlagTimeseriesAlwaysUseCompressedBuckets: false}),
    ErrorCodes.IllegalOperation);
