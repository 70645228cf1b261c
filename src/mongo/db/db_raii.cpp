#include "mongo/db/db_raii.h"

#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {

AutoGetCollection::AutoGetCollection(OperationContext* opCtx, const NamespaceString& nss,
                                     Mode mode) {
    CollectionCatalog* catalog = opCtx->getServiceContext()->catalog;
    for (int attempt = 0; attempt < 100; ++attempt) {
        _coll = mode == Mode::kWriteCreate ? catalog->getOrCreateCollection(opCtx, nss)
                                           : catalog->lookup(nss);
        if (!_coll)
            return;
        _lock = std::shared_lock<std::shared_mutex>(_coll->lock());
        if (!_coll->isDropped())
            return;
        _lock.unlock();
        _lock = {};
    }
    uasserted(ErrorCodes::ConflictingOperationInProgress,
              "collection " + nss.ns() + " kept changing while being opened");
}

}  // namespace mongo
