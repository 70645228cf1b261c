// Pure BSON -> BSON helpers of the $_internalUnpackBucket rewrites (spec §5.4):
// which stages that follow the unpack stage can be answered, or partly answered,
// from the bucket documents. They look only at stage specs and the BucketSpec;
// the stage itself (document_source_internal_unpack_bucket.cpp) applies them.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/pipeline/bucket_unpacker.h"

namespace mongo::timeseries_rewrite {

/**
 * `path` ("m" or "m.a.b") renamed to the bucket's "meta" ("meta", "meta.a.b") when it
 * is the meta field or below it; nullopt otherwise (or when there is no meta field).
 */
std::optional<std::string> renameMetaPath(StringData path, const BucketSpec& spec);

/**
 * The bucket-level sort for a $sort whose every key is the meta field or below it
 * ({"m.a": 1} -> {"meta.a": 1}); nullopt when a key is not on meta, is a $meta sort,
 * or the meta field is not unpacked unchanged.
 */
std::optional<BSONObj> bucketSortForMetaSort(const BSONObj& sortSpec, const BucketSpec& spec);

/** How a $sort on time (optionally after meta keys) becomes a bounded sort. */
struct BoundedSortPlan {
    BSONObj bucketSort;  // {[meta keys,] "control.min.<time>": ±1}, run before unpacking
    bool timeAscending;  // direction of the time key
};

/**
 * For {t: ±1} or {<meta keys>..., t: ±1}: the bucket order the bounded sort needs
 * (buckets read by control.min.<time>). nullopt for any other sort.
 */
std::optional<BoundedSortPlan> planBoundedSort(const BSONObj& sortSpec, const BucketSpec& spec);

/** A projection the unpack stage applies itself (spec §5.4 "Projection internalisation"). */
struct InternalizedProjection {
    BucketSpec::Behavior behavior;  // kInclude or kExclude
    std::set<std::string> fields;   // the include/exclude list (with "_id" as it applies)
};

/**
 * For `stage` = {$project: {...}} whose values are all booleans or numbers on top-level
 * names (an inclusion or an exclusion without computed fields), or {$unset: <top-level
 * name(s)>}: the equivalent include/exclude list. An inclusion lists "_id" unless
 * `_id` is false/0; an exclusion lists it only when `_id` is false/0. nullopt otherwise.
 */
std::optional<InternalizedProjection> internalizableProjection(const BSONObj& stage);

/**
 * For a $group over measurements ordered by time: the _id fields whose value is monotonic
 * in the time field, so that a group's run ends when they change (spec §5.4 "Streaming
 * group"). Monotonic: "$<time>", and $dateTrunc (constant unit/binSize/timezone/
 * startOfWeek), $add/$subtract with constants, $toLong/$toDate/$toDouble/$toDecimal of a
 * monotonic expression. Returns ["_id"] for a monotonic scalar _id, the monotonic field
 * names of an _id object (other fields may be anything), nullopt when there is none.
 */
std::optional<std::vector<std::string>> monotonicIdFields(const BSONObj& groupSpec,
                                                          const std::string& timeField);

/** What a $group over measurements becomes over buckets (spec §5.4). */
struct GroupRewrite {
    BSONObj bucketGroup;                 // the $group spec over bucket documents
    std::vector<std::string> minFields;  // measurement fields read from control.min
    std::vector<std::string> maxFields;  // ... and from control.max
};

/**
 * The bucket-level $group for a $group whose key is a constant or an expression of
 * the meta field only and whose accumulators are all `$min`/`$max` of a top-level
 * measurement field, `{$sum: 1}` or `{$count: {}}`. `$min` of the time field is
 * refused (control.min.<time> is rounded down). With `fixedSpanSeconds` (fixed buckets:
 * rounding equal to the span, parameters never changed, no extended range), the key may also
 * hold a $dateTrunc of the time field with constant arguments whose bins are unions of
 * buckets (fixed-offset time zones only), computed from control.min.<time>, alone or as
 * fields of an _id object. nullopt when not applicable.
 * REQUIRES: the unpack stage has no eventFilter and unpacks every field.
 */
std::optional<GroupRewrite> rewriteGroupOverBuckets(
    const BSONObj& groupSpec, const BucketSpec& spec,
    std::optional<long long> fixedSpanSeconds = std::nullopt);

/** A $addFields/$set/$project split around the unpack stage (spec §5.4). */
struct ComputedMetaProjection {
    BSONObj bucketAddFields;          // $addFields spec over buckets ("$<meta>" -> "$meta")
    std::vector<std::string> fields;  // the new computedMetaProjFields, in spec order
    std::optional<BSONObj> rest;      // {<stage name>: spec} kept after unpacking; none: drop
};

/**
 * The computed fields of `stage` ({$addFields|$set|$project: spec}) that depend only on
 * the meta field and can be evaluated once per bucket. Only a leading run of computed
 * fields is taken (so measurement field order is unchanged); each must be a top-level
 * name other than _id, the time field, the meta field and the bucket's own fields
 * (control, meta, data), with an expression that reads no variable ($$ROOT, $$CURRENT,
 * ...) and no field but the meta field; the rest of the stage must not read a taken
 * name. For $project (inclusion only) the taken names stay in the rest as `name: 1`.
 * nullopt when nothing can be taken, there is no meta field, or it is not unpacked.
 */
std::optional<ComputedMetaProjection> extractComputedMetaProjection(const BSONObj& stage,
                                                                    const BucketSpec& spec);

/** A $match filter split for a spec with computedMetaProjFields (spec §5.4). */
struct ComputedMetaMatch {
    BSONObj bucketFilter;            // conjuncts reading only computed fields: exact on buckets
    BSONObj rest;                    // the other conjuncts: the eventFilter part (may be empty)
    BSONObj predicateSource;         // conjuncts of `rest` reading no computed field (may be empty)
    bool predicatesComplete = true;  // predicateSource == rest (else no wholeBucketFilter)
};

/**
 * Splits the top-level conjuncts of `filter` (a top-level $and is flattened once): those
 * reading only fields of spec.computedMetaProjFields can run on the buckets after the
 * pushed-down $addFields; those reading a computed field with others, or whole documents,
 * stay in the eventFilter and must not be mapped to control-field predicates (a computed
 * name may shadow a measurement column).
 */
ComputedMetaMatch splitComputedMetaMatch(const BSONObj& filter, const BucketSpec& spec);

/**
 * The per-bucket measurement count as an aggregation expression: control.count
 * for v2/v3 buckets, the number of entries of data.<time> for v1.
 */
BSONObj bucketCountExpression(const std::string& timeField);

}  // namespace mongo::timeseries_rewrite
