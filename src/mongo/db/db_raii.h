// AutoGetCollection: looks a collection up and holds its lock for the duration
// of one command: shared for reads and CRUD writes, so that DDL (which takes the
// lock exclusively) never runs underneath them. A collection dropped or
// re-created while we waited for the lock is looked up again.
#pragma once

#include <memory>
#include <shared_mutex>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class OperationContext;

class AutoGetCollection {
public:
    enum class Mode { kRead, kWrite, kWriteCreate };
    /** With kWriteCreate the collection is created (default options) if missing. */
    AutoGetCollection(OperationContext* opCtx, const NamespaceString& nss, Mode mode);

    /** Null if the collection does not exist (never null for kWriteCreate). */
    const std::shared_ptr<Collection>& getCollection() const {
        return _coll;
    }
    Collection* operator->() const {
        return _coll.get();
    }
    explicit operator bool() const {
        return static_cast<bool>(_coll);
    }

private:
    std::shared_ptr<Collection> _coll;
    std::shared_lock<std::shared_mutex> _lock;
};

}  // namespace mongo
