#include "mongo/db/exec/distinct_scan.h"

#include <gtest/gtest.h>

#include "../storage/storage_test_util.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/operation_context.h"

namespace mongo {
namespace {

const std::vector<std::string> kMeta{"meta"};

TEST(DistinctScanDirection, MaxTimeAfterMetaServesLatestForward) {
    auto dir =
        distinctScanDirection(BSON("meta" << 1 << "control.max.t" << -1 << "control.min.t" << -1),
                              kMeta, BSON("meta" << 1 << "control.max.t" << -1));
    ASSERT_TRUE(dir);
    EXPECT_TRUE(*dir);
}

TEST(DistinctScanDirection, AscendingIndexIsReadBackwards) {
    auto dir = distinctScanDirection(BSON("meta" << -1 << "control.max.t" << 1), kMeta,
                                     BSON("meta" << 1 << "control.max.t" << -1));
    ASSERT_TRUE(dir);
    EXPECT_FALSE(*dir);
}

TEST(DistinctScanDirection, MinTimeIndexDoesNotServeAMaxTimeSort) {
    EXPECT_FALSE(
        distinctScanDirection(BSON("meta" << 1 << "control.min.t" << 1 << "control.max.t" << 1),
                              kMeta, BSON("meta" << 1 << "control.max.t" << -1)));
}

TEST(DistinctScanDirection, SortKeysBelowTheGroupKeyAreIgnored) {
    auto dir = distinctScanDirection(BSON("meta" << 1 << "control.max.t" << 1), kMeta,
                                     BSON("meta.a" << -1 << "control.max.t" << 1));
    ASSERT_TRUE(dir);
    EXPECT_TRUE(*dir);
}

TEST(DistinctScanDirection, GroupPathsMustBeTheWholeKeyPrefix) {
    auto sort = BSON("control.max.t" << -1);
    EXPECT_FALSE(distinctScanDirection(BSON("meta.a" << 1 << "control.max.t" << -1), kMeta, sort));
    EXPECT_FALSE(
        distinctScanDirection(BSON("meta" << 1 << "x" << 1 << "control.max.t" << -1), kMeta, sort));
    auto two = std::vector<std::string>{"meta.b", "meta.a"};
    auto dir = distinctScanDirection(BSON("meta.a" << 1 << "meta.b" << -1 << "control.max.t" << -1),
                                     two, sort);
    ASSERT_TRUE(dir);
    EXPECT_TRUE(*dir);
}

TEST(DistinctScanDirection, MixedDirectionsOrNoOrderingKeyAreRefused) {
    auto kp = BSON("meta" << 1 << "a" << 1 << "b" << 1);
    EXPECT_FALSE(distinctScanDirection(kp, kMeta, BSON("a" << 1 << "b" << -1)));
    EXPECT_FALSE(distinctScanDirection(kp, kMeta, BSON("meta" << 1)));
    EXPECT_FALSE(distinctScanDirection(BSON("meta"
                                            << "hashed"
                                            << "a" << 1),
                                       kMeta, BSON("a" << 1)));
}

/** An index {g: 1, t: -1} over (g, t) pairs, and an operation reading it. */
struct IndexFixture {
    TempDir dir;
    std::unique_ptr<WiredTigerKVEngine> engine = openEngine(testOptions(dir.path()));
    IndexEntry index;
    OperationContext opCtx{nullptr, nullptr, 1};

    IndexFixture() {
        IndexConfig c;
        c.keyPattern = BSON("g" << 1 << "t" << -1);
        c.indexName = "g_1_t_-1";
        c.ns = "test.c";
        EXPECT_TRUE(engine->createSortedDataInterface("index-1", c).isOK());
        index.sdi = engine->getSortedDataInterface("index-1", c);
        index.desc.keyPattern = c.keyPattern;
        index.desc.name = c.indexName;
        auto ru = engine->newRecoveryUnit();
        WriteUnitOfWork w(ru.get());
        long long id = 1;
        for (int g : {3, 1, 2})
            for (int t = 0; t < 50; ++t)
                EXPECT_TRUE(
                    index.sdi->insert(ru.get(), BSON("" << g << "" << t), RecordId(id++), true)
                        .isOK());
        w.commit();
        opCtx.swapRecoveryUnit(engine->newRecoveryUnit());
    }
};

/** The fixture's index plus (g: null) entries 1000..1002, inserted in the same way. */
struct NullKeyFixture : IndexFixture {
    NullKeyFixture() {
        auto ru = engine->newRecoveryUnit();
        WriteUnitOfWork w(ru.get());
        for (long long id = 1000; id < 1003; ++id)
            EXPECT_TRUE(
                index.sdi->insert(ru.get(), BSON("" << BSONNULL << "" << 1), RecordId(id), true)
                    .isOK());
        w.commit();
        opCtx.swapRecoveryUnit(engine->newRecoveryUnit());
    }
};

/** (record id, keys examined) of a whole scan. */
std::vector<long long> drain(DistinctScanStage& stage, OperationContext* opCtx) {
    std::vector<long long> ids;
    while (auto m = stage.next(opCtx))
        ids.push_back(m->id.getLong());
    return ids;
}

TEST(DistinctScanStage, ForwardReturnsTheFirstEntryOfEachPrefixReadingOneKeyEach) {
    IndexFixture f;
    DistinctScanStage stage(nullptr, &f.index, 1, true);
    // g = 1 is records 51..100 (t = 0..49): the greatest t (49) comes first in {t: -1}.
    EXPECT_EQ(drain(stage, &f.opCtx), (std::vector<long long>{100, 150, 50}));
    EXPECT_EQ(stage.stats().keysExamined, 3);
    EXPECT_EQ(stage.stats().advanced, 3);
}

TEST(DistinctScanStage, BackwardReturnsTheLastEntryOfEachPrefix) {
    IndexFixture f;
    DistinctScanStage stage(nullptr, &f.index, 1, false);
    EXPECT_EQ(drain(stage, &f.opCtx), (std::vector<long long>{1, 101, 51}));
    EXPECT_EQ(stage.stats().keysExamined, 3);
}

TEST(DistinctScanStage, NullKeysAreOneValueUnlessAllAreAsked) {
    NullKeyFixture f;
    DistinctScanStage one(nullptr, &f.index, 1, true);
    EXPECT_EQ(drain(one, &f.opCtx), (std::vector<long long>{1000, 100, 150, 50}));
    DistinctScanStage all(nullptr, &f.index, 1, true, DistinctScanStage::NullKeys::kAll);
    EXPECT_EQ(drain(all, &f.opCtx), (std::vector<long long>{1000, 1001, 1002, 100, 150, 50}));
}

TEST(DistinctScanStage, SurvivesSaveAndRestoreBetweenResults) {
    IndexFixture f;
    DistinctScanStage stage(nullptr, &f.index, 1, true);
    std::vector<long long> ids;
    while (auto m = stage.next(&f.opCtx)) {
        ids.push_back(m->id.getLong());
        stage.save();
        stage.restore(&f.opCtx);
    }
    EXPECT_EQ(ids, (std::vector<long long>{100, 150, 50}));
}

TEST(DistinctScanStage, ExplainShowsTheIndexAndWholeBoundsInScanOrder) {
    IndexFixture f;
    DistinctScanStage stage(nullptr, &f.index, 1, false);
    BSONObjBuilder b;
    stage.appendExplainInfo(&b);
    BSONObj e = b.obj();
    EXPECT_EQ(stage.stageName(), "DISTINCT_SCAN");
    EXPECT_EQ(e["indexName"].str(), "g_1_t_-1");
    EXPECT_EQ(e["direction"].str(), "backward");
    EXPECT_EQ(e["indexBounds"].Obj()["g"].Obj().firstElement().str(), "[MaxKey, MinKey]");
    EXPECT_EQ(e["indexBounds"].Obj()["t"].Obj().firstElement().str(), "[MinKey, MaxKey]");
}

}  // namespace
}  // namespace mongo
