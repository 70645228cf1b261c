#include "mongo/db/repl/op_observer_impl.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/repl/retryable_write_scope.h"
#include "mongo/db/repl/transaction_table.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace repl {

namespace {

/** Throws NotWritablePrimary before replSetInitiate; false if `nss` is not logged. */
bool shouldLog(const NamespaceString& nss) {
    if (!isReplicatedNamespace(nss))
        return false;
    uassert(ErrorCodes::NotWritablePrimary, "not primary",
            ReplicationCoordinator::get()->canAcceptWrites());
    return LocalOplog::get()->isOpen();
}

/** Logs a CRUD entry, stamped for a retryable write when a scope is open on this thread. */
void logCrud(OperationContext* opCtx, const OplogEntryParams& p, const BSONObj* pre = nullptr,
             const BSONObj* post = nullptr) {
    if (auto* scope = RetryableWriteScope::current())
        scope->logStamped(opCtx, p, pre, post);
    else
        LocalOplog::get()->logOp(opCtx, p);
}

BSONObj documentKey(const BSONObj& doc) {
    BSONElement id = doc["_id"];
    if (id.eoo())
        return BSONObj();
    BSONObjBuilder b;
    b.append(id);
    return b.obj();
}

/** Logs a command entry `o` on "<db>.$cmd", in its own unit of work if needed. */
void logCommand(OperationContext* opCtx, StringData db, const BSONObj& o,
                const std::string& uuid = std::string()) {
    OplogEntryParams p;
    p.opType = 'c';
    p.ns = std::string(db) + ".$cmd";
    p.uuid = uuid;
    p.o = o;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    if (ru->inUnitOfWork()) {
        LocalOplog::get()->logOp(opCtx, p);
        return;
    }
    writeConflictRetry(ru, "logCommand", [&] {
        WriteUnitOfWork wuow(ru);
        LocalOplog::get()->logOp(opCtx, p);
        wuow.commit();
    });
}

}  // namespace

bool isReplicatedNamespace(const NamespaceString& nss) {
    // The session table and the findAndModify images are derived state, written in the
    // unit of work of the write they describe.
    return nss.db() != "local" && nss.coll() != "system.profile" && nss != transactionsNss() &&
           nss != imageCollectionNss();
}

void OpObserverImpl::onInserts(OperationContext* opCtx, const Collection& coll,
                               const std::vector<BSONObj>& docs) {
    if (coll.isCapped() && !docs.empty())
        opCtx->recoveryUnit()->onCommit([] { LocalOplog::get()->notifyInserted(); });
    if (!shouldLog(coll.ns()))
        return;
    for (const auto& doc : docs) {
        OplogEntryParams p;
        p.opType = 'i';
        p.ns = coll.ns().ns();
        p.uuid = coll.uuid();
        p.o = doc;
        logCrud(opCtx, p);
    }
}

void OpObserverImpl::onUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre,
                              const BSONObj& post, const BSONObj& diff) {
    if (!shouldLog(coll.ns()))
        return;
    OplogEntryParams p;
    p.opType = 'u';
    p.ns = coll.ns().ns();
    p.uuid = coll.uuid();
    p.o = diff.isEmpty() ? post : diff;
    p.o2 = documentKey(post);
    logCrud(opCtx, p, &pre, &post);
}

void OpObserverImpl::onDelete(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) {
    if (!shouldLog(coll.ns()))
        return;
    OplogEntryParams p;
    p.opType = 'd';
    p.ns = coll.ns().ns();
    p.uuid = coll.uuid();
    p.o = documentKey(doc);
    logCrud(opCtx, p, &doc, nullptr);
}

void OpObserverImpl::onCreateCollection(OperationContext* opCtx, const NamespaceString& nss,
                                        const BSONObj& options) {
    if (!shouldLog(nss))
        return;
    BSONObjBuilder b;
    b.append("create", nss.coll());
    for (auto e : options) {
        if (e.fieldNameStringData() != "uuid")
            b.append(e);
    }
    std::string uuid;
    if (BSONElement u = options["uuid"]; u.type() == BSONType::kBinData) {
        int len = 0;
        const char* data = u.binData(len);
        uuid.assign(data, len);
    }
    logCommand(opCtx, nss.db(), b.obj(), uuid);
}

void OpObserverImpl::onDropCollection(OperationContext* opCtx, const NamespaceString& nss,
                                      const std::string& uuid) {
    if (!shouldLog(nss))
        return;
    logCommand(opCtx, nss.db(), BSON("drop" << nss.coll()));
}

void OpObserverImpl::onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                                        const NamespaceString& to, const std::string& uuid,
                                        bool dropTarget) {
    if (!shouldLog(from) && !shouldLog(to))
        return;
    logCommand(opCtx, from.db(),
               BSON("renameCollection" << from.ns() << "to" << to.ns() << "stayTemp" << false
                                       << "dropTarget" << dropTarget));
}

void OpObserverImpl::onCreateIndex(OperationContext* opCtx, const NamespaceString& nss,
                                   const BSONObj& spec) {
    if (!shouldLog(nss))
        return;
    BSONObjBuilder b;
    b.append("createIndexes", nss.coll());
    b.appendElements(spec);
    logCommand(opCtx, nss.db(), b.obj());
}

void OpObserverImpl::onDropIndex(OperationContext* opCtx, const NamespaceString& nss,
                                 StringData indexName) {
    if (!shouldLog(nss))
        return;
    logCommand(opCtx, nss.db(), BSON("dropIndexes" << nss.coll() << "index" << indexName));
}

void OpObserverImpl::onDropDatabase(OperationContext* opCtx, StringData db) {
    if (!shouldLog(NamespaceString(db, "$cmd")))
        return;
    logCommand(opCtx, db, BSON("dropDatabase" << 1));
}

}  // namespace repl
}  // namespace mongo
