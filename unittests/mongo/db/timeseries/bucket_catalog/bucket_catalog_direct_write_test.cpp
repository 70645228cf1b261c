// directWriteStart / directWriteFinish: a bucket written directly leaves memory at once, is
// not reopened until the write's unit of work ends, nor from a candidate fetched across the
// write; a batch prepared before the write is refused at its storage write.
#include <gtest/gtest.h>

#include "catalog_test_util.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/timeseries_options.h"

namespace mongo::timeseries::bucket_catalog {
namespace {

constexpr long long kBase = 1700000000000LL;

CollectionInfo coll() {
    return test::collection("uuid-direct", true);  // without an open bucket: a query
}

BSONObj measurement(long long offsetMs) {
    return BSON("t" << Date_t::fromMillisSinceEpoch(kBase + offsetMs) << "m" << 1);
}

long long stat(BucketCatalog& catalog, StringData name) {
    BSONObjBuilder b;
    appendExecutionStats(catalog, "uuid-direct", b);
    return b.obj()[name].numberLong();
}

class BucketCatalogDirectWrite : public ::testing::Test {
protected:
    /** Stages `doc`; a reopening request is answered with `fetched`. */
    std::shared_ptr<WriteBatch> stage(const BSONObj& doc, const BSONObj& fetched = BSONObj()) {
        auto r = tryInsert(catalog, c, doc);
        EXPECT_TRUE(r.isOK()) << r.getStatus();
        auto res = r.getValue();
        if (res.reopening) {
            const ReopeningRequest request = *res.reopening;
            res =
                insertWithReopeningContext(catalog, c, doc, fetched, 0, nullptr, nullptr, &request)
                    .getValue();
        }
        return res.batch;
    }
    /** Commits `batch` in memory; returns the bucket document it wrote. */
    BSONObj commit(const std::shared_ptr<WriteBatch>& batch) {
        EXPECT_TRUE(claimWriteBatchCommitRights(*batch));
        EXPECT_TRUE(prepareCommit(catalog, c, batch).isOK());
        BSONObj doc = batch->write.document.getOwned();
        finish(catalog, batch);
        return doc;
    }
    /** A committed bucket of the series, then dropped from memory (stored, not open). */
    BSONObj storedBucket() {
        BSONObj doc = commit(stage(measurement(0)));
        clearBuckets(catalog, c.uuid);
        return doc;
    }

    BucketCatalog catalog{4, test::limits()};
    CollectionInfo c = coll();
};

TEST_F(BucketCatalogDirectWrite, StartDropsTheOpenBucketAndFailsItsPendingBatch) {
    auto first = stage(measurement(0));
    commit(first);
    auto pending = stage(measurement(1000));
    ASSERT_EQ(pending->bucketId, first->bucketId);
    directWriteStart(catalog, c.uuid, first->bucketId.oid);
    EXPECT_TRUE(isBeingDirectlyWritten(catalog, first->bucketId));
    EXPECT_EQ(getWriteBatchStatus(*pending).code(), ErrorCodes::TimeseriesBucketCleared);
    auto next = stage(measurement(2000));
    EXPECT_NE(next->bucketId, first->bucketId);
    directWriteFinish(catalog, c.uuid, first->bucketId.oid);
    EXPECT_FALSE(isBeingDirectlyWritten(catalog, first->bucketId));
}

TEST_F(BucketCatalogDirectWrite, BucketIsNotReopenedUntilTheWriteFinishes) {
    BSONObj doc = storedBucket();
    const OID oid = doc["_id"].OID();
    directWriteStart(catalog, c.uuid, oid);
    auto during = stage(measurement(1000), doc);
    EXPECT_NE(during->bucketId.oid, oid);
    EXPECT_EQ(stat(catalog, "numBucketReopeningsFailed"), 1);
    directWriteFinish(catalog, c.uuid, oid);

    clearBuckets(catalog, c.uuid);
    auto after = stage(measurement(2000), doc);
    EXPECT_EQ(after->bucketId.oid, oid);
    EXPECT_EQ(stat(catalog, "numBucketsReopened"), 1);
}

TEST_F(BucketCatalogDirectWrite, CandidateFetchedAcrossAWriteIsNotReopened) {
    BSONObj doc = storedBucket();
    const OID oid = doc["_id"].OID();
    auto r = tryInsert(catalog, c, measurement(1000));
    ASSERT_TRUE(r.isOK());
    ASSERT_TRUE(r.getValue().reopening);
    const ReopeningRequest request = *r.getValue().reopening;
    // The write starts and commits while the caller fetches: `doc` may be the old version.
    directWriteStart(catalog, c.uuid, oid);
    directWriteFinish(catalog, c.uuid, oid);
    auto res = insertWithReopeningContext(catalog, c, measurement(1000), doc, 0, nullptr, nullptr,
                                          &request);
    ASSERT_TRUE(res.isOK());
    EXPECT_NE(res.getValue().batch->bucketId.oid, oid);
    EXPECT_EQ(stat(catalog, "numBucketReopeningsFailed"), 1);
}

TEST_F(BucketCatalogDirectWrite, OverlappingWritesKeepTheMarkUntilTheLastFinishes) {
    const OID oid = OID::gen();
    const BucketId id{c.uuid, oid};
    directWriteStart(catalog, c.uuid, oid);
    directWriteStart(catalog, c.uuid, oid);
    directWriteFinish(catalog, c.uuid, oid);
    EXPECT_TRUE(isBeingDirectlyWritten(catalog, id));
    directWriteFinish(catalog, c.uuid, oid);
    EXPECT_FALSE(isBeingDirectlyWritten(catalog, id));
}

TEST_F(BucketCatalogDirectWrite, PreparedBatchIsRefusedAfterADirectWrite) {
    auto batch = stage(measurement(0));
    ASSERT_TRUE(claimWriteBatchCommitRights(*batch));
    ASSERT_TRUE(prepareCommit(catalog, c, batch).isOK());
    EXPECT_TRUE(checkStillPrepared(catalog, *batch).isOK());
    directWriteStart(catalog, c.uuid, batch->bucketId.oid);
    EXPECT_EQ(checkStillPrepared(catalog, *batch).code(), ErrorCodes::TimeseriesBucketCleared);
    directWriteFinish(catalog, c.uuid, batch->bucketId.oid);
}

}  // namespace
}  // namespace mongo::timeseries::bucket_catalog
