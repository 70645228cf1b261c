// OpObserverImpl: the OpObserver installed in replica-set mode (--replSet). It
// writes one local.oplog.rs entry per document write and per DDL operation,
// inside the caller's unit of work, in upstream's shape (README.md). Writes to
// the `local` database and to system.profile are not logged. Before
// replSetInitiate every logged write fails with NotWritablePrimary 10107.
//
// Thread safety: stateless; the oplog (LocalOplog) serialises entries.
#pragma once

#include "mongo/db/catalog/op_observer.h"

namespace mongo {
namespace repl {

class OpObserverImpl : public OpObserver {
public:
    void onInserts(OperationContext* opCtx, const Collection& coll,
                   const std::vector<BSONObj>& docs) override;
    void onUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre,
                  const BSONObj& post, const BSONObj& diff) override;
    void onDelete(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) override;
    void onCreateCollection(OperationContext* opCtx, const NamespaceString& nss,
                            const BSONObj& options) override;
    void onDropCollection(OperationContext* opCtx, const NamespaceString& nss,
                          const std::string& uuid) override;
    void onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                            const NamespaceString& to, const std::string& uuid,
                            bool dropTarget) override;
    void onCreateIndex(OperationContext* opCtx, const NamespaceString& nss,
                       const BSONObj& spec) override;
    void onDropIndex(OperationContext* opCtx, const NamespaceString& nss,
                     StringData indexName) override;
    void onDropDatabase(OperationContext* opCtx, StringData db) override;
    bool wantsUpdateDiffs() const override {
        return true;
    }
};

/** True when writes to `nss` are recorded in the oplog. */
bool isReplicatedNamespace(const NamespaceString& nss);

}  // namespace repl
}  // namespace mongo
