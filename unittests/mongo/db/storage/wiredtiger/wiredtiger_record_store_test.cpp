#include "mongo/db/storage/wiredtiger/wiredtiger_record_store.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <set>

#include "../storage_test_util.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/write_conflict_exception.h"

namespace mongo {
namespace {

RecordId insertDoc(KVEngine* engine, RecordStore* rs, const BSONObj& doc) {
    auto ru = engine->newRecoveryUnit();
    WriteUnitOfWork wuow(ru.get());
    auto id = rs->insertRecord(ru.get(), doc.objdata(), doc.objsize());
    EXPECT_TRUE(id.isOK());
    wuow.commit();
    return id.getValue();
}

TEST(WiredTigerRecordStore, InsertFindUpdateDelete) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    ASSERT_TRUE(engine->createRecordStore("collection-1").isOK());
    auto rs = engine->getRecordStore("collection-1");
    RecordId a = insertDoc(engine.get(), rs.get(), BSON("_id" << 1));
    RecordId b = insertDoc(engine.get(), rs.get(), BSON("_id" << 2));
    EXPECT_LT(a, b);
    EXPECT_EQ(rs->numRecords(nullptr), 2);

    auto ru = engine->newRecoveryUnit();
    BSONObj out;
    ASSERT_TRUE(rs->findRecord(ru.get(), a, &out));
    EXPECT_EQ(out["_id"].numberInt(), 1);
    {
        WriteUnitOfWork wuow(ru.get());
        BSONObj doc = BSON("_id" << 1 << "x"
                                 << "longer");
        ASSERT_TRUE(rs->updateRecord(ru.get(), a, doc.objdata(), doc.objsize()).isOK());
        rs->deleteRecord(ru.get(), b);
        EXPECT_EQ(rs->updateRecord(ru.get(), RecordId(99), doc.objdata(), doc.objsize()).code(),
                  ErrorCodes::NoSuchKey);
        wuow.commit();
    }
    EXPECT_EQ(rs->numRecords(ru.get()), 1);
    EXPECT_EQ(rs->dataSize(ru.get()), BSON("_id" << 1 << "x"
                                                 << "longer")
                                          .objsize());
    ASSERT_TRUE(rs->findRecord(ru.get(), a, &out));
    EXPECT_EQ(out["x"].str(), "longer");
    EXPECT_FALSE(rs->findRecord(ru.get(), b, nullptr));
}

TEST(WiredTigerRecordStore, AbortedUnitOfWorkLeavesNothing) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    ASSERT_TRUE(engine->createRecordStore("collection-1").isOK());
    auto rs = engine->getRecordStore("collection-1");
    auto ru = engine->newRecoveryUnit();
    RecordId id;
    {
        WriteUnitOfWork wuow(ru.get());
        BSONObj doc = BSON("a" << 1);
        id = rs->insertRecord(ru.get(), doc.objdata(), doc.objsize()).getValue();
    }
    EXPECT_FALSE(rs->findRecord(ru.get(), id, nullptr));
    EXPECT_EQ(rs->numRecords(ru.get()), 0);
}

TEST(WiredTigerRecordStore, CursorIteratesBothWaysAndRestores) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    ASSERT_TRUE(engine->createRecordStore("collection-1").isOK());
    auto rs = engine->getRecordStore("collection-1");
    for (int i = 0; i < 5; ++i)
        insertDoc(engine.get(), rs.get(), BSON("i" << i));
    auto ru = engine->newRecoveryUnit();
    auto c = rs->getCursor(ru.get(), true);
    ASSERT_EQ(c->next()->data["i"].numberInt(), 0);
    ASSERT_EQ(c->next()->data["i"].numberInt(), 1);
    c->save();
    ru->abandonSnapshot();
    c->restore();
    ASSERT_EQ(c->next()->data["i"].numberInt(), 2);
    auto r = rs->getCursor(ru.get(), false);
    ASSERT_EQ(r->next()->data["i"].numberInt(), 4);
    ASSERT_TRUE(r->seekExact(RecordId(2)));
    ASSERT_EQ(r->next()->id, RecordId(1));
    ASSERT_FALSE(r->next());
}

RecordId insertForTime(KVEngine* engine, RecordStore* rs, uint32_t seconds, const BSONObj& doc) {
    auto ru = engine->newRecoveryUnit();
    WriteUnitOfWork wuow(ru.get());
    auto id = rs->insertRecordForTime(ru.get(), seconds, doc.objdata(), doc.objsize());
    EXPECT_TRUE(id.isOK()) << id.getStatus();
    wuow.commit();
    return id.getValue();
}

TEST(WiredTigerRecordStore, TimeKeyedIdsAreUniqueAcrossRestartsAndBoundScans) {
    TempDir dir;
    std::set<RecordId> ids;
    {
        auto engine = openEngine(testOptions(dir.path()));
        ASSERT_TRUE(engine->createRecordStore("collection-1").isOK());
        auto rs = engine->getRecordStore("collection-1");
        for (uint32_t s : {100u, 100u, 50u, 100u, 200u, 0u})
            ids.insert(insertForTime(engine.get(), rs.get(), s, BSON("s" << int(s))));
        engine->cleanShutdown();
    }
    auto engine = openEngine(testOptions(dir.path()));
    auto rs = engine->getRecordStore("collection-1");
    // The sequence starts again at 1: the ids already used for second 100 are skipped.
    for (uint32_t s : {100u, 100u, 50u})
        ids.insert(insertForTime(engine.get(), rs.get(), s, BSON("s" << int(s))));
    ASSERT_EQ(ids.size(), 9u);
    for (RecordId id : ids) {
        const uint32_t s = uint32_t(id.getLong() >> RecordStore::kTimeShift);
        EXPECT_GE(id, RecordStore::timeRangeStart(s));
        EXPECT_LE(id, RecordStore::timeRangeEnd(s));
        EXPECT_TRUE(id.isValid());
    }
    // A bounded scan of seconds [50, 100] reads 2 + 5 records, then stops on the next one.
    auto ru = engine->newRecoveryUnit();
    auto c = rs->getCursor(ru.get(), true);
    (void)c->seekExact(RecordId(RecordStore::timeRangeStart(50).getLong() - 1));
    c->setEndBound(RecordStore::timeRangeEnd(100));
    int n = 0;
    while (auto r = c->next()) {
        int s = r->data["s"].numberInt();
        EXPECT_TRUE(s == 50 || s == 100) << s;
        ++n;
    }
    EXPECT_EQ(n, 7);
    EXPECT_TRUE(c->readPastBound());
    EXPECT_FALSE(c->next());
    // Backward from the end of second 100 down to second 60: only second 100's records.
    auto b = rs->getCursor(ru.get(), false);
    (void)b->seekExact(RecordId(RecordStore::timeRangeEnd(100).getLong() + 1));
    b->setEndBound(RecordStore::timeRangeStart(60));
    n = 0;
    while (auto r = b->next()) {
        EXPECT_EQ(r->data["s"].numberInt(), 100);
        ++n;
    }
    EXPECT_EQ(n, 5);
}

TEST(WiredTigerRecordStore, DataAndIdsSurviveCleanRestart) {
    TempDir dir;
    RecordId last;
    {
        auto engine = openEngine(testOptions(dir.path()));
        ASSERT_TRUE(engine->createRecordStore("collection-1").isOK());
        auto rs = engine->getRecordStore("collection-1");
        for (int i = 0; i < 10; ++i)
            last = insertDoc(engine.get(), rs.get(), BSON("i" << i));
        engine->cleanShutdown();
    }
    auto engine = openEngine(testOptions(dir.path()));
    auto rs = engine->getRecordStore("collection-1");
    ASSERT_TRUE(rs);
    EXPECT_EQ(rs->numRecords(nullptr), 10);
    RecordId next = insertDoc(engine.get(), rs.get(), BSON("i" << 10));
    EXPECT_GT(next, last);
}

TEST(WiredTigerRecordStore, ZstdTablesAreReadableAfterReopen) {
    TempDir dir;
    auto opts = testOptions(dir.path());
    opts.collectionBlockCompressor = "zstd";
    std::string big(2000, 'z');
    {
        auto engine = openEngine(opts);
        ASSERT_TRUE(engine->createRecordStore("collection-z").isOK());
        auto rs = engine->getRecordStore("collection-z");
        for (int i = 0; i < 500; ++i)
            insertDoc(engine.get(), rs.get(), BSON("i" << i << "pad" << big));
        engine->cleanShutdown();
    }
    auto engine = openEngine(opts);
    auto rs = engine->getRecordStore("collection-z");
    auto ru = engine->newRecoveryUnit();
    auto c = rs->getCursor(ru.get(), true);
    int n = 0;
    while (auto r = c->next()) {
        EXPECT_EQ(r->data["i"].numberInt(), n);
        EXPECT_EQ(r->data["pad"].str(), big);
        ++n;
    }
    EXPECT_EQ(n, 500);
    EXPECT_GT(rs->storageSize(ru.get()), 0);
    EXPECT_LT(rs->storageSize(ru.get()), 500 * 2000 / 4);  // compressed
}

TEST(WiredTigerRecordStore, UnknownCompressorIsBadValue) {
    TempDir dir;
    auto opts = testOptions(dir.path());
    opts.collectionBlockCompressor = "lz5";
    auto sw = WiredTigerKVEngine::open(opts);
    ASSERT_FALSE(sw.isOK());
    EXPECT_EQ(sw.getStatus().code(), ErrorCodes::BadValue);
}

TEST(WiredTigerRecordStore, ConcurrentUpdateOfOneRecordIsAWriteConflictThatRetries) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    ASSERT_TRUE(engine->createRecordStore("collection-1").isOK());
    auto rs = engine->getRecordStore("collection-1");
    RecordId id = insertDoc(engine.get(), rs.get(), BSON("v" << 0));

    auto ru1 = engine->newRecoveryUnit();
    auto ru2 = engine->newRecoveryUnit();
    BSONObj one = BSON("v" << 1), two = BSON("v" << 2);
    WriteUnitOfWork w1(ru1.get());
    ASSERT_TRUE(rs->updateRecord(ru1.get(), id, one.objdata(), one.objsize()).isOK());
    {
        WriteUnitOfWork w2(ru2.get());
        try {
            (void)rs->updateRecord(ru2.get(), id, two.objdata(), two.objsize());
            FAIL() << "expected a write conflict";
        } catch (const WriteConflictException& e) {
            EXPECT_EQ(e.code(), ErrorCodes::WriteConflict);
        }
    }
    w1.commit();

    int attempts = 0;
    writeConflictRetry(ru2.get(), "update", [&] {
        ++attempts;
        WriteUnitOfWork w(ru2.get());
        BSONObj cur;
        ASSERT_TRUE(rs->findRecord(ru2.get(), id, &cur));
        BSONObj next = BSON("v" << cur["v"].numberInt() + 10);
        ASSERT_TRUE(rs->updateRecord(ru2.get(), id, next.objdata(), next.objsize()).isOK());
        w.commit();
    });
    BSONObj out;
    ru2->abandonSnapshot();
    ASSERT_TRUE(rs->findRecord(ru2.get(), id, &out));
    EXPECT_EQ(out["v"].numberInt(), 11);
    EXPECT_EQ(attempts, 1);
}

TEST(WiredTigerRecordStore, WriteConflictRetryRerunsAfterAConflict) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    ASSERT_TRUE(engine->createRecordStore("collection-1").isOK());
    auto rs = engine->getRecordStore("collection-1");
    RecordId id = insertDoc(engine.get(), rs.get(), BSON("v" << 0));
    auto ru1 = engine->newRecoveryUnit();
    auto ru2 = engine->newRecoveryUnit();
    auto w1 = std::make_unique<WriteUnitOfWork>(ru1.get());
    BSONObj one = BSON("v" << 1);
    ASSERT_TRUE(rs->updateRecord(ru1.get(), id, one.objdata(), one.objsize()).isOK());
    int attempts = 0;
    writeConflictRetry(ru2.get(), "update", [&] {
        ++attempts;
        if (attempts == 2)
            w1->commit();  // the other writer finishes; the retry then succeeds
        WriteUnitOfWork w(ru2.get());
        BSONObj cur;
        ASSERT_TRUE(rs->findRecord(ru2.get(), id, &cur));
        BSONObj next = BSON("v" << cur["v"].numberInt() + 10);
        ASSERT_TRUE(rs->updateRecord(ru2.get(), id, next.objdata(), next.objsize()).isOK());
        w.commit();
    });
    EXPECT_EQ(attempts, 2);
    w1.reset();
    BSONObj out;
    ru1->abandonSnapshot();
    ASSERT_TRUE(rs->findRecord(ru1.get(), id, &out));
    EXPECT_EQ(out["v"].numberInt(), 11);
}

TEST(WiredTigerRecordStore, JournaledCommitSurvivesAKilledProcess) {
    TempDir dir;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        auto sw = WiredTigerKVEngine::open(testOptions(dir.path()));
        if (!sw.isOK())
            _exit(2);
        auto& engine = sw.getValue();
        if (!engine->createRecordStore("collection-k").isOK())
            _exit(3);
        auto rs = engine->getRecordStore("collection-k");
        auto ru = engine->newRecoveryUnit();
        for (int i = 0; i < 100; ++i) {
            WriteUnitOfWork w(ru.get());
            BSONObj doc = BSON("i" << i);
            if (!rs->insertRecord(ru.get(), doc.objdata(), doc.objsize()).isOK())
                _exit(4);
            w.commit();
        }
        if (!ru->waitUntilDurable().isOK())
            _exit(5);
        _exit(0);  // no checkpoint, no clean close
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);

    auto engine = openEngine(testOptions(dir.path()));
    auto rs = engine->getRecordStore("collection-k");
    ASSERT_TRUE(rs);
    EXPECT_EQ(rs->numRecords(nullptr), 100);
}

TEST(WiredTigerRecordStore, CountsComeFromTheSizeStorerAfterACleanRestart) {
    TempDir dir;
    long long bytes = 0;
    RecordId last;
    {
        auto engine = openEngine(testOptions(dir.path()));
        ASSERT_TRUE(engine->createRecordStore("collection-s").isOK());
        auto rs = engine->getRecordStore("collection-s");
        std::vector<RecordId> ids;
        for (int i = 0; i < 100; ++i)
            ids.push_back(insertDoc(engine.get(), rs.get(),
                                    BSON("i" << i << "pad"
                                             << "abc")));
        auto ru = engine->newRecoveryUnit();
        WriteUnitOfWork w(ru.get());
        for (int i = 0; i < 10; ++i)
            rs->deleteRecord(ru.get(), ids[i]);
        w.commit();
        bytes = rs->dataSize(ru.get());
        last = ids.back();
        EXPECT_EQ(engine->tablesCountedByScan(), 1);  // new table: nothing persisted yet
        ru.reset();
        engine->cleanShutdown();
    }
    auto engine = openEngine(testOptions(dir.path()));
    auto rs = engine->getRecordStore("collection-s");
    ASSERT_TRUE(rs);
    EXPECT_EQ(rs->numRecords(nullptr), 90);
    EXPECT_EQ(rs->dataSize(nullptr), bytes);
    EXPECT_EQ(engine->tablesCountedByScan(), 0);
    // The next RecordId continues after the last one.
    EXPECT_LT(last, insertDoc(engine.get(), rs.get(), BSON("i" << 100)));
    EXPECT_EQ(rs->numRecords(nullptr), 91);
}

TEST(WiredTigerRecordStore, AfterAKillCountsAreTheLastFlushUntilRepaired) {
    TempDir dir;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        auto sw = WiredTigerKVEngine::open(testOptions(dir.path()));
        if (!sw.isOK())
            _exit(2);
        auto& engine = sw.getValue();
        if (!engine->createRecordStore("collection-k").isOK())
            _exit(3);
        auto rs = engine->getRecordStore("collection-k");
        auto ru = engine->newRecoveryUnit();
        for (int i = 0; i < 100; ++i) {
            if (i == 40 && !engine->checkpoint().isOK())  // flushes the size storer: 40
                _exit(4);
            WriteUnitOfWork w(ru.get());
            BSONObj doc = BSON("i" << i);
            if (!rs->insertRecord(ru.get(), doc.objdata(), doc.objsize()).isOK())
                _exit(5);
            w.commit();
        }
        if (!ru->waitUntilDurable().isOK())
            _exit(6);
        _exit(0);  // no clean close
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);

    long long bytes = 0;
    {
        auto engine = openEngine(testOptions(dir.path()));
        auto rs = engine->getRecordStore("collection-k");
        ASSERT_TRUE(rs);
        EXPECT_EQ(rs->numRecords(nullptr), 40);  // approximate, as upstream
        EXPECT_EQ(engine->tablesCountedByScan(), 0);
        auto ru = engine->newRecoveryUnit();
        long long n = 0;
        RecordId maxId;
        {
            auto cur = rs->getCursor(ru.get());
            while (auto rec = cur->next()) {
                ++n;
                bytes += rec->data.objsize();
                maxId = rec->id;
            }
        }
        EXPECT_EQ(n, 100);
        // Ids of new records never collide with recovered ones.
        EXPECT_LT(maxId, insertDoc(engine.get(), rs.get(), BSON("i" << 100)));
        bytes += BSON("i" << 100).objsize();
        rs->updateStatsAfterRepair(101, bytes);  // what validate does after its scan
        EXPECT_EQ(rs->numRecords(nullptr), 101);
        ru.reset();
        engine->cleanShutdown();
    }
    auto engine = openEngine(testOptions(dir.path()));
    auto rs = engine->getRecordStore("collection-k");
    EXPECT_EQ(rs->numRecords(nullptr), 101);
    EXPECT_EQ(rs->dataSize(nullptr), bytes);
}

TEST(WiredTigerRecordStore, ADroppedTableLeavesNoSizes) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    ASSERT_TRUE(engine->createRecordStore("collection-d").isOK());
    auto rs = engine->getRecordStore("collection-d");
    insertDoc(engine.get(), rs.get(), BSON("a" << 1));
    ASSERT_TRUE(engine->flushSizeStorer().isOK());
    rs.reset();
    ASSERT_TRUE(engine->dropIdent("collection-d").isOK());
    ASSERT_TRUE(engine->createRecordStore("collection-d").isOK());
    rs = engine->getRecordStore("collection-d");
    EXPECT_EQ(rs->numRecords(nullptr), 0);
    EXPECT_EQ(rs->dataSize(nullptr), 0);
}

}  // namespace
}  // namespace mongo
