#include "mongo/db/storage/durable_catalog.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "storage_test_util.h"

namespace mongo {
namespace {

BSONObj indexSpec(StringData name, const BSONObj& key, bool unique) {
    BSONObjBuilder b;
    b.append("v", 2);
    b.append("key", key);
    b.append("name", name);
    if (unique)
        b.append("unique", true);
    return b.obj();
}

TEST(DurableCatalog, CollectionsAndIndexesSurviveReopen) {
    TempDir dir;
    std::string uuid;
    {
        auto engine = openEngine(testOptions(dir.path()));
        auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
        auto ru = engine->newRecoveryUnit();
        WriteUnitOfWork w(ru.get());
        auto e = cat->addCollection(ru.get(), "test.c", BSON("capped" << false));
        ASSERT_TRUE(e.isOK());
        uuid = e.getValue().uuid();
        EXPECT_EQ(uuid.size(), 16u);
        ASSERT_TRUE(cat->addIndex(ru.get(), e.getValue().catalogId,
                                  indexSpec("_id_", BSON("_id" << 1), false), true)
                        .isOK());
        ASSERT_TRUE(cat->addIndex(ru.get(), e.getValue().catalogId,
                                  indexSpec("a_1", BSON("a" << 1), true), true)
                        .isOK());
        ASSERT_TRUE(cat->addCollection(ru.get(), "other.d", BSONObj()).isOK());
        w.commit();
        auto entry = *cat->findByNs(ru.get(), "test.c");
        auto rs = cat->getRecordStore(entry);
        auto idx = cat->getIndex(entry, "a_1");
        ASSERT_TRUE(rs && idx);
        WriteUnitOfWork w2(ru.get());
        BSONObj doc = BSON("_id" << 1 << "a" << 5);
        RecordId id = rs->insertRecord(ru.get(), doc.objdata(), doc.objsize()).getValue();
        ASSERT_TRUE(idx->insert(ru.get(), BSON("" << 5), id, false).isOK());
        w2.commit();
        ru.reset();
        engine->cleanShutdown();
    }
    auto engine = openEngine(testOptions(dir.path()));
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    EXPECT_EQ(cat->getAllEntries(ru.get()).size(), 2u);
    EXPECT_EQ(cat->getDatabaseNames(ru.get()), (std::vector<std::string>{"other", "test"}));
    auto entry = cat->findByNs(ru.get(), "test.c");
    ASSERT_TRUE(entry);
    EXPECT_EQ(entry->uuid(), uuid);
    EXPECT_FALSE(entry->md["options"].Obj()["capped"].trueValue());
    EXPECT_TRUE(entry->indexEntry("a_1")["ready"].trueValue());
    auto idx = cat->getIndex(*entry, "a_1");
    ASSERT_TRUE(idx);
    EXPECT_TRUE(idx->config().unique);
    auto c = idx->newCursor(ru.get(), true);
    auto k = c->seekExact(BSON("" << 5));
    ASSERT_TRUE(k);
    EXPECT_EQ(cat->getRecordStore(*entry)->numRecords(ru.get()), 1);
}

TEST(DurableCatalog, DuplicateNamesAreRejectedWithUpstreamCodes) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    WriteUnitOfWork w(ru.get());
    auto e = cat->addCollection(ru.get(), "test.c", BSONObj()).getValue();
    EXPECT_EQ(cat->addCollection(ru.get(), "test.c", BSONObj()).getStatus().code(),
              ErrorCodes::NamespaceExists);
    ASSERT_TRUE(
        cat->addIndex(ru.get(), e.catalogId, indexSpec("a_1", BSON("a" << 1), false), true).isOK());
    EXPECT_EQ(cat->addIndex(ru.get(), e.catalogId, indexSpec("a_1", BSON("a" << 1), false), true)
                  .getStatus()
                  .code(),
              ErrorCodes::IndexAlreadyExists);
    EXPECT_EQ(cat->removeIndex(ru.get(), e.catalogId, "nope").code(), ErrorCodes::IndexNotFound);
    EXPECT_EQ(cat->dropCollection(ru.get(), RecordId(999)).code(), ErrorCodes::NamespaceNotFound);
    w.commit();
}

TEST(DurableCatalog, AbortedCreateLeavesNoEntryAndNoTable) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    std::string ident;
    {
        WriteUnitOfWork w(ru.get());
        ident = cat->addCollection(ru.get(), "test.c", BSONObj()).getValue().ident;
        EXPECT_TRUE(engine->hasIdent(ident));
    }
    EXPECT_FALSE(cat->findByNs(ru.get(), "test.c"));
    EXPECT_FALSE(engine->hasIdent(ident));
}

TEST(DurableCatalog, RenameAndDropPersist) {
    TempDir dir;
    std::string ident;
    {
        auto engine = openEngine(testOptions(dir.path()));
        auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
        auto ru = engine->newRecoveryUnit();
        WriteUnitOfWork w(ru.get());
        auto a = cat->addCollection(ru.get(), "test.a", BSONObj()).getValue();
        auto b = cat->addCollection(ru.get(), "test.b", BSONObj()).getValue();
        ident = b.ident;
        ASSERT_TRUE(cat->renameCollection(ru.get(), a.catalogId, "test.z").isOK());
        EXPECT_EQ(cat->renameCollection(ru.get(), a.catalogId, "test.b").code(),
                  ErrorCodes::NamespaceExists);
        ASSERT_TRUE(cat->dropCollection(ru.get(), b.catalogId).isOK());
        w.commit();
        ru.reset();
        engine->cleanShutdown();
    }
    auto engine = openEngine(testOptions(dir.path()));
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    auto all = cat->getAllEntries(ru.get());
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].ns, "test.z");
    EXPECT_EQ(all[0].md["ns"].str(), "test.z");
    EXPECT_FALSE(engine->hasIdent(ident));
}

TEST(DurableCatalog, OrphanedTablesAreDroppedOnOpen) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    ASSERT_TRUE(engine->createRecordStore("collection-77-1").isOK());
    auto cat = DurableCatalog::open(engine.get());
    ASSERT_TRUE(cat.isOK());
    EXPECT_FALSE(engine->hasIdent("collection-77-1"));
    EXPECT_TRUE(engine->hasIdent("_mdb_catalog"));
}

bool contains(const std::string& s, StringData part) {
    return s.find(part) != std::string::npos;
}

TEST(DurableCatalog, BucketsCollectionsUseZstdWhateverTheEngineDefault) {
    TempDir dir;
    auto opts = testOptions(dir.path());
    opts.collectionBlockCompressor = "none";  // as --wiredTigerCollectionBlockCompressor none
    auto engine = openEngine(opts);
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    WriteUnitOfWork w(ru.get());
    auto regular = cat->addCollection(ru.get(), "db.a", BSONObj());
    auto buckets = cat->addCollection(ru.get(), "db.system.buckets.a",
                                      BSON("clusteredIndex" << true << "timeseries"
                                                            << BSON("timeField"
                                                                    << "t")));
    ASSERT_TRUE(regular.isOK() && buckets.isOK());
    w.commit();
    std::string rc = engine->getCreationString(regular.getValue().ident);
    std::string bc = engine->getCreationString(buckets.getValue().ident);
    EXPECT_TRUE(contains(rc, "block_compressor=none")) << rc;
    EXPECT_TRUE(contains(bc, "block_compressor=zstd")) << bc;
    EXPECT_FALSE(contains(bc, "block_compressor=none")) << bc;
    EXPECT_TRUE(contains(bc, "allocation_size=512B")) << bc;
    // Their indexes too; a regular collection's index keeps WiredTiger's defaults.
    WriteUnitOfWork w2(ru.get());
    BSONObj spec = BSON("v" << 2 << "key" << BSON("meta" << 1) << "name"
                            << "meta_1");
    auto regularIdx = cat->addIndex(ru.get(), regular.getValue().catalogId, spec, true);
    auto bucketsIdx = cat->addIndex(ru.get(), buckets.getValue().catalogId, spec, true);
    ASSERT_TRUE(regularIdx.isOK() && bucketsIdx.isOK());
    w2.commit();
    std::string ri = engine->getCreationString(regularIdx.getValue());
    std::string bi = engine->getCreationString(bucketsIdx.getValue());
    EXPECT_TRUE(contains(ri, "block_compressor=,")) << ri;
    EXPECT_TRUE(contains(ri, "allocation_size=4KB")) << ri;
    EXPECT_TRUE(contains(bi, "block_compressor=zstd")) << bi;
    EXPECT_TRUE(contains(bi, "allocation_size=512B")) << bi;
}

TEST(DurableCatalog, CreateConfigStringOverridesEveryDefault) {
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    WriteUnitOfWork w(ru.get());
    BSONObj zlib = BSON("storageEngine" << BSON("wiredTiger" << BSON("configString"
                                                                     << "block_compressor=zlib")));
    auto regular = cat->addCollection(ru.get(), "db.a", zlib);
    auto buckets = cat->addCollection(ru.get(), "db.system.buckets.b", zlib);
    ASSERT_TRUE(regular.isOK() && buckets.isOK());
    w.commit();
    EXPECT_TRUE(
        contains(engine->getCreationString(regular.getValue().ident), "block_compressor=zlib"));
    std::string bc = engine->getCreationString(buckets.getValue().ident);
    EXPECT_TRUE(contains(bc, "block_compressor=zlib")) << bc;
    EXPECT_FALSE(contains(bc, "block_compressor=zstd")) << bc;
    // A configString without a compressor keeps the buckets' zstd.
    auto c = DurableCatalog::tableConfigString(
        "db.system.buckets.c",
        BSON("storageEngine" << BSON("wiredTiger" << BSON("configString"
                                                          << "split_pct=80"))));
    ASSERT_TRUE(c.isOK());
    EXPECT_EQ(c.getValue(),
              "block_compressor=zstd,leaf_page_max=256KB,allocation_size=512B,split_pct=80");
    // Nor does one naming the page size.
    c = DurableCatalog::tableConfigString(
        "db.system.buckets.c",
        BSON("storageEngine" << BSON("wiredTiger" << BSON("configString"
                                                          << "leaf_page_max=64KB"))));
    ASSERT_TRUE(c.isOK());
    EXPECT_EQ(c.getValue(), "block_compressor=zstd,allocation_size=512B,leaf_page_max=64KB");
}

TEST(DurableCatalog, MalformedStorageEngineOptionsGetUpstreamCodes) {
    auto code = [](const BSONObj& se) {
        return DurableCatalog::tableConfigString("db.a", BSON("storageEngine" << se))
            .getStatus()
            .code();
    };
    EXPECT_EQ(code(BSON("wiredTiger" << 1)), ErrorCodes::BadValue);
    EXPECT_EQ(code(BSON("rocksdb" << BSONObj())), ErrorCodes::InvalidOptions);
    EXPECT_EQ(code(BSON("wiredTiger" << BSON("foo"
                                             << "x"))),
              ErrorCodes::InvalidOptions);
    EXPECT_EQ(code(BSON("wiredTiger" << BSON("configString" << 5))), ErrorCodes::TypeMismatch);
    EXPECT_EQ(
        DurableCatalog::tableConfigString("db.a", BSON("storageEngine" << 1)).getStatus().code(),
        ErrorCodes::BadValue);
    EXPECT_TRUE(DurableCatalog::tableConfigString("db.a", BSONObj()).isOK());

    // WiredTiger itself refuses keys it does not know: nothing is created.
    TempDir dir;
    auto engine = openEngine(testOptions(dir.path()));
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    WriteUnitOfWork w(ru.get());
    auto bad = cat->addCollection(
        ru.get(), "db.a",
        BSON("storageEngine" << BSON("wiredTiger" << BSON("configString"
                                                          << "invalid_option=xxx"))));
    EXPECT_EQ(bad.getStatus().code(), ErrorCodes::BadValue);
}

TEST(DurableCatalog, SnappyBucketsTablesFromOlderDataDirsStillOpen) {
    TempDir dir;
    BSONObj doc = BSON("_id" << 1 << "control" << BSON("version" << 2));
    {
        // A buckets table as older versions made it: the engine default (snappy).
        auto engine = openEngine(testOptions(dir.path()));
        auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
        auto ru = engine->newRecoveryUnit();
        WriteUnitOfWork w(ru.get());
        auto e = cat->addCollection(ru.get(), "db.system.buckets.old", BSONObj());
        ASSERT_TRUE(e.isOK());
        w.commit();
        ASSERT_TRUE(engine->dropIdent(e.getValue().ident).isOK());
        ASSERT_TRUE(engine->createRecordStore(e.getValue().ident).isOK());
        auto rs = cat->getRecordStore(e.getValue());
        WriteUnitOfWork w2(ru.get());
        ASSERT_TRUE(rs->insertRecord(ru.get(), doc.objdata(), doc.objsize()).isOK());
        w2.commit();
        EXPECT_TRUE(
            contains(engine->getCreationString(e.getValue().ident), "block_compressor=snappy"));
        ru.reset();
        engine->cleanShutdown();
    }
    auto engine = openEngine(testOptions(dir.path()));
    auto cat = std::move(DurableCatalog::open(engine.get()).getValue());
    auto ru = engine->newRecoveryUnit();
    auto entry = cat->findByNs(ru.get(), "db.system.buckets.old");
    ASSERT_TRUE(entry);
    EXPECT_TRUE(contains(engine->getCreationString(entry->ident), "block_compressor=snappy"));
    auto rs = cat->getRecordStore(*entry);
    ASSERT_TRUE(rs);
    EXPECT_EQ(rs->numRecords(ru.get()), 1);
    auto cur = rs->getCursor(ru.get());
    auto rec = cur->next();
    ASSERT_TRUE(rec);
    EXPECT_TRUE(rec->data.binaryEqual(doc));
}

}  // namespace
}  // namespace mongo
