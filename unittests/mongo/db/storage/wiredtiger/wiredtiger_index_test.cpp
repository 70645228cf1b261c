#include "mongo/db/storage/wiredtiger/wiredtiger_index.h"

#include <gtest/gtest.h>

#include "../storage_test_util.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/write_conflict_exception.h"

namespace mongo {
namespace {

IndexConfig config(bool unique, BSONObj pattern = BSON("a" << 1)) {
    IndexConfig c;
    c.keyPattern = pattern;
    c.unique = unique;
    c.indexName = "a_1";
    c.ns = "test.c";
    return c;
}

struct Fixture {
    TempDir dir;
    std::unique_ptr<WiredTigerKVEngine> engine = openEngine(testOptions(dir.path()));
    std::unique_ptr<SortedDataInterface> make(const IndexConfig& c) {
        EXPECT_TRUE(engine->createSortedDataInterface("index-1", c).isOK());
        return engine->getSortedDataInterface("index-1", c);
    }
};

Status insertKey(KVEngine* engine, SortedDataInterface* sdi, const BSONObj& key, RecordId id,
                 bool dupsAllowed = false) {
    auto ru = engine->newRecoveryUnit();
    WriteUnitOfWork w(ru.get());
    Status s = sdi->insert(ru.get(), key, id, dupsAllowed);
    if (s.isOK())
        w.commit();
    return s;
}

TEST(WiredTigerIndex, UniqueIndexRejectsAnEqualKeyFromAnotherRecord) {
    Fixture f;
    auto sdi = f.make(config(true));
    ASSERT_TRUE(insertKey(f.engine.get(), sdi.get(), BSON("" << 1), RecordId(1)).isOK());
    // 1.0 equals 1: duplicate.
    Status s = insertKey(f.engine.get(), sdi.get(), BSON("" << 1.0), RecordId(2));
    EXPECT_EQ(s.code(), ErrorCodes::DuplicateKey);
    EXPECT_NE(s.reason().find("dup key: { a: 1.0 }"), std::string::npos) << s.reason();
    // Same record again is fine.
    EXPECT_TRUE(insertKey(f.engine.get(), sdi.get(), BSON("" << 1), RecordId(1)).isOK());
    auto ru = f.engine->newRecoveryUnit();
    EXPECT_EQ(sdi->dupKeyCheck(ru.get(), BSON("" << 1), RecordId(2)).code(),
              ErrorCodes::DuplicateKey);
    EXPECT_TRUE(sdi->dupKeyCheck(ru.get(), BSON("" << 1), RecordId(1)).isOK());
    EXPECT_EQ(sdi->numEntries(ru.get()), 1);
}

TEST(WiredTigerIndex, ConcurrentInsertsOfOneUniqueKeyConflict) {
    Fixture f;
    auto sdi = f.make(config(true));
    auto ru1 = f.engine->newRecoveryUnit();
    auto ru2 = f.engine->newRecoveryUnit();
    WriteUnitOfWork w1(ru1.get());
    ASSERT_TRUE(sdi->insert(ru1.get(),
                            BSON(""
                                 << "k"),
                            RecordId(1), false)
                    .isOK());
    WriteUnitOfWork w2(ru2.get());
    EXPECT_THROW((void)sdi->insert(ru2.get(),
                                   BSON(""
                                        << "k"),
                                   RecordId(2), false),
                 WriteConflictException);
}

TEST(WiredTigerIndex, NonUniqueIndexKeepsDuplicatesInRecordIdOrder) {
    Fixture f;
    auto sdi = f.make(config(false));
    for (int i = 5; i >= 1; --i)
        ASSERT_TRUE(insertKey(f.engine.get(), sdi.get(),
                              BSON(""
                                   << "x"),
                              RecordId(i))
                        .isOK());
    ASSERT_TRUE(insertKey(f.engine.get(), sdi.get(),
                          BSON(""
                               << "y"),
                          RecordId(9))
                    .isOK());
    auto ru = f.engine->newRecoveryUnit();
    auto c = sdi->newCursor(ru.get(), true);
    auto e = c->seek(BSON(""
                          << "x"),
                     true);
    for (int i = 1; i <= 5; ++i, e = c->next()) {
        ASSERT_TRUE(e);
        EXPECT_EQ(e->loc, RecordId(i));
        EXPECT_EQ(e->key.firstElement().str(), "x");
    }
    ASSERT_TRUE(e);
    EXPECT_EQ(e->loc, RecordId(9));
    {
        WriteUnitOfWork w(ru.get());
        sdi->unindex(ru.get(),
                     BSON(""
                          << "x"),
                     RecordId(3));
        w.commit();
    }
    EXPECT_EQ(sdi->numEntries(ru.get()), 5);
}

TEST(WiredTigerIndex, CursorSeeksAndStopsAtEndBoundsBothWays) {
    Fixture f;
    auto sdi = f.make(config(false, BSON("a" << -1)));
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(insertKey(f.engine.get(), sdi.get(), BSON("" << i), RecordId(i + 1)).isOK());
    auto ru = f.engine->newRecoveryUnit();
    // Descending index: forward order is 9, 8, ..., 0.
    auto c = sdi->newCursor(ru.get(), true);
    c->setEndPosition(BSON("" << 3), true);
    std::vector<int> seen;
    for (auto e = c->seek(BSON("" << 6), false); e; e = c->next())
        seen.push_back(e->key.firstElement().numberInt());
    EXPECT_EQ(seen, (std::vector<int>{5, 4, 3}));

    auto r = sdi->newCursor(ru.get(), false);
    r->setEndPosition(BSON("" << 7), false);
    seen.clear();
    for (auto e = r->seek(BSON("" << 2), true); e; e = r->next())
        seen.push_back(e->key.firstElement().numberInt());
    EXPECT_EQ(seen, (std::vector<int>{2, 3, 4, 5, 6}));

    EXPECT_TRUE(c->seekExact(BSON("" << 4)));
    EXPECT_FALSE(c->seekExact(BSON("" << 4.5)));
    EXPECT_FALSE(sdi->isEmpty(ru.get()));
}

TEST(WiredTigerIndex, CursorContinuesAfterSaveAndRestore) {
    Fixture f;
    auto sdi = f.make(config(true));
    for (int i = 0; i < 4; ++i)
        ASSERT_TRUE(insertKey(f.engine.get(), sdi.get(), BSON("" << i), RecordId(i + 1)).isOK());
    auto ru = f.engine->newRecoveryUnit();
    auto c = sdi->newCursor(ru.get(), true);
    EXPECT_EQ(c->next()->loc, RecordId(1));
    c->save();
    ru->abandonSnapshot();
    ASSERT_TRUE(insertKey(f.engine.get(), sdi.get(), BSON("" << 0.5), RecordId(7)).isOK());
    c->restore();
    EXPECT_EQ(c->next()->loc, RecordId(7));
    EXPECT_EQ(c->next()->loc, RecordId(2));
}

TEST(WiredTigerIndex, DroppedIdentDisappears) {
    Fixture f;
    auto sdi = f.make(config(true));
    ASSERT_TRUE(insertKey(f.engine.get(), sdi.get(), BSON("" << 1), RecordId(1)).isOK());
    EXPECT_TRUE(f.engine->hasIdent("index-1"));
    sdi.reset();
    ASSERT_TRUE(f.engine->dropIdent("index-1").isOK());
    EXPECT_FALSE(f.engine->hasIdent("index-1"));
}

}  // namespace
}  // namespace mongo
