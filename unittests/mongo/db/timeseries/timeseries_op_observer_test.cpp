// TimeseriesOpObserver: a write to system.buckets.* made through the catalog (any command)
// drops the written bucket from the bucket catalog and keeps it from being reopened until
// the unit of work ends; the catalog's own writes (BucketCatalogWriteScope), writes to other
// collections and buckets of other collections are left alone; a drop clears everything.
#include "mongo/db/timeseries/timeseries_op_observer.h"

#include <gtest/gtest.h>

#include "../storage/storage_test_util.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries {
namespace {

using bucket_catalog::BucketCatalog;
using bucket_catalog::BucketId;

const NamespaceString kBucketsNss("test", "system.buckets.ts");
const NamespaceString kPlainNss("test", "plain");

class TimeseriesOpObserverTest : public ::testing::Test {
protected:
    void SetUp() override {
        engine = openEngine(testOptions(dir.path()));
        durable = std::move(DurableCatalog::open(engine.get()).getValue());
        catalog = std::make_unique<CollectionCatalog>(engine.get(), durable.get());
        sc.storageEngine = engine.get();
        sc.catalog = catalog.get();
        sc.durableCatalog = durable.get();
        opCtx = std::make_unique<OperationContext>(&sc, nullptr, 1);
        opCtx->swapRecoveryUnit(engine->newRecoveryUnit());
        ASSERT_TRUE(catalog->init(opCtx.get()).isOK());
        buckets = catalog->createCollection(opCtx.get(), kBucketsNss, BSONObj()).getValue();
        plain = catalog->createCollection(opCtx.get(), kPlainNss, BSONObj()).getValue();
        auto o = std::make_unique<TimeseriesOpObserver>();
        observer = o.get();
        getOpObserverRegistry().addObserver(std::move(o));
        info.uuid = buckets->uuid();
        info.options =
            TimeseriesOptions::parse(fromjson(R"({"timeField": "t", "metaField": "m"})"));
        ASSERT_TRUE(validateAndSetBucketingParameters(info.options).isOK());
    }
    void TearDown() override {
        getOpObserverRegistry().removeObserver(observer);
        bucket_catalog::clear(BucketCatalog::get(), info.uuid);
        buckets.reset();
        plain.reset();
        opCtx.reset();
        catalog.reset();
        durable.reset();
        engine.reset();
    }

    /** Opens a bucket of series 1 in the process-wide catalog (committed in memory only). */
    OID openBucket() {
        auto& bc = BucketCatalog::get();
        BSONObj m = BSON("t" << Date_t::fromMillisSinceEpoch(1700000000000LL) << "m" << 1);
        auto batch = bucket_catalog::tryInsert(bc, info, m).getValue().batch;
        EXPECT_TRUE(bucket_catalog::claimWriteBatchCommitRights(*batch));
        EXPECT_TRUE(bucket_catalog::prepareCommit(bc, info, batch).isOK());
        bucket_catalog::finish(bc, batch);
        return batch->bucketId.oid;
    }
    bool isOpen(const OID& oid) {
        for (auto& stripe : BucketCatalog::get().stripes) {
            std::lock_guard lk(stripe->mutex);
            if (stripe->openBucketsById.count(BucketId{info.uuid, oid}))
                return true;
        }
        return false;
    }
    bool isMarked(const OID& oid) {
        return bucket_catalog::isBeingDirectlyWritten(BucketCatalog::get(),
                                                      BucketId{info.uuid, oid});
    }
    BSONObj bucketDoc(const OID& oid) {
        return BSON("_id" << oid << "x" << 1);
    }

    TempDir dir;
    std::unique_ptr<WiredTigerKVEngine> engine;
    std::unique_ptr<DurableCatalog> durable;
    std::unique_ptr<CollectionCatalog> catalog;
    ServiceContext sc;
    std::unique_ptr<OperationContext> opCtx;
    std::shared_ptr<Collection> buckets, plain;
    OpObserver* observer = nullptr;
    bucket_catalog::CollectionInfo info;
};

TEST_F(TimeseriesOpObserverTest, DirectWriteDropsTheBucketAndMarksItUntilCommit) {
    const OID oid = openBucket();
    ASSERT_TRUE(isOpen(oid));
    RecoveryUnit* ru = opCtx->recoveryUnit();
    {
        WriteUnitOfWork wuow(ru);
        buckets->insertDocument(opCtx.get(), bucketDoc(oid));
        EXPECT_FALSE(isOpen(oid));
        EXPECT_TRUE(isMarked(oid));
        wuow.commit();
    }
    EXPECT_FALSE(isMarked(oid));
}

TEST_F(TimeseriesOpObserverTest, RolledBackDirectWriteAlsoFinishes) {
    const OID oid = openBucket();
    RecoveryUnit* ru = opCtx->recoveryUnit();
    {
        WriteUnitOfWork wuow(ru);
        buckets->insertDocument(opCtx.get(), bucketDoc(oid));
        EXPECT_TRUE(isMarked(oid));
    }
    EXPECT_FALSE(isMarked(oid));
    EXPECT_FALSE(isOpen(oid));
}

TEST_F(TimeseriesOpObserverTest, UpdatesAndDeletesAreDirectWritesToo) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    const OID oid = openBucket();
    RecordId rid;
    {
        BucketCatalogWriteScope own;  // stored without touching the catalog
        WriteUnitOfWork wuow(ru);
        rid = buckets->insertDocument(opCtx.get(), bucketDoc(oid));
        wuow.commit();
    }
    ASSERT_TRUE(isOpen(oid));
    {
        WriteUnitOfWork wuow(ru);
        buckets->updateDocument(opCtx.get(), rid, bucketDoc(oid), BSON("_id" << oid << "x" << 2));
        wuow.commit();
    }
    EXPECT_FALSE(isOpen(oid));

    const OID other = openBucket();  // the series' new bucket
    RecordId rid2;
    {
        BucketCatalogWriteScope own;
        WriteUnitOfWork wuow(ru);
        rid2 = buckets->insertDocument(opCtx.get(), bucketDoc(other));
        wuow.commit();
    }
    {
        WriteUnitOfWork wuow(ru);
        buckets->deleteDocument(opCtx.get(), rid2, bucketDoc(other));
        wuow.commit();
    }
    EXPECT_FALSE(isOpen(other));
    EXPECT_FALSE(isMarked(other));
}

TEST_F(TimeseriesOpObserverTest, TheCatalogsOwnWritesAndOtherCollectionsAreLeftAlone) {
    const OID oid = openBucket();
    RecoveryUnit* ru = opCtx->recoveryUnit();
    {
        BucketCatalogWriteScope own;
        WriteUnitOfWork wuow(ru);
        buckets->insertDocument(opCtx.get(), bucketDoc(oid));
        EXPECT_FALSE(isMarked(oid));
        wuow.commit();
    }
    {
        WriteUnitOfWork wuow(ru);
        plain->insertDocument(opCtx.get(), bucketDoc(oid));
        wuow.commit();
    }
    EXPECT_TRUE(isOpen(oid));
}

TEST_F(TimeseriesOpObserverTest, DropClearsTheCollectionsBuckets) {
    const OID oid = openBucket();
    BSONObjBuilder before;
    bucket_catalog::appendExecutionStats(BucketCatalog::get(), info.uuid, before);
    ASSERT_EQ(before.obj()["numBucketInserts"].numberLong(), 1);
    ASSERT_TRUE(catalog->dropCollection(opCtx.get(), kBucketsNss).isOK());
    EXPECT_FALSE(isOpen(oid));
    BSONObjBuilder stats;
    bucket_catalog::appendExecutionStats(BucketCatalog::get(), info.uuid, stats);
    EXPECT_EQ(stats.obj()["numBucketInserts"].numberLong(), 0);  // counters forgotten
}

}  // namespace
}  // namespace mongo::timeseries
