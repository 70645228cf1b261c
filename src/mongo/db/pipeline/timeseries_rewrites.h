// Pure BSON -> BSON helpers of the $_internalUnpackBucket rewrites (spec §5.4):
// which stages that follow the unpack stage can be answered, or partly answered,
// from the bucket documents. They look only at stage specs and the BucketSpec;
// the stage itself (document_source_internal_unpack_bucket.cpp) applies them.
#pragma once

#include <optional>
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
    BSONObj bucketSort;    // {[meta keys,] "control.min.<time>": ±1}, run before unpacking
    bool timeAscending;    // direction of the time key
};

/**
 * For {t: ±1} or {<meta keys>..., t: ±1}: the bucket order the bounded sort needs
 * (buckets read by control.min.<time>). nullopt for any other sort.
 */
std::optional<BoundedSortPlan> planBoundedSort(const BSONObj& sortSpec, const BucketSpec& spec);

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
 * refused (control.min.<time> is rounded down). nullopt when not applicable.
 * REQUIRES: the unpack stage has no eventFilter and unpacks every field.
 */
std::optional<GroupRewrite> rewriteGroupOverBuckets(const BSONObj& groupSpec,
                                                    const BucketSpec& spec);

/**
 * The per-bucket measurement count as an aggregation expression: control.count
 * for v2/v3 buckets, the number of entries of data.<time> for v1.
 */
BSONObj bucketCountExpression(const std::string& timeField);

}  // namespace mongo::timeseries_rewrite
