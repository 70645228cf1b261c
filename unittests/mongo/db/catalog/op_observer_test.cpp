// The OpObserverRegistry: every collection write and DDL operation of the catalog reaches
// each registered observer, in registration order, with the document and the collection.
#include "mongo/db/catalog/op_observer.h"

#include <gtest/gtest.h>

#include "../storage/storage_test_util.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/storage/recovery_unit.h"

namespace mongo {
namespace {

const NamespaceString kNss("test", "c");

/** Appends "<tag>:<event> <detail>" to a shared log. */
class RecordingObserver : public OpObserver {
public:
    RecordingObserver(std::string tag, std::vector<std::string>* log, bool diffs = false)
        : _tag(std::move(tag)), _log(log), _diffs(diffs) {}
    void onInserts(OperationContext*, const Collection& coll,
                   const std::vector<BSONObj>& docs) override {
        for (const auto& d : docs)
            add("insert " + coll.ns().ns() + " " + d["_id"].toString(false));
    }
    void onUpdate(OperationContext*, const Collection& coll, const BSONObj& pre,
                  const BSONObj& post, const BSONObj&) override {
        add("update " + pre["x"].toString(false) + "->" + post["x"].toString(false));
    }
    void onDelete(OperationContext*, const Collection& coll, const BSONObj& doc) override {
        add("delete " + doc["_id"].toString(false));
    }
    void onDropCollection(OperationContext*, const NamespaceString& nss,
                          const std::string& uuid) override {
        add("drop " + nss.ns() + (uuid.empty() ? " no-uuid" : " uuid"));
    }
    void onRenameCollection(OperationContext*, const NamespaceString& from,
                            const NamespaceString& to, const std::string& uuid, bool) override {
        add("rename " + from.ns() + "->" + to.ns() + (uuid.empty() ? " no-uuid" : " uuid"));
    }
    bool wantsUpdateDiffs() const override {
        return _diffs;
    }

private:
    void add(const std::string& s) {
        _log->push_back(_tag + ":" + s);
    }
    std::string _tag;
    std::vector<std::string>* _log;
    bool _diffs;
};

class OpObserverRegistryTest : public ::testing::Test {
protected:
    void SetUp() override {
        engine = openEngine(testOptions(dir.path()));
        durable = std::move(DurableCatalog::open(engine.get()).getValue());
        catalog = std::make_unique<CollectionCatalog>(engine.get(), durable.get());
        sc.storageEngine = engine.get();
        sc.catalog = catalog.get();
        sc.durableCatalog = durable.get();
        opCtx = std::make_unique<OperationContext>(&sc, nullptr, 1);
        opCtx->swapRecoveryUnit(engine->newRecoveryUnit());
        ASSERT_TRUE(catalog->init(opCtx.get()).isOK());
        coll = catalog->createCollection(opCtx.get(), kNss, BSONObj()).getValue();
        add(std::make_unique<RecordingObserver>("A", &log));
        add(std::make_unique<RecordingObserver>("B", &log));
    }
    void TearDown() override {
        for (auto* o : added)
            getOpObserverRegistry().removeObserver(o);
        coll.reset();
        opCtx.reset();
        catalog.reset();
        durable.reset();
        engine.reset();
    }
    void add(std::unique_ptr<OpObserver> o) {
        added.push_back(o.get());
        getOpObserverRegistry().addObserver(std::move(o));
    }
    /** Runs `f` in one committed unit of work. */
    template <typename F>
    void inUnit(F&& f) {
        RecoveryUnit* ru = opCtx->recoveryUnit();
        WriteUnitOfWork wuow(ru);
        f();
        wuow.commit();
        ru->abandonSnapshot();
    }

    TempDir dir;
    std::unique_ptr<WiredTigerKVEngine> engine;
    std::unique_ptr<DurableCatalog> durable;
    std::unique_ptr<CollectionCatalog> catalog;
    ServiceContext sc;
    std::unique_ptr<OperationContext> opCtx;
    std::shared_ptr<Collection> coll;
    std::vector<OpObserver*> added;
    std::vector<std::string> log;
};

TEST_F(OpObserverRegistryTest, DocumentWritesReachEveryObserverInOrder) {
    RecordId id;
    const BSONObj v1 = BSON("_id" << 7 << "x" << 1), v2 = BSON("_id" << 7 << "x" << 2);
    inUnit([&] { id = coll->insertDocument(opCtx.get(), v1); });
    inUnit([&] { coll->updateDocument(opCtx.get(), id, v1, v2); });
    inUnit([&] { coll->deleteDocument(opCtx.get(), id, v2); });
    const std::vector<std::string> expected{"A:insert test.c 7", "B:insert test.c 7",
                                            "A:update 1->2",     "B:update 1->2",
                                            "A:delete 7",        "B:delete 7"};
    EXPECT_EQ(log, expected);
}

TEST_F(OpObserverRegistryTest, DropAndRenameCarryTheCollectionUuid) {
    const NamespaceString renamed("test", "d");
    ASSERT_TRUE(catalog->renameCollection(opCtx.get(), kNss, renamed, false).isOK());
    ASSERT_TRUE(catalog->dropCollection(opCtx.get(), renamed).isOK());
    const std::vector<std::string> expected{"A:rename test.c->test.d uuid",
                                            "B:rename test.c->test.d uuid", "A:drop test.d uuid",
                                            "B:drop test.d uuid"};
    EXPECT_EQ(log, expected);
}

TEST_F(OpObserverRegistryTest, RemovedObserverIsNoLongerCalled) {
    auto removed = getOpObserverRegistry().removeObserver(added.front());
    ASSERT_TRUE(removed);
    added.erase(added.begin());
    inUnit([&] { coll->insertDocument(opCtx.get(), BSON("_id" << 1)); });
    EXPECT_EQ(log, std::vector<std::string>{"B:insert test.c 1"});
    EXPECT_FALSE(getOpObserverRegistry().removeObserver(removed.get()));
}

TEST_F(OpObserverRegistryTest, UpdateDiffsAreWantedWhenAnyObserverWantsThem) {
    EXPECT_FALSE(getOpObserver()->wantsUpdateDiffs());
    add(std::make_unique<RecordingObserver>("C", &log, true));
    EXPECT_TRUE(getOpObserver()->wantsUpdateDiffs());
}

}  // namespace
}  // namespace mongo
