#include "mongo/db/catalog/coll_mod.h"

#include <gtest/gtest.h>

#include "../storage/storage_test_util.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

const NamespaceString kNss("test", "c");

/** A catalog on a temporary dbpath with collection test.c holding an index {a: 1}. */
class CollModTest : public ::testing::Test {
protected:
    void SetUp() override {
        engine = openEngine(testOptions(dir.path()));
        open();
        ASSERT_TRUE(catalog->createCollection(opCtx.get(), kNss, BSONObj()).isOK());
        ASSERT_TRUE(catalog
                        ->createIndexes(opCtx.get(), kNss,
                                        {BSON("v" << 2 << "key" << BSON("a" << 1) << "name"
                                                  << "a_1")})
                        .isOK());
    }
    void TearDown() override {
        close();
        engine.reset();
    }
    void open() {
        durable = std::move(DurableCatalog::open(engine.get()).getValue());
        catalog = std::make_unique<CollectionCatalog>(engine.get(), durable.get());
        sc.storageEngine = engine.get();
        sc.catalog = catalog.get();
        sc.durableCatalog = durable.get();
        opCtx = std::make_unique<OperationContext>(&sc, nullptr, 1);
        opCtx->swapRecoveryUnit(engine->newRecoveryUnit());
        ASSERT_TRUE(catalog->init(opCtx.get()).isOK());
    }
    void close() {
        opCtx.reset();
        catalog.reset();
        durable.reset();
    }
    /** Re-reads the catalog from disk (what a restart sees). */
    void reopen() {
        close();
        open();
    }
    void insert(const BSONObj& doc) {
        auto coll = catalog->lookup(kNss);
        RecoveryUnit* ru = opCtx->recoveryUnit();
        WriteUnitOfWork wuow(ru);
        coll->insertDocument(opCtx.get(), doc);
        wuow.commit();
        ru->abandonSnapshot();
    }
    Status tryInsert(const BSONObj& doc) {
        try {
            insert(doc);
        } catch (const DBException& ex) {
            opCtx->recoveryUnit()->abandonSnapshot();
            return ex.toStatus();
        }
        return Status::OK();
    }
    CollModIndex request(const BSONObj& obj) {
        return CollModIndex::parse(obj, "index");
    }
    CollModIndexChange validate(const BSONObj& obj) {
        auto coll = catalog->lookup(kNss);
        auto req = request(obj);
        checkCollModIndexShape(req);
        IndexEntry* idx = resolveCollModIndex(*coll, req, req.getKeyPattern().value_or(BSONObj()));
        return validateCollModIndex(*coll, *idx, req, CollModTarget::kCollection);
    }
    int codeOf(const std::function<void()>& f) {
        try {
            f();
        } catch (const DBException& ex) {
            return ex.code();
        }
        return 0;
    }

    TempDir dir;
    std::unique_ptr<WiredTigerKVEngine> engine;
    std::unique_ptr<DurableCatalog> durable;
    std::unique_ptr<CollectionCatalog> catalog;
    ServiceContext sc;
    std::unique_ptr<OperationContext> opCtx;
};

TEST_F(CollModTest, ConvertToUniqueReportsEachGroupOfSharedKeys) {
    for (int i = 0; i < 6; ++i)
        insert(BSON("_id" << i << "a" << (i < 2 ? 1 : i < 5 ? 2 : 3)));
    BSONObj violations;
    Status s = catalog->convertIndexUniqueness(opCtx.get(), kNss, "a_1", true, false, &violations);
    ASSERT_EQ(ErrorCodes::CannotConvertIndexToUnique, s.code());
    BSONObj expected =
        BSON_ARRAY(BSON("ids" << BSON_ARRAY(0 << 1)) << BSON("ids" << BSON_ARRAY(2 << 3 << 4)));
    ASSERT_TRUE(expected.binaryEqual(violations)) << violations.toString();
    // Nothing changed: the index is still non-unique.
    ASSERT_FALSE(catalog->lookup(kNss)->findIndexByName("a_1")->desc.unique);
}

TEST_F(CollModTest, ConvertedIndexIsUniqueAfterARestart) {
    insert(BSON("_id" << 1 << "a" << 1));
    insert(BSON("_id" << 2 << "a" << BSON_ARRAY(2 << 3)));
    BSONObj violations;
    ASSERT_TRUE(
        catalog->convertIndexUniqueness(opCtx.get(), kNss, "a_1", true, false, &violations).isOK());
    reopen();
    auto coll = catalog->lookup(kNss);
    IndexEntry* idx = coll->findIndexByName("a_1");
    ASSERT_TRUE(idx->desc.unique);
    ASSERT_TRUE(idx->multikey);  // rebuilt keys keep the multikey flag
    ASSERT_EQ(3, idx->sdi->numEntries(opCtx->recoveryUnit()));
    opCtx->recoveryUnit()->abandonSnapshot();
    ASSERT_EQ(ErrorCodes::DuplicateKey, tryInsert(BSON("_id" << 3 << "a" << 3)).code());
    ASSERT_TRUE(tryInsert(BSON("_id" << 3 << "a" << 4)).isOK());
}

TEST_F(CollModTest, DryRunOnlyScans) {
    insert(BSON("_id" << 1 << "a" << 1));
    BSONObj violations;
    ASSERT_TRUE(
        catalog->convertIndexUniqueness(opCtx.get(), kNss, "a_1", true, true, &violations).isOK());
    ASSERT_FALSE(catalog->lookup(kNss)->findIndexByName("a_1")->desc.unique);
}

TEST_F(CollModTest, PrepareUniqueRefusesNewDuplicatesOnly) {
    insert(BSON("_id" << 1 << "a" << 1));
    insert(BSON("_id" << 2 << "a" << 1));
    ASSERT_TRUE(catalog
                    ->updateIndexSpec(opCtx.get(), kNss, "a_1",
                                      BSON("v" << 2 << "key" << BSON("a" << 1) << "name"
                                               << "a_1"
                                               << "prepareUnique" << true))
                    .isOK());
    ASSERT_EQ(ErrorCodes::DuplicateKey, tryInsert(BSON("_id" << 3 << "a" << 1)).code());
    ASSERT_TRUE(tryInsert(BSON("_id" << 3 << "a" << 2)).isOK());
}

TEST_F(CollModTest, UpdateCollectionOptionsKeepsTheUuid) {
    const std::string before = catalog->lookup(kNss)->uuid();
    ASSERT_TRUE(
        catalog->updateCollectionOptions(opCtx.get(), kNss, BSON("validator" << BSON("a" << 1)))
            .isOK());
    ASSERT_EQ(before, catalog->lookup(kNss)->uuid());
    reopen();
    ASSERT_EQ(before, catalog->lookup(kNss)->uuid());
    ASSERT_TRUE(BSON("a" << 1).binaryEqual(catalog->lookup(kNss)->options()["validator"].Obj()));
}

TEST_F(CollModTest, IndexRequestRules) {
    ASSERT_EQ(ErrorCodes::InvalidOptions, codeOf([&] {
                  validate(BSON("name"
                                << "a_1"));
              }));
    ASSERT_EQ(ErrorCodes::InvalidOptions, codeOf([&] {
                  validate(BSON("name"
                                << "a_1"
                                << "unique" << true));
              }));
    ASSERT_EQ(ErrorCodes::BadValue, codeOf([&] {
                  validate(BSON("name"
                                << "a_1"
                                << "unique" << false));
              }));
    ASSERT_EQ(ErrorCodes::BadValue, codeOf([&] {
                  validate(BSON("name"
                                << "_id_"
                                << "hidden" << true));
              }));
    ASSERT_EQ(ErrorCodes::InvalidOptions, codeOf([&] {
                  validate(BSON("name"
                                << "_id_"
                                << "expireAfterSeconds" << 5));
              }));
    ASSERT_EQ(ErrorCodes::IndexNotFound, codeOf([&] {
                  validate(BSON("name"
                                << "b_1"
                                << "hidden" << true));
              }));
    ASSERT_EQ(ErrorCodes::IDLUnknownField, codeOf([&] {
                  request(BSON("name"
                               << "a_1"
                               << "bogus" << 1));
              }));
    // Hiding a visible index is a change; unhiding it a no-op.
    auto change = validate(BSON("keyPattern" << BSON("a" << 1) << "hidden" << true));
    ASSERT_TRUE(change.hidden.has_value());
    change = validate(BSON("keyPattern" << BSON("a" << 1) << "hidden" << false));
    ASSERT_TRUE(change.empty());
    ASSERT_EQ(1, change.numModifications);
}

TEST_F(CollModTest, ClusteredTTLRange) {
    ASSERT_EQ(ErrorCodes::TypeMismatch, validateClusteredExpireAfterSeconds(BSON("x"
                                                                                 << "a")
                                                                                .firstElement())
                                            .code());
    ASSERT_EQ(ErrorCodes::InvalidOptions,
              validateClusteredExpireAfterSeconds(BSON("x" << -1).firstElement()).code());
    ASSERT_EQ(ErrorCodes::InvalidOptions,
              validateClusteredExpireAfterSeconds(BSON("x" << 3e9).firstElement()).code());
    ASSERT_TRUE(validateClusteredExpireAfterSeconds(BSON("x" << 0).firstElement()).isOK());
}

}  // namespace
}  // namespace mongo
