#include "mongo/db/timeseries/timeseries_op_observer.h"

#include "mongo/db/catalog/collection.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/rollups/rollup_maintenance.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/util/assert_util.h"

namespace mongo::timeseries {

namespace {

thread_local bool tlCatalogWrite = false;

/** Runs `f` once the current unit of work ends either way (now when there is none). */
void atEndOfUnit(OperationContext* opCtx, std::function<void()> f) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    if (!ru->inUnitOfWork()) {
        f();
        return;
    }
    ru->onCommitOrRollback(f, f);
}

/** A direct write to the bucket `doc` of `coll`: see bucket_catalog::directWriteStart. */
void directWrite(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) {
    if (BucketCatalogWriteScope::active() || !coll.ns().isTimeseriesBucketsCollection())
        return;
    BSONElement id = doc[kBucketIdFieldName];
    if (id.type() != BSONType::kOid)
        return;  // the catalog only holds buckets with ObjectId _ids
    auto& catalog = bucket_catalog::BucketCatalog::get();
    const std::string uuid = coll.uuid();
    const OID oid = id.OID();
    bucket_catalog::directWriteStart(catalog, uuid, oid);
    atEndOfUnit(opCtx,
                [&catalog, uuid, oid] { bucket_catalog::directWriteFinish(catalog, uuid, oid); });
}

/** Forgets every bucket and counter of `uuid` once the drop or rename commits. */
void clearAtCommit(OperationContext* opCtx, const std::string& uuid) {
    auto clear = [uuid] { bucket_catalog::clear(bucket_catalog::BucketCatalog::get(), uuid); };
    RecoveryUnit* ru = opCtx->recoveryUnit();
    if (ru->inUnitOfWork())
        ru->onCommit(clear);
    else
        clear();
}

}  // namespace

void TimeseriesOpObserver::onInserts(OperationContext* opCtx, const Collection& coll,
                                     const std::vector<BSONObj>& docs) {
    for (const BSONObj& doc : docs) {
        directWrite(opCtx, coll, doc);
        rollups::noteBucketWrite(opCtx, coll, BSONObj(), doc);
    }
}

void TimeseriesOpObserver::onUpdate(OperationContext* opCtx, const Collection& coll,
                                    const BSONObj& pre, const BSONObj& post, const BSONObj& diff) {
    directWrite(opCtx, coll, pre);  // an update keeps the _id
    rollups::noteBucketWrite(opCtx, coll, pre, post);
}

void TimeseriesOpObserver::onDelete(OperationContext* opCtx, const Collection& coll,
                                    const BSONObj& doc) {
    directWrite(opCtx, coll, doc);
    rollups::noteBucketWrite(opCtx, coll, doc, BSONObj());
}

void TimeseriesOpObserver::onDropCollection(OperationContext* opCtx, const NamespaceString& nss,
                                            const std::string& uuid) {
    if (nss.isTimeseriesBucketsCollection())
        clearAtCommit(opCtx, uuid);
}

void TimeseriesOpObserver::onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                                              const NamespaceString& to, const std::string& uuid,
                                              bool dropTarget) {
    if (from.isTimeseriesBucketsCollection() || to.isTimeseriesBucketsCollection())
        clearAtCommit(opCtx, uuid);
}

BucketCatalogWriteScope::BucketCatalogWriteScope() {
    invariant(!tlCatalogWrite);
    tlCatalogWrite = true;
}

BucketCatalogWriteScope::~BucketCatalogWriteScope() {
    tlCatalogWrite = false;
}

bool BucketCatalogWriteScope::active() {
    return tlCatalogWrite;
}

}  // namespace mongo::timeseries
