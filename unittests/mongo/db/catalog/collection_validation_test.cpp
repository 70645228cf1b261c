#include "mongo/db/catalog/collection_validation.h"

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

/** A catalog over a fresh engine with collection test.c: 10 documents, index {a: 1}. */
class CollectionValidationTest : public ::testing::Test {
protected:
    void SetUp() override {
        engine = openEngine(testOptions(dir.path()));
        durable = std::move(DurableCatalog::open(engine.get()).getValue());
        catalog = std::make_unique<CollectionCatalog>(engine.get(), durable.get());
        sc.storageEngine = engine.get();
        sc.catalog = catalog.get();
        opCtx = std::make_unique<OperationContext>(&sc, nullptr, 1);
        opCtx->swapRecoveryUnit(engine->newRecoveryUnit());
        ASSERT_TRUE(catalog->init(opCtx.get()).isOK());
        coll = catalog->getOrCreateCollection(opCtx.get(), nss);
        {
            WriteUnitOfWork wuow(ru());
            for (int i = 0; i < 10; ++i)
                coll->insertDocument(opCtx.get(), BSON("_id" << i << "a" << i * 10));
            wuow.commit();
        }
        ru()->abandonSnapshot();
        ASSERT_TRUE(catalog
                        ->createIndexes(opCtx.get(), nss,
                                        {BSON("v" << 2 << "key" << BSON("a" << 1) << "name"
                                                  << "a_1")})
                        .isOK());
        ru()->abandonSnapshot();
    }
    void TearDown() override {
        coll.reset();
        opCtx.reset();
        catalog.reset();
        durable.reset();
        engine.reset();
    }

    RecoveryUnit* ru() {
        return opCtx->recoveryUnit();
    }
    IndexEntry* indexA() {
        return coll->findIndexByName("a_1");
    }
    BSONObj validate(const ValidateOptions& options = {}) {
        BSONObjBuilder b;
        validateCollection(opCtx.get(), *coll, options, &b);
        ru()->abandonSnapshot();
        return b.obj();
    }

    const NamespaceString nss{"test", "c"};
    TempDir dir;
    std::unique_ptr<WiredTigerKVEngine> engine;
    std::unique_ptr<DurableCatalog> durable;
    std::unique_ptr<CollectionCatalog> catalog;
    ServiceContext sc;
    std::unique_ptr<OperationContext> opCtx;
    std::shared_ptr<Collection> coll;
};

TEST_F(CollectionValidationTest, ConsistentCollectionIsValid) {
    BSONObj res = validate();
    EXPECT_TRUE(res["valid"].trueValue()) << res;
    EXPECT_EQ(10, res["nrecords"].numberLong());
    EXPECT_EQ(2, res["nIndexes"].numberInt());
    EXPECT_EQ(10, res["keysPerIndex"].Obj()["a_1"].numberLong());
    EXPECT_EQ(10, res["keysPerIndex"].Obj()["_id_"].numberLong());
    EXPECT_TRUE(res["errors"].Obj().isEmpty()) << res;
}

TEST_F(CollectionValidationTest, IndexEntryRemovedBehindTheCollectionIsMissing) {
    RecordId id3;
    {
        auto cursor = coll->recordStore()->getCursor(ru());
        while (auto rec = cursor->next())
            if (rec->data["_id"].numberInt() == 3)
                id3 = rec->id;
    }
    ru()->abandonSnapshot();
    ASSERT_FALSE(id3.isNull());
    {
        WriteUnitOfWork wuow(ru());
        indexA()->sdi->unindex(ru(), BSON("" << 30), id3);
        wuow.commit();
    }
    ru()->abandonSnapshot();
    BSONObj res = validate();
    EXPECT_FALSE(res["valid"].trueValue()) << res;
    ASSERT_EQ(1, res["missingIndexEntries"].Obj().nFields()) << res;
    BSONObj missing = res["missingIndexEntries"].Obj().firstElement().Obj();
    EXPECT_EQ("a_1", missing["indexName"].str());
    EXPECT_EQ(3, missing["idKey"].numberInt());
    EXPECT_EQ(0, BSON("a" << 30).woCompare(missing["indexKey"].Obj())) << missing;
    EXPECT_FALSE(res["indexDetails"].Obj()["a_1"].Obj()["valid"].trueValue());
    EXPECT_TRUE(res["indexDetails"].Obj()["_id_"].Obj()["valid"].trueValue());
}

TEST_F(CollectionValidationTest, IndexEntryWithoutDocumentIsExtra) {
    {
        WriteUnitOfWork wuow(ru());
        ASSERT_TRUE(indexA()->sdi->insert(ru(), BSON("" << 999), RecordId(4242), true).isOK());
        wuow.commit();
    }
    ru()->abandonSnapshot();
    BSONObj res = validate();
    EXPECT_FALSE(res["valid"].trueValue()) << res;
    ASSERT_EQ(1, res["extraIndexEntries"].Obj().nFields()) << res;
    BSONObj extra = res["extraIndexEntries"].Obj().firstElement().Obj();
    EXPECT_EQ(4242, extra["recordId"].numberLong());
    EXPECT_EQ(0, BSON("a" << 999).woCompare(extra["indexKey"].Obj())) << extra;
    EXPECT_EQ(11, res["keysPerIndex"].Obj()["a_1"].numberLong());
    EXPECT_EQ(1, res["errors"].Obj().nFields()) << res;
}

TEST_F(CollectionValidationTest, FailedRecordCheckIsNonCompliantOnceWarned) {
    ValidateOptions options;
    options.recordCheck = [](const BSONObj& doc) {
        return doc["a"].numberInt() >= 50 ? Status(ErrorCodes::BadValue, "too big") : Status::OK();
    };
    options.recordCheckWarning = "custom warning";
    BSONObj res = validate(options);
    EXPECT_TRUE(res["valid"].trueValue()) << res;
    EXPECT_EQ(5, res["nNonCompliantDocuments"].numberLong());
    ASSERT_EQ(1, res["warnings"].Obj().nFields());
    EXPECT_EQ("custom warning", res["warnings"].Obj().firstElement().str());
}

TEST_F(CollectionValidationTest, InterruptStopsValidation) {
    opCtx->markKilled(ErrorCodes::Interrupted);
    EXPECT_THROW(validate(), DBException);
}

}  // namespace
}  // namespace mongo
