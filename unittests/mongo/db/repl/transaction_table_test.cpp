#include "mongo/db/repl/transaction_table.h"

#include <gtest/gtest.h>

#include "../storage/storage_test_util.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/op_observer.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/op_observer_impl.h"
#include "mongo/db/repl/operation_session_info.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/retryable_write_scope.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/durable_catalog.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace repl {
namespace {

BSONObj makeLsid(char fill) {
    std::string uuid(16, fill);
    BSONObjBuilder b;
    b.appendBinData("id", 16, newUUID, uuid.data());
    return b.obj();
}

/** A storage engine with a catalog, an oplog and the replica-set op observer. */
class TransactionTableTest : public ::testing::Test {
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
        LocalOplog::get()->setMaxSizeBytes(16 * 1024 * 1024);
        ASSERT_TRUE(LocalOplog::get()->createOrOpen(opCtx.get()).isOK());
        auto observer = std::make_unique<OpObserverImpl>();
        oplogObserver = observer.get();
        getOpObserverRegistry().addObserver(std::move(observer));
        TransactionTable::get()->clearInMemory();
        coll = catalog->getOrCreateCollection(opCtx.get(), NamespaceString("test", "c"));
    }
    void TearDown() override {
        getOpObserverRegistry().removeObserver(oplogObserver);
        TransactionTable::get()->clearInMemory();
        coll.reset();
        opCtx.reset();
        catalog.reset();
        durable.reset();
        engine.reset();
    }

    /** Inserts `docs` as statements `stmtIds` of (lsid, txn) in one unit of work. */
    void retryableInsert(const BSONObj& lsid, long long txn, std::vector<int> stmtIds,
                         const std::vector<BSONObj>& docs) {
        auto session = TransactionTable::get()->checkOut(opCtx.get(), lsid, txn);
        RetryableWriteScope scope({{session.session(), txn, std::move(stmtIds)}});
        RecoveryUnit* ru = opCtx->recoveryUnit();
        WriteUnitOfWork wuow(ru);
        for (const auto& d : docs)
            coll->insertDocument(opCtx.get(), d);
        wuow.commit();
        ru->abandonSnapshot();
    }

    std::optional<BSONObj> executed(const BSONObj& lsid, long long txn, int stmtId) {
        auto session = TransactionTable::get()->checkOut(opCtx.get(), lsid, txn);
        return session.checkStatementExecuted(opCtx.get(), stmtId);
    }

    TempDir dir;
    std::unique_ptr<WiredTigerKVEngine> engine;
    std::unique_ptr<DurableCatalog> durable;
    std::unique_ptr<CollectionCatalog> catalog;
    ServiceContext sc;
    std::unique_ptr<OperationContext> opCtx;
    std::shared_ptr<Collection> coll;
    OpObserver* oplogObserver = nullptr;
};

TEST_F(TransactionTableTest, ExecutedStatementsAreFoundWithTheirOplogEntry) {
    BSONObj lsid = makeLsid(1);
    retryableInsert(lsid, 5, {0, 1}, {BSON("_id" << 1), BSON("_id" << 2)});
    auto e0 = executed(lsid, 5, 0);
    auto e1 = executed(lsid, 5, 1);
    ASSERT_TRUE(e0 && e1);
    EXPECT_EQ((*e0)["op"].str(), "i");
    EXPECT_EQ((*e0)["stmtId"].numberInt(), 0);
    EXPECT_EQ((*e1)["stmtId"].numberInt(), 1);
    EXPECT_EQ((*e1)["txnNumber"].numberLong(), 5);
    EXPECT_EQ((*e1)["o"].Obj()["_id"].numberInt(), 2);
    // The second entry links to the first.
    EXPECT_EQ((*e1)["prevOpTime"].Obj()["ts"].timestamp(), (*e0)["ts"].timestamp());
    EXPECT_FALSE(executed(lsid, 5, 2));
}

TEST_F(TransactionTableTest, StatementsAreReloadedFromStorage) {
    BSONObj lsid = makeLsid(2);
    retryableInsert(lsid, 3, {7}, {BSON("_id" << 1)});
    retryableInsert(lsid, 3, {8}, {BSON("_id" << 2)});
    TransactionTable::get()->clearInMemory();  // as after a restart
    EXPECT_TRUE(executed(lsid, 3, 7));
    EXPECT_TRUE(executed(lsid, 3, 8));
    EXPECT_FALSE(executed(lsid, 3, 9));
    auto rec = catalog->lookup(transactionsNss());
    ASSERT_TRUE(rec);
    EXPECT_EQ(rec->numRecords(opCtx.get()), 1);
}

TEST_F(TransactionTableTest, AnOlderTxnNumberIsTooOld) {
    BSONObj lsid = makeLsid(3);
    retryableInsert(lsid, 10, {0}, {BSON("_id" << 1)});
    try {
        executed(lsid, 9, 0);
        FAIL() << "expected TransactionTooOld";
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::TransactionTooOld);
    }
    TransactionTable::get()->clearInMemory();
    try {
        executed(lsid, 9, 0);
        FAIL() << "expected TransactionTooOld after a reload";
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::TransactionTooOld);
    }
}

TEST_F(TransactionTableTest, ANewerTxnNumberForgetsTheOldStatements) {
    BSONObj lsid = makeLsid(4);
    retryableInsert(lsid, 1, {0}, {BSON("_id" << 1)});
    EXPECT_FALSE(executed(lsid, 2, 0));
}

TEST_F(TransactionTableTest, TruncatedHistoryIsIncomplete) {
    BSONObj lsid = makeLsid(5);
    retryableInsert(lsid, 1, {0}, {BSON("_id" << 1)});
    auto first = executed(lsid, 1, 0);
    ASSERT_TRUE(first);
    retryableInsert(lsid, 1, {1}, {BSON("_id" << 2)});
    {
        RecoveryUnit* ru = opCtx->recoveryUnit();
        WriteUnitOfWork wuow(ru);
        LocalOplog::get()->collection()->recordStore()->deleteRecord(
            ru, RecordId(static_cast<std::int64_t>((*first)["ts"].timestamp().asULL())));
        wuow.commit();
        ru->abandonSnapshot();
    }
    TransactionTable::get()->clearInMemory();
    EXPECT_TRUE(executed(lsid, 1, 1));
    try {
        executed(lsid, 1, 0);
        FAIL() << "expected IncompleteTransactionHistory";
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::IncompleteTransactionHistory);
    }
}

TEST_F(TransactionTableTest, ARolledBackWriteIsNotRecorded) {
    BSONObj lsid = makeLsid(6);
    {
        auto session = TransactionTable::get()->checkOut(opCtx.get(), lsid, 1);
        RetryableWriteScope scope({{session.session(), 1, {0}}});
        RecoveryUnit* ru = opCtx->recoveryUnit();
        WriteUnitOfWork wuow(ru);
        coll->insertDocument(opCtx.get(), BSON("_id" << 1));
        // no commit: rolled back
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    EXPECT_FALSE(executed(lsid, 1, 0));
    TransactionTable::get()->clearInMemory();
    EXPECT_FALSE(executed(lsid, 1, 0));
}

TEST_F(TransactionTableTest, OneEntryCanCarrySeveralStatements) {
    BSONObj lsid = makeLsid(7);
    {
        auto session = TransactionTable::get()->checkOut(opCtx.get(), lsid, 1);
        RetryableWriteScope scope({{session.session(), 1, {3, 4, 5}}},
                                  RetryableWriteScope::Mode::kAllOnFirstEntry);
        RecoveryUnit* ru = opCtx->recoveryUnit();
        WriteUnitOfWork wuow(ru);
        coll->insertDocument(opCtx.get(), BSON("_id" << 1));
        wuow.commit();
        ru->abandonSnapshot();
    }
    TransactionTable::get()->clearInMemory();
    auto e = executed(lsid, 1, 4);
    ASSERT_TRUE(e);
    EXPECT_EQ((*e)["stmtId"].type(), BSONType::kArray);
    EXPECT_TRUE(executed(lsid, 1, 3));
    EXPECT_TRUE(executed(lsid, 1, 5));
}

TEST_F(TransactionTableTest, EntriesOfOneUnitOfWorkChainEvenAcrossScopes) {
    // As a time-series insert writing two buckets in one storage transaction.
    BSONObj lsid = makeLsid(8);
    {
        auto session = TransactionTable::get()->checkOut(opCtx.get(), lsid, 1);
        RecoveryUnit* ru = opCtx->recoveryUnit();
        WriteUnitOfWork wuow(ru);
        {
            RetryableWriteScope scope({{session.session(), 1, {0, 1}}},
                                      RetryableWriteScope::Mode::kAllOnFirstEntry);
            coll->insertDocument(opCtx.get(), BSON("_id" << 1));
        }
        {
            RetryableWriteScope scope({{session.session(), 1, {2}}},
                                      RetryableWriteScope::Mode::kAllOnFirstEntry);
            coll->insertDocument(opCtx.get(), BSON("_id" << 2));
        }
        wuow.commit();
        ru->abandonSnapshot();
    }
    TransactionTable::get()->clearInMemory();
    EXPECT_TRUE(executed(lsid, 1, 0));
    EXPECT_TRUE(executed(lsid, 1, 1));
    EXPECT_TRUE(executed(lsid, 1, 2));
}

TEST(OperationSessionInfo, TxnNumberNeedsASession) {
    try {
        parseOperationSessionInfo("insert", BSON("insert"
                                                 << "c"
                                                 << "txnNumber" << 1LL));
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::InvalidOptions);
    }
}

TEST(OperationSessionInfo, TxnNumberIsRefusedOnAStandalone) {
    try {
        parseOperationSessionInfo("insert", BSON("insert"
                                                 << "c"
                                                 << "lsid" << makeLsid(1) << "txnNumber" << 1LL));
        FAIL();
    } catch (const DBException& ex) {
        EXPECT_EQ(ex.code(), ErrorCodes::IllegalOperation);
    }
}

TEST(OperationSessionInfo, NoTxnNumberIsAPlainWrite) {
    auto osi = parseOperationSessionInfo("insert", BSON("insert"
                                                        << "c"
                                                        << "lsid" << makeLsid(1)));
    EXPECT_FALSE(osi.isRetryableWrite());
    EXPECT_FALSE(osi.lsid.isEmpty());
}

TEST(OplogEntry, RetryableWriteEntryHasUpstreamFieldOrder) {
    OplogEntryParams p;
    p.opType = 'i';
    p.ns = "test.c";
    p.o = BSON("_id" << 1);
    p.lsid = makeLsid(1);
    p.txnNumber = 4;
    p.stmtIds = {2};
    BSONObj e = makeOplogEntry(p, OpTime{Timestamp(9, 1), 1}, Date_t::now());
    std::vector<std::string> names;
    for (auto el : e)
        names.push_back(el.fieldName());
    EXPECT_EQ(names, (std::vector<std::string>{"lsid", "txnNumber", "op", "ns", "o", "stmtId", "ts",
                                               "t", "v", "wall", "prevOpTime"}));
    EXPECT_EQ(e["txnNumber"].type(), BSONType::kNumberLong);
    EXPECT_EQ(e["stmtId"].type(), BSONType::kNumberInt);
    EXPECT_EQ(e["prevOpTime"].Obj()["t"].numberLong(), -1);
}

TEST(OplogEntry, SessionTablesAreNotReplicated) {
    EXPECT_FALSE(isReplicatedNamespace(transactionsNss()));
    EXPECT_FALSE(isReplicatedNamespace(imageCollectionNss()));
}

}  // namespace
}  // namespace repl
}  // namespace mongo
