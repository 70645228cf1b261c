#include "mongo/db/repl/transaction_table.h"

#include <shared_mutex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/oplog_applier.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace repl {

namespace {

std::string sessionKey(const BSONObj& lsid) {
    return std::string(lsid.objdata(), lsid.objsize());
}

std::string describe(const BSONObj& lsid) {
    return lsid.toString();
}

std::shared_ptr<Collection> lookupOrCreate(OperationContext* opCtx, const NamespaceString& nss) {
    auto* catalog = opCtx->getServiceContext()->catalog;
    if (auto coll = catalog->lookup(nss))
        return coll;
    return catalog->getOrCreateCollection(opCtx, nss);
}

/** The oplog entry at `opTime`, if still in the oplog. */
std::optional<BSONObj> readOplogEntry(OperationContext* opCtx, const OpTime& opTime) {
    auto oplog = LocalOplog::get()->collection();
    if (!oplog)
        return std::nullopt;
    BSONObj doc;
    if (!oplog->recordStore()->findRecord(
            opCtx->recoveryUnit(), RecordId(static_cast<std::int64_t>(opTime.ts.asULL())), &doc))
        return std::nullopt;
    return doc.getOwned();
}

OpTime parseOpTime(const BSONElement& e) {
    OpTime t;
    if (e.type() != BSONType::kObject)
        return t;
    BSONObj o = e.embeddedObject();
    if (o["ts"].type() == BSONType::kTimestamp)
        t.ts = o["ts"].timestamp();
    if (o["t"].isNumber())
        t.term = o["t"].numberLong();
    return t;
}

/** Upserts `doc` by its _id into `coll`. REQUIRES: in a unit of work. */
void upsertById(OperationContext* opCtx, Collection* coll, const BSONObj& doc) {
    std::shared_lock<std::shared_mutex> lk(coll->lock());
    if (auto existing = findDocumentById(opCtx, coll, doc["_id"]))
        coll->updateDocument(opCtx, existing->id, existing->doc.getOwned(), doc);
    else
        coll->insertDocument(opCtx, doc);
}

}  // namespace

const NamespaceString& transactionsNss() {
    static const NamespaceString nss("config", "transactions");
    return nss;
}

const NamespaceString& imageCollectionNss() {
    static const NamespaceString nss("config", "image_collection");
    return nss;
}

OpTime RetryableSession::lastWriteOpTime(long long txnNumber) const {
    std::lock_guard<std::mutex> lk(_mutex);
    return txnNumber == _txnNumber ? _lastWriteOpTime : OpTime();
}

OpTime RetryableSession::chainHead(long long txnNumber) const {
    std::lock_guard<std::mutex> lk(_mutex);
    if (txnNumber != _txnNumber)
        return OpTime();
    return std::max(_chainHead, _lastWriteOpTime);
}

void RetryableSession::advanceChainHead(long long txnNumber, const OpTime& opTime) {
    std::lock_guard<std::mutex> lk(_mutex);
    if (txnNumber == _txnNumber && opTime > _chainHead)
        _chainHead = opTime;
}

void RetryableSession::resetChainHead() {
    std::lock_guard<std::mutex> lk(_mutex);
    _chainHead = _lastWriteOpTime;
}

void RetryableSession::onWriteCommitted(long long txnNumber, const std::vector<int>& stmtIds,
                                        const OpTime& opTime, Date_t wall) {
    std::lock_guard<std::mutex> lk(_mutex);
    if (txnNumber != _txnNumber)
        return;
    for (int id : stmtIds) {
        if (id != kUninitializedStmtId)
            _executed[id] = opTime;
    }
    if (opTime > _lastWriteOpTime) {
        _lastWriteOpTime = opTime;
        _lastWriteDate = wall;
    }
}

std::optional<BSONObj> CheckedOutSession::checkStatementExecuted(OperationContext* opCtx,
                                                                 int stmtId) const {
    OpTime at;
    {
        std::lock_guard<std::mutex> lk(_session->_mutex);
        auto it = _session->_executed.find(stmtId);
        if (it == _session->_executed.end()) {
            uassert(ErrorCodes::IncompleteTransactionHistory,
                    "Incomplete history detected for transaction " + std::to_string(_txnNumber) +
                        " on session " + describe(_session->lsid()),
                    !_session->_incompleteHistory);
            return std::nullopt;
        }
        at = it->second;
    }
    auto entry = readOplogEntry(opCtx, at);
    opCtx->recoveryUnit()->abandonSnapshot();
    uassert(ErrorCodes::IncompleteTransactionHistory,
            "Incomplete history detected for transaction " + std::to_string(_txnNumber) +
                " on session " + describe(_session->lsid()) + ": the oplog entry of statement " +
                std::to_string(stmtId) + " is gone",
            entry.has_value());
    return entry;
}

TransactionTable* TransactionTable::get() {
    static TransactionTable instance;
    return &instance;
}

CheckedOutSession TransactionTable::checkOut(OperationContext* opCtx, const BSONObj& lsid,
                                             long long txnNumber) {
    lookupOrCreate(opCtx, transactionsNss());
    lookupOrCreate(opCtx, imageCollectionNss());
    std::shared_ptr<RetryableSession> session;
    std::unique_lock<std::timed_mutex> checkOutLock;
    while (true) {
        {
            std::lock_guard<std::mutex> lk(_mutex);
            auto& slot = _sessions[sessionKey(lsid)];
            if (!slot)
                slot = std::make_shared<RetryableSession>(lsid);
            session = slot;
        }
        // Another command may hold the session: wait, but stop when this one is interrupted.
        checkOutLock = std::unique_lock<std::timed_mutex>(session->_checkOutMutex, std::defer_lock);
        while (!checkOutLock.try_lock_for(std::chrono::milliseconds(20)))
            opCtx->checkForInterrupt();
        std::lock_guard<std::mutex> lk(session->_mutex);
        if (!session->_forgotten)
            break;
        // forgetSessions() dropped it while this command waited: take the current one.
    }
    bool loaded;
    {
        std::lock_guard<std::mutex> lk(session->_mutex);
        loaded = session->_loaded;
    }
    if (!loaded)
        _load(opCtx, session.get());

    std::lock_guard<std::mutex> lk(session->_mutex);
    uassert(ErrorCodes::TransactionTooOld,
            "Retryable write with txnNumber " + std::to_string(txnNumber) +
                " is prohibited on session " + describe(lsid) +
                " because a newer retryable write with txnNumber " +
                std::to_string(session->_txnNumber) + " has already started on this session.",
            txnNumber >= session->_txnNumber);
    if (txnNumber > session->_txnNumber) {
        session->_txnNumber = txnNumber;
        session->_executed.clear();
        session->_incompleteHistory = false;
        session->_lastWriteOpTime = OpTime();
        session->_lastWriteDate = Date_t();
        session->_chainHead = OpTime();
    }
    return CheckedOutSession(session, txnNumber, std::move(checkOutLock));
}

void TransactionTable::_load(OperationContext* opCtx, RetryableSession* session) {
    long long txnNumber = -1;
    std::map<int, OpTime> executed;
    bool incomplete = false;
    OpTime last;
    Date_t lastDate;
    if (auto coll = opCtx->getServiceContext()->catalog->lookup(transactionsNss())) {
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        BSONObjBuilder idb;
        idb.append("_id", session->lsid());
        BSONObj id = idb.obj();
        if (auto rec = findDocumentById(opCtx, coll.get(), id["_id"])) {
            BSONObj doc = rec->doc.getOwned();
            txnNumber = doc["txnNum"].numberLong();
            last = parseOpTime(doc["lastWriteOpTime"]);
            lastDate = doc["lastWriteDate"].type() == BSONType::kDate ? doc["lastWriteDate"].date()
                                                                      : Date_t();
        }
    }
    // Walk the session's oplog chain back from its newest write.
    for (OpTime cur = last; !cur.isNull();) {
        auto entry = readOplogEntry(opCtx, cur);
        if (!entry) {
            incomplete = true;
            break;
        }
        if ((*entry)["txnNumber"].numberLong() != txnNumber)
            break;
        BSONElement ids = (*entry)["stmtId"];
        if (ids.type() == BSONType::kArray) {
            for (auto e : ids.embeddedObject())
                executed.emplace(static_cast<int>(e.numberLong()), cur);
        } else if (ids.isNumber()) {
            executed.emplace(static_cast<int>(ids.numberLong()), cur);
        }
        cur = parseOpTime((*entry)["prevOpTime"]);
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    std::lock_guard<std::mutex> lk(session->_mutex);
    session->_loaded = true;
    session->_txnNumber = txnNumber;
    session->_executed = std::move(executed);
    session->_incompleteHistory = incomplete;
    session->_lastWriteOpTime = last;
    session->_lastWriteDate = lastDate;
    session->_chainHead = last;
}

void TransactionTable::recordWrite(OperationContext* opCtx, RetryableSession* session,
                                   long long txnNumber, const std::vector<int>& stmtIds,
                                   const OpTime& opTime, Date_t wall) {
    auto coll = opCtx->getServiceContext()->catalog->lookup(transactionsNss());
    uassert(ErrorCodes::NamespaceNotFound, "config.transactions does not exist", coll);
    BSONObjBuilder b;
    b.append("_id", session->lsid());
    b.append("txnNum", txnNumber);
    b.append("lastWriteOpTime", opTime.toBSON());
    b.append("lastWriteDate", wall);
    upsertById(opCtx, coll.get(), b.obj());
    session->advanceChainHead(txnNumber, opTime);
    auto s = session->shared_from_this();
    opCtx->recoveryUnit()->onCommitOrRollback(
        [s, txnNumber, stmtIds, opTime, wall] {
            s->onWriteCommitted(txnNumber, stmtIds, opTime, wall);
        },
        [s] { s->resetChainHead(); });
}

void TransactionTable::writeImage(OperationContext* opCtx, RetryableSession* session,
                                  long long txnNumber, const Timestamp& ts, StringData imageKind,
                                  const BSONObj& image) {
    auto coll = opCtx->getServiceContext()->catalog->lookup(imageCollectionNss());
    uassert(ErrorCodes::NamespaceNotFound, "config.image_collection does not exist", coll);
    BSONObjBuilder b;
    b.append("_id", session->lsid());
    b.append("txnNum", txnNumber);
    b.append("ts", ts);
    b.append("imageKind", imageKind);
    b.append("image", image);
    b.append("invalidated", false);
    upsertById(opCtx, coll.get(), b.obj());
}

std::optional<BSONObj> TransactionTable::readImage(OperationContext* opCtx, const BSONObj& lsid,
                                                   long long txnNumber, const Timestamp& ts) {
    auto coll = opCtx->getServiceContext()->catalog->lookup(imageCollectionNss());
    if (!coll)
        return std::nullopt;
    std::optional<BSONObj> out;
    {
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        BSONObjBuilder idb;
        idb.append("_id", lsid);
        BSONObj id = idb.obj();
        if (auto rec = findDocumentById(opCtx, coll.get(), id["_id"])) {
            BSONObj doc = rec->doc;
            if (doc["txnNum"].numberLong() == txnNumber &&
                doc["ts"].type() == BSONType::kTimestamp &&
                doc["ts"].timestamp().asULL() == ts.asULL() && !doc["invalidated"].trueValue() &&
                doc["image"].type() == BSONType::kObject)
                out = doc["image"].embeddedObject().getOwned();
        }
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    return out;
}

size_t TransactionTable::forgetSessions(const std::vector<BSONObj>& lsids) {
    std::lock_guard<std::mutex> lk(_mutex);
    size_t n = 0;
    for (const auto& lsid : lsids) {
        auto it = _sessions.find(sessionKey(lsid));
        if (it == _sessions.end())
            continue;
        std::unique_lock<std::timed_mutex> inUse(it->second->_checkOutMutex, std::try_to_lock);
        if (!inUse.owns_lock())
            continue;  // a command holds it: it stays
        {
            std::lock_guard<std::mutex> sl(it->second->_mutex);
            it->second->_forgotten = true;
        }
        inUse.unlock();
        _sessions.erase(it);
        ++n;
    }
    return n;
}

void TransactionTable::clearInMemory() {
    std::lock_guard<std::mutex> lk(_mutex);
    _sessions.clear();
}

}  // namespace repl
}  // namespace mongo
