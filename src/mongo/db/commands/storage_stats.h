// Storage statistics of one collection, as collStats and $collStats' storageStats report
// them (upstream's field order); a time-series view or buckets collection reports its
// buckets with the `timeseries` section instead of count/avgObjSize (spec §3.11).
#pragma once

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class OperationContext;
class StorageStatsSpec;

/**
 * Appends size, timeseries | count + avgObjSize, numOrphanDocs, storageSize, capped (max,
 * maxSize), wiredTiger, nindexes, indexDetails, indexBuilds, totalIndexSize, indexSizes,
 * totalSize, scaleFactor for `nss` (a time-series view: its buckets collection).
 * Throws NamespaceNotFound ("Collection [<ns>] not found.") and CommandNotSupportedOnView.
 * Cost: O(number of indexes) file-size look-ups.
 */
void appendCollectionStorageStats(OperationContext* opCtx, const NamespaceString& nss,
                                  const StorageStatsSpec& spec, BSONObjBuilder* result);

}  // namespace mongo
