#include <gtest/gtest.h>

#include <map>
#include <thread>

#include "catalog_test_util.h"

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/json.h"
#include "mongo/db/timeseries/bucket_catalog/bucket_catalog.h"
#include "mongo/db/timeseries/bucket_compression.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/update/document_diff.h"

namespace mongo::timeseries::bucket_catalog {
namespace {

constexpr long long kBase = 1700000000000LL;  // 2023-11-14T22:13:20Z

BSONObj m(long long offsetMs, StringData meta, double v) {
    return BSON("t" << Date_t::fromMillisSinceEpoch(kBase + offsetMs) << "m" << meta << "v" << v);
}

CollectionInfo coll(bool reopeningIndex = false) {
    return test::collection("uuid-1", reopeningIndex);
}

/** Three measurements per bucket. */
BucketLimits smallLimits() {
    BucketLimits l = test::limits();
    l.maxCount = 3;
    return l;
}

/** A fake buckets collection: applies bucket writes like the storage layer would. */
struct FakeStorage {
    std::map<OID, BSONObj> buckets;

    void apply(const WriteBatch& batch) {
        const auto& w = batch.write;
        switch (w.kind) {
            case BucketWrite::Kind::kInsert:
                ASSERT_EQ(buckets.count(batch.bucketId.oid), 0u);
                buckets[batch.bucketId.oid] = w.document;
                break;
            case BucketWrite::Kind::kReplace:
                buckets[batch.bucketId.oid] = w.document;
                break;
            case BucketWrite::Kind::kUpdate: {
                auto r = doc_diff::applyDiff(buckets.at(batch.bucketId.oid), w.diff);
                ASSERT_TRUE(r.isOK()) << r.getStatus() << " diff " << w.diff.toString();
                buckets[batch.bucketId.oid] = r.getValue();
                break;
            }
        }
    }
};

/** Inserts and commits one measurement (no reopening). */
std::shared_ptr<WriteBatch> insertAndCommit(BucketCatalog& catalog, const CollectionInfo& c,
                                            const BSONObj& doc, FakeStorage& storage) {
    auto batch = test::stageWithoutReopening(catalog, c, doc);
    EXPECT_TRUE(claimWriteBatchCommitRights(*batch));
    EXPECT_TRUE(prepareCommit(catalog, c, batch).isOK());
    storage.apply(*batch);
    finish(catalog, batch);
    EXPECT_TRUE(getWriteBatchStatus(*batch).isOK());
    return batch;
}

long long stat(BucketCatalog& catalog, StringData name) {
    BSONObjBuilder b;
    appendExecutionStats(catalog, "uuid-1", b);
    return b.obj()[name].numberLong();
}

TEST(TimeseriesBucketCatalog, MissingOrNonDateTimeIsBadValue) {
    BucketCatalog catalog(4, smallLimits());
    EXPECT_EQ(tryInsert(catalog, coll(),
                        BSON("m"
                             << "a"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
    EXPECT_EQ(tryInsert(catalog, coll(),
                        BSON("t" << 1 << "m"
                                 << "a"))
                  .getStatus()
                  .code(),
              ErrorCodes::BadValue);
}

TEST(TimeseriesBucketCatalog, SameSeriesSharesABatch) {
    BucketCatalog catalog(4, smallLimits());
    auto a = tryInsert(catalog, coll(), m(0, "a", 1)).getValue().batch;
    auto b = tryInsert(catalog, coll(), m(1000, "a", 2)).getValue().batch;
    auto c = tryInsert(catalog, coll(), m(1000, "b", 2)).getValue().batch;
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    EXPECT_EQ(a->measurements.size(), 2u);
    EXPECT_EQ(stat(catalog, "numBucketsOpenedDueToMetadata"), 2);
}

TEST(TimeseriesBucketCatalog, BucketIdEncodesTheRoundedStart) {
    BucketCatalog catalog(4, smallLimits());
    auto a = tryInsert(catalog, coll(), m(45000, "a", 1)).getValue().batch;
    EXPECT_EQ(a->bucketId.oid.getTimestamp(),
              static_cast<uint32_t>(((kBase + 45000) / 1000 / 60) * 60));
}

TEST(TimeseriesBucketCatalog, FirstCommitInsertsThenDiffsAppend) {
    BucketCatalog catalog(4, smallLimits());
    FakeStorage storage;
    auto c = coll();
    auto b1 = insertAndCommit(catalog, c, m(0, "a", 21.5), storage);
    EXPECT_EQ(b1->write.kind, BucketWrite::Kind::kInsert);
    const BSONObj& doc = b1->write.document;
    EXPECT_EQ(doc.getFieldDotted("control.version").numberInt(), 2);
    EXPECT_EQ(doc.getFieldDotted("control.count").type(), BSONType::kNumberInt);
    EXPECT_EQ(doc.getFieldDotted("control.min.t").date().toMillisSinceEpoch(),
              (kBase / 60000) * 60000);
    EXPECT_EQ(doc["meta"].str(), "a");
    EXPECT_EQ(doc.getFieldDotted("data.v").binDataType(), BinDataType::Column);

    auto b2 = insertAndCommit(catalog, c, m(1000, "a", 21.6), storage);
    ASSERT_EQ(b2->write.kind, BucketWrite::Kind::kUpdate);
    EXPECT_EQ(b2->write.diff.getFieldDotted("scontrol.u.count").numberInt(), 2);
    EXPECT_FALSE(b2->write.diff.getFieldDotted("sdata.b.v.o").eoo());
    auto b3 = insertAndCommit(catalog, c,
                              BSON("t" << Date_t::fromMillisSinceEpoch(kBase + 2000) << "m"
                                       << "a"
                                       << "v" << 3.0 << "new" << 7),
                              storage);
    EXPECT_EQ(b3->write.diff.getFieldDotted("sdata.i.new").binDataType(), BinDataType::Column);

    const BSONObj& stored = storage.buckets.at(b1->bucketId.oid);
    auto ms = extractMeasurements(stored, "t", StringData("m"));
    ASSERT_TRUE(ms.isOK());
    ASSERT_EQ(ms.getValue().size(), 3u);
    EXPECT_EQ(ms.getValue()[2]["new"].numberInt(), 7);
    EXPECT_TRUE(ms.getValue()[0]["new"].eoo());
    EXPECT_EQ(stored.getFieldDotted("control.max.v").numberDouble(), 21.6);
    EXPECT_EQ(stored.getFieldDotted("control.min.new").numberInt(), 7);
    EXPECT_EQ(stat(catalog, "numBucketInserts"), 1);
    EXPECT_EQ(stat(catalog, "numBucketUpdates"), 2);
    EXPECT_EQ(stat(catalog, "numMeasurementsCommitted"), 3);
}

TEST(TimeseriesBucketCatalog, StoredColumnsEqualAOneShotCompression) {
    BucketCatalog catalog(4, smallLimits());
    FakeStorage storage;
    auto c = coll();
    std::vector<BSONObj> all;
    OID id;
    for (int i = 0; i < 3; ++i) {
        all.push_back(m(i * 1000, "a", 20 + i * 0.1));
        id = insertAndCommit(catalog, c, all.back(), storage)->bucketId.oid;
    }
    auto oneShot = makeNewCompressedBucket(id,
                                           BSON("meta"
                                                << "a")
                                               .firstElement(),
                                           all, c.options);
    ASSERT_TRUE(oneShot.isOK());
    EXPECT_TRUE(storage.buckets.at(id)["data"].Obj().binaryEqual(oneShot.getValue()["data"].Obj()));
    EXPECT_EQ(
        compareObjects(storage.buckets.at(id)["control"].Obj(), oneShot.getValue()["control"].Obj(),
                       ComparisonRules::kConsiderFieldName),
        0);
}

TEST(TimeseriesBucketCatalog, CountRolloverOpensANewBucket) {
    BucketCatalog catalog(4, smallLimits());
    FakeStorage storage;
    auto c = coll();
    for (int i = 0; i < 4; ++i)
        insertAndCommit(catalog, c, m(i * 1000, "a", i), storage);
    EXPECT_EQ(storage.buckets.size(), 2u);
    EXPECT_EQ(stat(catalog, "numBucketsClosedDueToCount"), 1);
}

TEST(TimeseriesBucketCatalog, TimeForwardClosesAndBackwardArchivesAndReopens) {
    BucketCatalog catalog(4, smallLimits());
    FakeStorage storage;
    auto c = coll();
    auto first = insertAndCommit(catalog, c, m(0, "a", 1), storage);
    insertAndCommit(catalog, c, m(3600 * 1000, "a", 2), storage);
    EXPECT_EQ(stat(catalog, "numBucketsClosedDueToTimeForward"), 1);
    EXPECT_EQ(storage.buckets.size(), 2u);

    // Going back: the hour-1 bucket is archived; no archived candidate covers t=0.5s
    // (the first bucket was soft-closed, not archived), so a new bucket opens.
    auto r = tryInsert(catalog, c, m(500, "a", 3)).getValue();
    EXPECT_EQ(stat(catalog, "numBucketsArchivedDueToTimeBackward"), 1);
    ASSERT_FALSE(r.reopening);

    // Forward again into the archived hour-1 bucket: the catalog asks to fetch it by _id.
    auto req = tryInsert(catalog, c, m(3600 * 1000 + 5000, "a", 4)).getValue();
    ASSERT_TRUE(req.reopening);
    ASSERT_TRUE(std::holds_alternative<OID>(req.reopening->candidate));
    const OID archived = std::get<OID>(req.reopening->candidate);
    EXPECT_NE(archived, first->bucketId.oid);
    auto reopened = insertWithReopeningContext(catalog, c, m(3600 * 1000 + 5000, "a", 4),
                                               storage.buckets.at(archived));
    ASSERT_TRUE(reopened.isOK());
    EXPECT_EQ(reopened.getValue().batch->bucketId.oid, archived);
    EXPECT_EQ(stat(catalog, "numBucketsReopened"), 1);
}

// Concurrent writers: while one writer's batch of a series is still being committed, another
// writer's measurement may roll the bucket over forward and a third's go back in time.
TEST(TimeseriesBucketCatalog, BucketRolledOverWhileCommittingIsReopenedFromMemory) {
    BucketCatalog catalog(4, smallLimits());
    auto c = coll();
    const long long hour = 3600 * 1000;
    auto a = tryInsert(catalog, c, m(0, "a", 1)).getValue().batch;  // not committed yet
    auto b = tryInsert(catalog, c, m(hour + 5000, "a", 2)).getValue();
    ASSERT_FALSE(b.reopening);
    EXPECT_EQ(stat(catalog, "numBucketsClosedDueToTimeForward"), 1);
    // The later bucket continues the first one's span (its commit still runs): it starts one
    // span after it, not at the measurement's own rounded time.
    EXPECT_EQ(b.batch->bucketId.oid.getTimestamp(), a->bucketId.oid.getTimestamp() + 3600u);
    // Back into the first bucket's span: it becomes the open bucket again, same batch.
    auto back = tryInsert(catalog, c, m(10000, "a", 3)).getValue();
    ASSERT_FALSE(back.reopening);
    EXPECT_EQ(back.batch, a);
    EXPECT_EQ(a->measurements.size(), 2u);
    EXPECT_EQ(stat(catalog, "numBucketsReopened"), 1);
    EXPECT_EQ(stat(catalog, "numBucketsArchivedDueToTimeBackward"), 1);
}

TEST(TimeseriesBucketCatalog, BucketBetweenKnownBucketsCoversTheGap) {
    BucketCatalog catalog(4, smallLimits());
    auto c = coll();
    const long long hour = 3600 * 1000;
    auto a = tryInsert(catalog, c, m(0, "a", 1)).getValue().batch;
    auto later = tryInsert(catalog, c, m(2 * hour + 300000, "a", 2)).getValue().batch;
    const uint32_t start = a->bucketId.oid.getTimestamp();
    EXPECT_EQ(later->bucketId.oid.getTimestamp(), start + 2 * 3600u);
    // Between the two: a new bucket from the end of the first, not from its own rounded time,
    // so that measurements further back in the gap join it.
    auto gap = tryInsert(catalog, c, m(hour + 600000, "a", 3)).getValue().batch;
    EXPECT_EQ(gap->bucketId.oid.getTimestamp(), start + 3600u);
    auto further = tryInsert(catalog, c, m(hour + 60000, "a", 4)).getValue().batch;
    EXPECT_EQ(further, gap);
    // With nothing known before it, a bucket starts at the measurement's rounded time (§3.5).
    auto other = tryInsert(catalog, c, m(hour, "b", 1)).getValue().batch;
    auto otherBack = tryInsert(catalog, c, m(1000, "b", 2)).getValue().batch;
    EXPECT_NE(other, otherBack);
    EXPECT_EQ(otherBack->bucketId.oid.getTimestamp(),
              static_cast<uint32_t>(((kBase + 1000) / 1000 / 60) * 60));
}

// Concurrent writers deliver a series' measurements a little out of order. Its buckets keep
// one alignment: the early arrival's bucket is left behind, later buckets tile the time.
TEST(TimeseriesBucketCatalog, DisorderedSeriesKeepsItsBucketsAligned) {
    BucketCatalog catalog(4, smallLimits());
    FakeStorage storage;
    auto c = coll();
    const long long hour = 3600 * 1000;
    const uint32_t minute0 = static_cast<uint32_t>(kBase / 1000 / 60 * 60);  // 22:13:00
    // 22:14:30 arrives first, then 22:13:20: the earlier bucket opens behind it.
    auto early = insertAndCommit(catalog, c, m(70000, "a", 1), storage);
    EXPECT_EQ(early->bucketId.oid.getTimestamp(), minute0 + 60);
    auto first = insertAndCommit(catalog, c, m(0, "a", 2), storage);
    EXPECT_EQ(first->bucketId.oid.getTimestamp(), minute0);
    insertAndCommit(catalog, c, m(1800000, "a", 3), storage);
    // 23:13:30 ends the first bucket's span. The early bucket's span still holds it, but it
    // starts inside the first bucket's: no reopening, a new bucket where the first one ends.
    auto r = tryInsert(catalog, c, m(hour + 10000, "a", 4));
    ASSERT_TRUE(r.isOK());
    ASSERT_FALSE(r.getValue().reopening);
    auto second = r.getValue().batch;
    EXPECT_EQ(second->bucketId.oid.getTimestamp(), minute0 + 3600);
    ASSERT_TRUE(claimWriteBatchCommitRights(*second));
    ASSERT_TRUE(prepareCommit(catalog, c, second).isOK());
    storage.apply(*second);
    finish(catalog, second);
    // 00:15:20 (two minutes into the next span) arrives before 00:13:xx: the series is out of
    // order, so its next bucket still starts at 00:13:00, where the last one ends.
    auto third = insertAndCommit(catalog, c, m(2 * hour + 120000, "a", 5), storage);
    EXPECT_EQ(third->bucketId.oid.getTimestamp(), minute0 + 2 * 3600);
    auto join = insertAndCommit(catalog, c, m(2 * hour + 30000, "a", 6), storage);
    EXPECT_EQ(join->bucketId, third->bucketId);

    // An in-order series gets upstream's buckets: the next one at its own rounded time.
    auto b1 = insertAndCommit(catalog, c, m(0, "b", 1), storage);
    auto b2 = insertAndCommit(catalog, c, m(hour + 120000, "b", 2), storage);
    EXPECT_EQ(b1->bucketId.oid.getTimestamp(), minute0);
    EXPECT_EQ(b2->bucketId.oid.getTimestamp(), minute0 + 3600 + 120);
}

TEST(TimeseriesBucketCatalog, QueryBasedReopeningNeedsTheIndex) {
    BucketCatalog catalog(4, smallLimits());
    auto r = tryInsert(catalog, coll(true), m(0, "a", 1)).getValue();
    ASSERT_TRUE(r.reopening);
    auto& pipeline = std::get<std::vector<BSONObj>>(r.reopening->candidate);
    ASSERT_EQ(pipeline.size(), 5u);
    EXPECT_EQ(pipeline[4].toString(), "{ $limit: 1 }");
    EXPECT_FALSE(tryInsert(catalog, coll(false), m(0, "b", 1)).getValue().reopening);
}

TEST(TimeseriesBucketCatalog, OutOfOrderBatchMakesTheBucketUnsorted) {
    BucketCatalog catalog(4, smallLimits());
    FakeStorage storage;
    auto c = coll();
    auto b1 = insertAndCommit(catalog, c, m(5000, "a", 1), storage);
    auto b2 = insertAndCommit(catalog, c, m(2000, "a", 2), storage);
    EXPECT_EQ(b2->write.diff.getFieldDotted("scontrol.u.version").numberInt(), 3);
    EXPECT_EQ(storage.buckets.at(b1->bucketId.oid).getFieldDotted("control.version").numberInt(),
              3);
    EXPECT_EQ(stat(catalog, "numCompressedBucketsConvertedToUnsorted"), 1);
}

TEST(TimeseriesBucketCatalog, ReopenedV1BucketIsRewrittenAsV2) {
    BucketCatalog catalog(4, smallLimits());
    auto c = coll();
    const long long start = (kBase / 60000) * 60000;
    BSONObj v1 =
        BSON("_id" << OID::gen() << "control"
                   << BSON("version"
                           << 1 << "min"
                           << BSON("t" << Date_t::fromMillisSinceEpoch(start) << "v" << 1.0)
                           << "max"
                           << BSON("t" << Date_t::fromMillisSinceEpoch(kBase + 1000) << "v" << 2.0))
                   << "meta"
                   << "a"
                   << "data"
                   << BSON("t" << BSON("0" << Date_t::fromMillisSinceEpoch(kBase + 1000) << "1"
                                           << Date_t::fromMillisSinceEpoch(kBase))
                               << "v" << BSON("0" << 2.0 << "1" << 1.0)));
    auto r = insertWithReopeningContext(catalog, c, m(2000, "a", 3), v1);
    ASSERT_TRUE(r.isOK());
    auto batch = r.getValue().batch;
    ASSERT_TRUE(claimWriteBatchCommitRights(*batch));
    ASSERT_TRUE(prepareCommit(catalog, c, batch).isOK());
    ASSERT_EQ(batch->write.kind, BucketWrite::Kind::kReplace);
    auto ms = extractMeasurements(batch->write.document, "t", std::nullopt).getValue();
    ASSERT_EQ(ms.size(), 3u);
    EXPECT_EQ(ms[0]["v"].numberDouble(), 1.0);
    EXPECT_EQ(ms[2]["v"].numberDouble(), 3.0);
    EXPECT_EQ(batch->write.document.getFieldDotted("control.version").numberInt(), 2);
    finish(catalog, batch);
}

TEST(TimeseriesBucketCatalog, MismatchedReopeningCandidateIsCountedAndIgnored) {
    BucketCatalog catalog(4, smallLimits());
    auto c = coll();
    BSONObj wrongMeta = makeNewCompressedBucket(OID::gen(),
                                                BSON("meta"
                                                     << "zzz")
                                                    .firstElement(),
                                                {m(0, "zzz", 1)}, c.options)
                            .getValue();
    auto r = insertWithReopeningContext(catalog, c, m(10, "a", 1), wrongMeta);
    ASSERT_TRUE(r.isOK());
    EXPECT_NE(r.getValue().batch->bucketId.oid, wrongMeta["_id"].OID());
    EXPECT_EQ(stat(catalog, "numBucketReopeningsFailed"), 1);
}

TEST(TimeseriesBucketCatalog, MemoryThresholdArchivesIdleBuckets) {
    BucketLimits l = smallLimits();
    l.idleExpiryMemoryThresholdBytes = 1;  // always above
    BucketCatalog catalog(1, l);
    FakeStorage storage;
    auto c = coll();
    insertAndCommit(catalog, c, m(0, "a", 1), storage);
    insertAndCommit(catalog, c, m(0, "b", 1), storage);  // allocating expires idle "a"
    EXPECT_GE(stat(catalog, "numBucketsArchivedDueToMemoryThreshold"), 1);
    BSONObjBuilder ss;
    appendServerStatus(catalog, ss);
    BSONObj s = ss.obj();
    EXPECT_FALSE(s["numArchivedBuckets"].eoo());
    EXPECT_FALSE(s["stateManagement"].eoo());
}

TEST(TimeseriesBucketCatalog, ClearedBucketFailsPendingBatch) {
    BucketCatalog catalog(4, smallLimits());
    auto c = coll();
    auto batch = tryInsert(catalog, c, m(0, "a", 1)).getValue().batch;
    directWriteStart(catalog, c.uuid, batch->bucketId.oid);
    ASSERT_TRUE(claimWriteBatchCommitRights(*batch));
    EXPECT_EQ(prepareCommit(catalog, c, batch).code(), ErrorCodes::TimeseriesBucketCleared);
    EXPECT_EQ(getWriteBatchStatus(*batch).code(), ErrorCodes::TimeseriesBucketCleared);
}

TEST(TimeseriesBucketCatalog, FrozenBucketIsNotReopened) {
    BucketCatalog catalog(4, smallLimits());
    FakeStorage storage;
    auto c = coll();
    auto b = insertAndCommit(catalog, c, m(0, "a", 1), storage);
    freeze(catalog, b->bucketId);
    EXPECT_TRUE(isFrozen(catalog, b->bucketId));
    auto r =
        insertWithReopeningContext(catalog, c, m(10, "a", 1), storage.buckets.at(b->bucketId.oid));
    EXPECT_NE(r.getValue().batch->bucketId.oid, b->bucketId.oid);
    EXPECT_EQ(stat(catalog, "numBucketsFrozen"), 1);
}

TEST(TimeseriesBucketCatalog, StatsNamesInUpstreamOrder) {
    BucketCatalog catalog(4, smallLimits());
    BSONObjBuilder none;
    appendServerStatus(catalog, none);
    EXPECT_TRUE(none.obj().isEmpty());
    BSONObjBuilder b;
    appendExecutionStats(catalog, "nothing", b);
    auto names = b.obj().getFieldNames();
    ASSERT_GE(names.size(), 27u);
    EXPECT_EQ(names[0], "numBucketInserts");
    EXPECT_EQ(names.back(), "numDuplicateBucketsReopened");
}

TEST(TimeseriesBucketCatalog, ConcurrentWritersGroupCommitWithoutLosingMeasurements) {
    BucketLimits l = smallLimits();
    l.maxCount = 50;
    BucketCatalog catalog(8, l);
    FakeStorage storage;
    std::mutex storageMutex;
    auto c = coll();
    constexpr int kThreads = 4, kPerThread = 300, kSeries = 5;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kPerThread; ++i) {
                BSONObj doc = m(i * 10, std::string(1, 'a' + (i % kSeries)), t * 1000 + i);
                auto r = tryInsert(catalog, c, doc).getValue();
                if (r.reopening)
                    r = insertWithReopeningContext(catalog, c, doc, BSONObj()).getValue();
                auto batch = r.batch;
                if (claimWriteBatchCommitRights(*batch)) {
                    Status s = prepareCommit(catalog, c, batch);
                    if (s.isOK()) {
                        std::lock_guard lk(storageMutex);
                        storage.apply(*batch);
                    }
                    if (s.isOK())
                        finish(catalog, batch);
                }
                ASSERT_TRUE(getWriteBatchStatus(*batch).isOK());
            }
        });
    }
    for (auto& th : threads)
        th.join();
    size_t total = 0;
    for (auto& [id, doc] : storage.buckets) {
        auto ms = extractMeasurements(doc, "t", std::nullopt);
        ASSERT_TRUE(ms.isOK());
        EXPECT_LE(ms.getValue().size(), 50u);
        EXPECT_EQ(doc.getFieldDotted("control.count").numberInt(), int(ms.getValue().size()));
        total += ms.getValue().size();
    }
    EXPECT_EQ(total, size_t(kThreads * kPerThread));
    EXPECT_EQ(stat(catalog, "numMeasurementsCommitted"), kThreads * kPerThread);
}

}  // namespace
}  // namespace mongo::timeseries::bucket_catalog
