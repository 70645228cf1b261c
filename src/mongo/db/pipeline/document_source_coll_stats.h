// $collStats, $indexStats and $_internalConvertBucketIndexStats: statistics of the pipeline's
// collection; on a view $collStats reads the view itself, on a time-series view both read the
// buckets collection (spec timeseries-semantics.md §2.3, §3.11). Storage statistics and index
// key conversion come from the layers above through hooks installed at start-up.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class OperationContext;
class StorageStatsSpec;

/**
 * Appends the storage statistics of collection `nss` (buckets collection of a time-series
 * view included) to `builder`. Throws NamespaceNotFound / CommandNotSupportedOnView.
 */
using StorageStatsAppender =
    std::function<void(OperationContext*, const NamespaceString& nss, const StorageStatsSpec& spec,
                       BSONObjBuilder* builder)>;
void setStorageStatsAppender(StorageStatsAppender fn);

/**
 * The user-facing form of buckets index spec `bucketsSpec` of a time-series collection whose
 * $_internalUnpackBucket spec is `unpackSpec` (timeField, metaField); nullopt when the index
 * has none (e.g. built directly on the buckets collection).
 */
using BucketsIndexSpecConverter =
    std::function<std::optional<BSONObj>(const BSONObj& unpackSpec, const BSONObj& bucketsSpec)>;
void setBucketsIndexSpecConverter(BucketsIndexSpecConverter fn);

/** The pipeline to run and where, when a statistics stage opens a pipeline on a view. */
struct StatsStageRewrite {
    NamespaceString executionNss;
    std::vector<BSONObj> stages;  // the whole pipeline to run there
};

/**
 * When `stages` starts with $collStats or $indexStats and `nss` is a view: $collStats on any
 * view runs on the view itself; on a time-series view $collStats runs on the buckets
 * collection (flagged `$_requestOnTimeseriesView`, latencies stay the view's) and
 * $indexStats on the buckets collection followed by $_internalConvertBucketIndexStats.
 * nullopt otherwise (the view is resolved as usual).
 */
std::optional<StatsStageRewrite> rewriteStatsStageOnView(OperationContext* opCtx,
                                                         const NamespaceString& nss,
                                                         const std::vector<BSONObj>& stages);

/** "<hostname>:<port>" as upstream's $collStats/$indexStats report it. */
std::string hostAndPortForStats();

}  // namespace mongo
