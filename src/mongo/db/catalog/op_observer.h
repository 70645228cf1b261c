// OpObserver: notified of every write inside the unit of work that performs it,
// so that the oplog (replica-set mode) is written in the same WiredTiger
// transaction as the data. The default observer does nothing; repl installs
// its own with setOpObserver() at start-up.
//
// Thread safety: the installed observer is called concurrently from many
// operations; it must be thread-safe. setOpObserver() is called once, before
// the listener starts.
#pragma once

#include <memory>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class Collection;
class OperationContext;

class OpObserver {
public:
    virtual ~OpObserver() = default;

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
    virtual void onDropCollection(OperationContext* opCtx, const NamespaceString& nss) {}
    virtual void onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                                    const NamespaceString& to, bool dropTarget) {}
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

/** The installed observer (never null). */
OpObserver* getOpObserver();
void setOpObserver(std::unique_ptr<OpObserver> observer);

}  // namespace mongo
