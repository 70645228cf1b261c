// OpObserver: notified of every write inside the unit of work that performs it. The
// catalog calls the process-wide OpObserverRegistry from the one place each write passes
// through (Collection::insertDocument/updateDocument/deleteDocument, CollectionCatalog's
// DDL), so no command can write around it. Observers: the oplog writer (repl, in
// replica-set mode) and the TimeseriesOpObserver (bucket catalog), added at start-up.
//
// Thread safety: observers are called concurrently from many operations and must be
// thread-safe. The registry's list is fixed before the listener starts (addObserver and
// removeObserver are not synchronised with the notifications).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class Collection;
class OperationContext;

class OpObserver {
public:
    virtual ~OpObserver() = default;

    /** `docs` were inserted into `coll` (each with its _id). */
    virtual void onInserts(OperationContext* opCtx, const Collection& coll,
                           const std::vector<BSONObj>& docs) {}
    /**
     * `diff` is the `{$v: 2, diff: ...}` update description when the update was a
     * modifier update; empty for replacements (then `post` is logged whole).
     */
    virtual void onUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre,
                          const BSONObj& post, const BSONObj& diff) {}
    virtual void onDelete(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) {}
    virtual void onCreateCollection(OperationContext* opCtx, const NamespaceString& nss,
                                    const BSONObj& options) {}
    /** `uuid`: of the collection being dropped. */
    virtual void onDropCollection(OperationContext* opCtx, const NamespaceString& nss,
                                  const std::string& uuid) {}
    /** `uuid`: of the collection renamed (unchanged by the rename). */
    virtual void onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                                    const NamespaceString& to, const std::string& uuid,
                                    bool dropTarget) {}
    virtual void onCreateIndex(OperationContext* opCtx, const NamespaceString& nss,
                               const BSONObj& spec) {}
    virtual void onDropIndex(OperationContext* opCtx, const NamespaceString& nss,
                             StringData indexName) {}
    virtual void onDropDatabase(OperationContext* opCtx, StringData db) {}
    /** True when writes must carry update diffs (replica-set mode). */
    virtual bool wantsUpdateDiffs() const {
        return false;
    }
};

/**
 * The observers of the process, notified in the order they were added; an exception from
 * one stops the notification and fails the write (its unit of work rolls back).
 */
class OpObserverRegistry final : public OpObserver {
public:
    /** Appends `observer`. REQUIRES: no write in flight (start-up, tests). */
    void addObserver(std::unique_ptr<OpObserver> observer);
    /** Removes `observer` and returns it (null when absent). REQUIRES: as addObserver. */
    std::unique_ptr<OpObserver> removeObserver(const OpObserver* observer);

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
    /** True when any observer wants them. */
    bool wantsUpdateDiffs() const override;

private:
    std::vector<std::unique_ptr<OpObserver>> _observers;
};

/** The process-wide registry (empty until start-up adds observers). */
OpObserverRegistry& getOpObserverRegistry();
/** The registry, as the one observer the catalog notifies (never null). */
OpObserver* getOpObserver();

}  // namespace mongo
