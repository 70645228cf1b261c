// TimeseriesOpObserver: the one place where writes to system.buckets.* collections reach
// the bucket catalog, whichever path made them (insert/update/delete commands,
// findAndModify, applyOps, TTL, deletes and updates of measurements through the view).
// Writes made inside a BucketCatalogWriteScope are the catalog's own commits and pass.
// Every write to a collection with rollups is also noted for its rollup levels
// (rollups/rollup_maintenance.h), the catalog's commits included.
// Registered in the OpObserverRegistry at start-up (mongod_main.cpp).
#pragma once

#include <string>

#include "mongo/db/catalog/op_observer.h"

namespace mongo::timeseries {

/**
 * Each document written gets bucket_catalog::directWriteStart (by its ObjectId _id) in the
 * write, and directWriteFinish when the unit of work commits or rolls back. A dropped or
 * renamed buckets collection has every bucket and counter cleared once the drop or rename
 * commits. Thread safety: stateless (the bucket catalog synchronises).
 */
class TimeseriesOpObserver final : public OpObserver {
public:
    void onInserts(OperationContext* opCtx, const Collection& coll,
                   const std::vector<BSONObj>& docs) override;
    void onUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre,
                  const BSONObj& post, const BSONObj& diff) override;
    void onDelete(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) override;
    void onDropCollection(OperationContext* opCtx, const NamespaceString& nss,
                          const std::string& uuid) override;
    void onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                            const NamespaceString& to, const std::string& uuid,
                            bool dropTarget) override;
};

/**
 * Open while the calling thread writes batches the bucket catalog prepared (the insert
 * path's commit): the TimeseriesOpObserver leaves those writes alone, since the catalog
 * already holds what they write. Scopes belong to their thread and do not nest.
 */
class BucketCatalogWriteScope {
public:
    BucketCatalogWriteScope();
    ~BucketCatalogWriteScope();
    BucketCatalogWriteScope(const BucketCatalogWriteScope&) = delete;
    BucketCatalogWriteScope& operator=(const BucketCatalogWriteScope&) = delete;

    /** True while a scope is open on the calling thread. */
    static bool active();
};

}  // namespace mongo::timeseries
