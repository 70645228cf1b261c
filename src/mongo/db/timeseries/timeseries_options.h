// Time-series collection options: validation and defaults for `create` and `collMod`
// (spec timeseries-semantics.md §1), the view pipeline and the buckets collection's
// validator and options (§2), and bucket-time rounding (§3.4).
//
// Pure functions over the IDL structs TimeseriesOptions / CollModTimeseries; the create
// and collMod commands call them and turn a non-OK Status into the command error.
// Thread safety: stateless.
#pragma once

#include <optional>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/idl/timeseries_gen.h"
#include "mongo/util/time_support.h"

namespace mongo::timeseries {

/** Preset bucketMaxSpanSeconds of a granularity: 3600, 86400, 2592000. */
int getMaxSpanSecondsFromGranularity(BucketGranularity granularity);
/** Preset rounding of a granularity: 60, 3600, 86400. */
int getBucketRoundingSecondsFromGranularity(BucketGranularity granularity);

/** The effective span: bucketMaxSpanSeconds, else the granularity preset, else 3600. */
int getMaxSpanSeconds(const TimeseriesOptions& options);
/** The effective rounding: granularity preset, else bucketRoundingSeconds, else 60. */
int getBucketRoundingSeconds(const TimeseriesOptions& options);

/**
 * Rounds `time` down to a multiple of `roundingSeconds` (also for pre-1970 times);
 * clamps to Date_t::min() on underflow. This is a new bucket's control.min.<time>.
 */
Date_t roundTimestampBySeconds(Date_t time, long long roundingSeconds);
Date_t roundTimestampToGranularity(Date_t time, const TimeseriesOptions& options);

/**
 * Checks timeField/metaField (create steps 2-5, §1.3): InvalidOptions for a dotted
 * field, metaField "_id" or metaField == timeField; BadValue for an embedded NUL.
 * `ns` prefixes the messages.
 */
Status validateTimeAndMetaFields(StringData ns, const TimeseriesOptions& options);

/**
 * Create step 7 (§1.3): validates granularity / bucketMaxSpanSeconds /
 * bucketRoundingSeconds and fills the defaults in place (§1.4). InvalidOptions.
 */
Status validateAndSetBucketingParameters(TimeseriesOptions& options);

/**
 * Create step 1 (§1.3): every top-level field of the create command `cmd` (first
 * field = command name) must be allowed with `timeseries`. `isBucketsNs` tolerates
 * `validator` and `clusteredIndex`. InvalidOptions
 * "<ns>: 'timeseries' is not allowed with '<field>'".
 */
Status validateCreateCommandFields(StringData ns, const BSONObj& cmd, bool isBucketsNs);

/**
 * A collection-level TTL value (clustered-TTL rules): TypeMismatch if not a number,
 * InvalidOptions if negative, NaN or above INT32_MAX.
 */
Status validateExpireAfterSeconds(const BSONElement& value);

/** Whether granularity may move from `current` to `target` (same, or coarser by step). */
bool isValidTimeseriesGranularityTransition(BucketGranularity current, BucketGranularity target);

/** The result of applying a collMod `timeseries` sub-document. */
struct CollModTimeseriesResult {
    TimeseriesOptions options;  // the options to persist
    bool changed = false;       // false: no-op (flags and view stay as they are)
};

/**
 * Applies the collMod transition rules of §1.7 to `current`. InvalidOptions on any rule
 * violation. A change means the caller must also rewrite the view pipeline and set the
 * catalog flag "timeseriesBucketingParametersHaveChanged".
 */
StatusWith<CollModTimeseriesResult> applyTimeseriesOptionsModifications(
    const TimeseriesOptions& current, const CollModTimeseries& mod);

/** True when both options are the same after normalisation (idempotent create, §1.5). */
bool optionsAreEqual(const TimeseriesOptions& a, const TimeseriesOptions& b);

/** The view's single stage {$_internalUnpackBucket: {timeField, metaField?, bucketMaxSpanSeconds}}.
 */
BSONObj generateViewPipelineStage(const TimeseriesOptions& options);
/** The view pipeline: an array holding generateViewPipelineStage(). */
std::vector<BSONObj> generateViewPipeline(const TimeseriesOptions& options);

/** The buckets collection's {$jsonSchema: ...} validator for control version 1 or 2 (§2.2). */
BSONObj generateTimeseriesValidator(int bucketVersion, StringData timeField);

/**
 * Options to create system.buckets.<coll> with: {validator, clusteredIndex: true,
 * timeseries, expireAfterSeconds?, collation?}, plus any `extra` whitelisted create
 * options (storageEngine, indexOptionDefaults).
 */
BSONObj makeBucketsCollectionOptions(const TimeseriesOptions& options,
                                     std::optional<long long> expireAfterSeconds,
                                     const BSONObj& collation, const BSONObj& extra = BSONObj());

/**
 * The buckets collection's stored options filtered to what the view shows in
 * listCollections (storageEngine, indexOptionDefaults, collation, timeseries,
 * expireAfterSeconds, temp), in stored order (§1.6).
 */
BSONObj filterBucketsOptionsForView(const BSONObj& bucketsOptions);

/**
 * The default {meta: 1, control.min.<t>: 1, control.max.<t>: 1} index spec named
 * "<meta>_1_<time>_1" (§4.4), or nullopt when there is no metaField.
 */
std::optional<BSONObj> generateDefaultIndexSpec(const TimeseriesOptions& options,
                                                const BSONObj& collation);

}  // namespace mongo::timeseries
