// Moving a series' first bucket to an earlier start when concurrent insert commands deliver
// its first measurements out of order (bucket_catalog.cpp, moveEarlier).
#include <gtest/gtest.h>

#include "catalog_test_util.h"

#include <map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/update/document_diff.h"

namespace mongo::timeseries::bucket_catalog {
namespace {

constexpr long long kBase = 1700000040000LL;  // on a minute: 2023-11-14T22:14:00Z

BSONObj m(long long offsetSeconds, StringData meta, double v) {
    return BSON("t" << Date_t::fromMillisSinceEpoch(kBase + offsetSeconds * 1000) << "m" << meta
                    << "v" << v);
}

/** A writer (connection): a CollectionInfo with its writer id. */
struct Writer {
    BucketCatalog& catalog;
    CollectionInfo info = test::collection("uuid-move");
    Writer(BucketCatalog& c, int64_t id) : catalog(c) {
        info.writerId = id;
    }
    std::shared_ptr<WriteBatch> stage(const BSONObj& doc) {
        return test::stageWithoutReopening(catalog, info, doc);
    }
};

/** Applies bucket writes as the insert path does, the moved bucket's delete included. */
struct FakeStorage {
    std::map<OID, BSONObj> buckets;
    void apply(const WriteBatch& batch) {
        const auto& w = batch.write;
        if (batch.movedFrom) {
            ASSERT_EQ(buckets.count(batch.movedFrom->oid), 1u);
            ASSERT_EQ(buckets[batch.movedFrom->oid]["control"].Obj()["count"].numberLong(),
                      batch.movedFrom->count);
            buckets.erase(batch.movedFrom->oid);
        }
        if (w.kind == BucketWrite::Kind::kUpdate) {
            auto r = doc_diff::applyDiff(buckets.at(batch.bucketId.oid), w.diff);
            ASSERT_TRUE(r.isOK()) << r.getStatus();
            buckets[batch.bucketId.oid] = r.getValue();
        } else {
            buckets[batch.bucketId.oid] = w.document;
        }
    }
    void commit(BucketCatalog& catalog, const CollectionInfo& c,
                const std::shared_ptr<WriteBatch>& batch) {
        ASSERT_TRUE(claimWriteBatchCommitRights(*batch));
        ASSERT_TRUE(prepareCommit(catalog, c, batch).isOK());
        apply(*batch);
        finish(catalog, batch);
    }
    /** The times of the only stored bucket, in stored order, as offsets in seconds. */
    std::vector<long long> onlyBucketTimes() const {
        std::vector<long long> out;
        EXPECT_EQ(buckets.size(), 1u);
        if (buckets.size() != 1)
            return out;
        auto ms = extractMeasurements(buckets.begin()->second, "t", std::nullopt);
        EXPECT_TRUE(ms.isOK());
        for (auto& d : ms.getValue())
            out.push_back((d["t"].date().toMillisSinceEpoch() - kBase) / 1000);
        return out;
    }
};

uint32_t startSeconds(const WriteBatch& batch) {
    return batch.bucketId.oid.getTimestamp();
}

TEST(TimeseriesBucketMove, UncommittedBucketOfAnotherWriterTakesAnEarlierStart) {
    BucketCatalog catalog(4, test::limits());
    Writer a(catalog, 1), b(catalog, 2);
    auto first = a.stage(m(200, "h", 1));
    auto second = b.stage(m(0, "h", 2));
    EXPECT_EQ(first, second);
    EXPECT_EQ(startSeconds(*first), kBase / 1000);
    FakeStorage storage;
    storage.commit(catalog, a.info, first);
    EXPECT_EQ(storage.onlyBucketTimes(), (std::vector<long long>{0, 200}));
    EXPECT_EQ(storage.buckets.begin()->second["control"].Obj()["version"].numberInt(), 2);
}

TEST(TimeseriesBucketMove, OneWriterGoingBackInTimeKeeps80Bucketing) {
    BucketCatalog catalog(4, test::limits());
    Writer a(catalog, 1);
    auto first = a.stage(m(200, "h", 1));
    auto second = a.stage(m(0, "h", 2));
    EXPECT_NE(first, second);
    EXPECT_EQ(startSeconds(*first), (kBase / 1000 + 200) / 60 * 60);
}

TEST(TimeseriesBucketMove, AWriterThatStagedIntoTheBucketDoesNotMoveIt) {
    BucketCatalog catalog(4, test::limits());
    Writer a(catalog, 1), b(catalog, 2);
    auto first = a.stage(m(200, "h", 1));
    EXPECT_EQ(b.stage(m(210, "h", 2)), first);
    EXPECT_NE(b.stage(m(0, "h", 3)), first);
}

TEST(TimeseriesBucketMove, NoWriterIdKeeps80Bucketing) {
    BucketCatalog catalog(4, test::limits());
    Writer a(catalog, 0), b(catalog, 0);
    auto first = a.stage(m(200, "h", 1));
    EXPECT_NE(b.stage(m(0, "h", 2)), first);
}

TEST(TimeseriesBucketMove, StoredBucketMovesAndTheFirstCommitReplacesIt) {
    BucketCatalog catalog(4, test::limits());
    FakeStorage storage;
    Writer a(catalog, 1), b(catalog, 2);
    auto first = a.stage(m(200, "h", 1));
    storage.commit(catalog, a.info, first);
    auto moved = b.stage(m(0, "h", 2));
    ASSERT_NE(first, moved);
    EXPECT_EQ(startSeconds(*moved), kBase / 1000);
    EXPECT_EQ(moved->measurements.size(), 2u);
    // Later measurements of the series go to the moved bucket.
    EXPECT_EQ(a.stage(m(210, "h", 3)), moved);
    storage.commit(catalog, b.info, moved);
    ASSERT_TRUE(moved->movedFrom);
    EXPECT_EQ(moved->movedFrom->oid, first->bucketId.oid);
    EXPECT_EQ(moved->write.kind, BucketWrite::Kind::kInsert);
    EXPECT_EQ(storage.onlyBucketTimes(), (std::vector<long long>{0, 200, 210}));
    // Measurements committed once: the moved one is not counted again.
    BSONObjBuilder stats;
    appendExecutionStats(catalog, "uuid-move", stats);
    EXPECT_EQ(stats.obj()["numMeasurementsCommitted"].numberLong(), 3);
    // The next commit appends to the moved bucket.
    auto next = a.stage(m(220, "h", 4));
    EXPECT_EQ(next->bucketId, moved->bucketId);
    storage.commit(catalog, a.info, next);
    EXPECT_FALSE(next->movedFrom);
    EXPECT_EQ(storage.onlyBucketTimes(), (std::vector<long long>{0, 200, 210, 220}));
}

TEST(TimeseriesBucketMove, BucketBeingCommittedMovesWhenItsBatchFinishes) {
    BucketCatalog catalog(4, test::limits());
    FakeStorage storage;
    Writer a(catalog, 1), b(catalog, 2);
    auto first = a.stage(m(200, "h", 1));
    ASSERT_TRUE(claimWriteBatchCommitRights(*first));
    ASSERT_TRUE(prepareCommit(catalog, a.info, first).isOK());
    auto moved = b.stage(m(0, "h", 2));
    ASSERT_NE(first, moved);
    EXPECT_EQ(moved->measurements.size(), 1u);
    ASSERT_TRUE(claimWriteBatchCommitRights(*moved));
    Status s = Status::OK();
    EXPECT_FALSE(tryPrepareCommit(catalog, b.info, moved, &s));  // waits for `first`
    storage.apply(*first);
    finish(catalog, first);
    ASSERT_TRUE(tryPrepareCommit(catalog, b.info, moved, &s));
    ASSERT_TRUE(s.isOK()) << s;
    EXPECT_EQ(moved->measurements.size(), 2u);
    ASSERT_TRUE(moved->movedFrom);
    EXPECT_EQ(moved->movedFrom->count, 1u);
    storage.apply(*moved);
    finish(catalog, moved);
    EXPECT_EQ(storage.onlyBucketTimes(), (std::vector<long long>{0, 200}));
}

TEST(TimeseriesBucketMove, BucketWithBatchesOfOtherWritersMovesWhenTheyAreDone) {
    BucketCatalog catalog(4, test::limits());
    FakeStorage storage;
    Writer a(catalog, 1), b(catalog, 2), c(catalog, 3);
    auto first = a.stage(m(200, "h", 1));
    ASSERT_TRUE(claimWriteBatchCommitRights(*first));
    ASSERT_TRUE(prepareCommit(catalog, a.info, first).isOK());
    auto open = b.stage(m(210, "h", 2));  // the bucket's next batch, not being committed yet
    ASSERT_NE(open, first);
    auto moved = c.stage(m(0, "h", 3));
    ASSERT_NE(moved, open);
    ASSERT_TRUE(claimWriteBatchCommitRights(*moved));
    Status s = Status::OK();
    EXPECT_FALSE(tryPrepareCommit(catalog, c.info, moved, &s));
    storage.apply(*first);
    finish(catalog, first);
    EXPECT_FALSE(tryPrepareCommit(catalog, c.info, moved, &s));  // `open` still to commit
    storage.commit(catalog, b.info, open);
    ASSERT_TRUE(tryPrepareCommit(catalog, c.info, moved, &s));
    ASSERT_TRUE(s.isOK()) << s;
    ASSERT_TRUE(moved->movedFrom);
    EXPECT_EQ(moved->movedFrom->count, 2u);
    storage.apply(*moved);
    finish(catalog, moved);
    EXPECT_EQ(storage.onlyBucketTimes(), (std::vector<long long>{0, 200, 210}));
}

TEST(TimeseriesBucketMove, FailedBatchOfTheMovedBucketLeavesTheNewOneOnItsOwn) {
    BucketCatalog catalog(4, test::limits());
    Writer a(catalog, 1), b(catalog, 2);
    auto first = a.stage(m(200, "h", 1));
    ASSERT_TRUE(claimWriteBatchCommitRights(*first));
    ASSERT_TRUE(prepareCommit(catalog, a.info, first).isOK());
    auto moved = b.stage(m(0, "h", 2));
    abort(catalog, first, Status(ErrorCodes::WriteConflict, "test"));
    ASSERT_TRUE(claimWriteBatchCommitRights(*moved));
    ASSERT_TRUE(prepareCommit(catalog, b.info, moved).isOK());
    EXPECT_FALSE(moved->movedFrom);
    EXPECT_EQ(moved->measurements.size(), 1u);
}

TEST(TimeseriesBucketMove, NoMoveBeyondOneSpan) {
    BucketCatalog catalog(4, test::limits());
    Writer a(catalog, 1), b(catalog, 2);
    // 3600 s spans: with a measurement at 0 the bucket of the one at 3700 would not fit.
    auto first = a.stage(m(3700, "h", 1));
    auto second = b.stage(m(0, "h", 2));
    EXPECT_NE(second, first);
    EXPECT_EQ(startSeconds(*first), (kBase / 1000 + 3700) / 60 * 60);
    EXPECT_EQ(startSeconds(*second), kBase / 1000);
}

TEST(TimeseriesBucketMove, NoMoveOnceTheSeriesHasOtherBuckets) {
    BucketCatalog catalog(4, test::limits());
    FakeStorage storage;
    Writer a(catalog, 1), b(catalog, 2);
    storage.commit(catalog, a.info, a.stage(m(0, "h", 1)));
    // Time forward: a second bucket, after the first one (closed) in the catalog's memory.
    auto later = a.stage(m(3700, "h", 2));
    storage.commit(catalog, a.info, later);
    auto back = b.stage(m(3650, "h", 3));
    EXPECT_NE(back, later);
}

}  // namespace
}  // namespace mongo::timeseries::bucket_catalog
