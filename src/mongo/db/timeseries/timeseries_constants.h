// Field names and version numbers of the time-series bucket schema (README.md in this
// folder). Every other time-series file takes its names from here.
#pragma once

#include <string>

#include "mongo/base/string_data.h"

namespace mongo::timeseries {

// Bucket document: {_id, control: {version, min, max, count, closed?}, meta?, data}.
inline constexpr StringData kBucketIdFieldName = "_id";
inline constexpr StringData kBucketControlFieldName = "control";
inline constexpr StringData kBucketMetaFieldName = "meta";
inline constexpr StringData kBucketDataFieldName = "data";
inline constexpr StringData kBucketControlVersionFieldName = "version";
inline constexpr StringData kBucketControlMinFieldName = "min";
inline constexpr StringData kBucketControlMaxFieldName = "max";
inline constexpr StringData kBucketControlCountFieldName = "count";
inline constexpr StringData kBucketControlClosedFieldName = "closed";

// Dotted prefixes used by index keys and bucket-level predicates.
inline constexpr StringData kControlMinFieldNamePrefix = "control.min.";
inline constexpr StringData kControlMaxFieldNamePrefix = "control.max.";
inline constexpr StringData kDataFieldNamePrefix = "data.";
inline constexpr StringData kControlCountPath = "control.count";
inline constexpr StringData kControlClosedPath = "control.closed";

/** "control.min.<field>" / "control.max.<field>": a field's bucket-level bounds. */
inline std::string controlMinPath(StringData field) {
    return std::string(kControlMinFieldNamePrefix).append(field);
}
inline std::string controlMaxPath(StringData field) {
    return std::string(kControlMaxFieldNamePrefix).append(field);
}

// Index spec fields.
inline constexpr StringData kKeyFieldName = "key";
inline constexpr StringData kOriginalSpecFieldName = "originalSpec";
inline constexpr StringData kPartialFilterExpressionFieldName = "partialFilterExpression";

// control.version values.
inline constexpr int kTimeseriesControlUncompressedVersion = 1;
inline constexpr int kTimeseriesControlCompressedSortedVersion = 2;
inline constexpr int kTimeseriesControlCompressedUnsortedVersion = 3;
inline constexpr int kTimeseriesControlLatestVersion = kTimeseriesControlCompressedSortedVersion;

// The view stage. (The buckets namespace prefix is NamespaceString::kSystemBucketsPrefix.)
inline constexpr StringData kUnpackBucketStageName = "$_internalUnpackBucket";

// Upper bound of bucketMaxSpanSeconds / bucketRoundingSeconds (365 days).
inline constexpr int kMaxBucketSpanSeconds = 60 * 60 * 24 * 365;

}  // namespace mongo::timeseries
