// clear() versus clearBuckets(): both drop a collection's in-memory buckets (a pending
// batch then fails with TimeseriesBucketCleared); only clear() forgets the counters.
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
    return test::collection("uuid-clear");
}

BSONObj measurement(long long offsetMs) {
    return BSON("t" << Date_t::fromMillisSinceEpoch(kBase + offsetMs) << "m" << 1);
}

std::shared_ptr<WriteBatch> stage(BucketCatalog& catalog, const CollectionInfo& c,
                                  const BSONObj& doc) {
    return test::stageWithoutReopening(catalog, c, doc);
}

void commit(BucketCatalog& catalog, const CollectionInfo& c,
            const std::shared_ptr<WriteBatch>& batch) {
    ASSERT_TRUE(claimWriteBatchCommitRights(*batch));
    ASSERT_TRUE(prepareCommit(catalog, c, batch).isOK());
    finish(catalog, batch);
}

long long stat(BucketCatalog& catalog, StringData name) {
    BSONObjBuilder b;
    appendExecutionStats(catalog, "uuid-clear", b);
    return b.obj()[name].numberLong();
}

TEST(TimeseriesBucketCatalogClear, ClearBucketsKeepsCountersAndOpensANewBucket) {
    BucketCatalog catalog(4, test::limits());
    auto c = coll();
    auto first = stage(catalog, c, measurement(0));
    commit(catalog, c, first);
    clearBuckets(catalog, c.uuid);
    auto second = stage(catalog, c, measurement(1000));
    EXPECT_NE(first->bucketId.oid, second->bucketId.oid);
    commit(catalog, c, second);
    EXPECT_EQ(stat(catalog, "numBucketInserts"), 2);
}

TEST(TimeseriesBucketCatalogClear, PendingBatchFailsWithBucketCleared) {
    BucketCatalog catalog(4, test::limits());
    auto c = coll();
    auto batch = stage(catalog, c, measurement(0));
    clearBuckets(catalog, c.uuid);
    ASSERT_TRUE(claimWriteBatchCommitRights(*batch));
    EXPECT_EQ(prepareCommit(catalog, c, batch).code(), ErrorCodes::TimeseriesBucketCleared);
    EXPECT_EQ(getWriteBatchStatus(*batch).code(), ErrorCodes::TimeseriesBucketCleared);
}

TEST(TimeseriesBucketCatalogClear, ClearForgetsCounters) {
    BucketCatalog catalog(4, test::limits());
    auto c = coll();
    commit(catalog, c, stage(catalog, c, measurement(0)));
    EXPECT_EQ(stat(catalog, "numBucketInserts"), 1);
    clear(catalog, c.uuid);
    EXPECT_EQ(stat(catalog, "numBucketInserts"), 0);
}

}  // namespace
}  // namespace mongo::timeseries::bucket_catalog
