#include "mongo/db/catalog/op_observer.h"

#include <algorithm>

namespace mongo {

void OpObserverRegistry::addObserver(std::unique_ptr<OpObserver> observer) {
    _observers.push_back(std::move(observer));
}

std::unique_ptr<OpObserver> OpObserverRegistry::removeObserver(const OpObserver* observer) {
    auto it = std::find_if(_observers.begin(), _observers.end(),
                           [&](const auto& o) { return o.get() == observer; });
    if (it == _observers.end())
        return nullptr;
    auto removed = std::move(*it);
    _observers.erase(it);
    return removed;
}

void OpObserverRegistry::onInserts(OperationContext* opCtx, const Collection& coll,
                                   const std::vector<BSONObj>& docs) {
    for (auto& o : _observers)
        o->onInserts(opCtx, coll, docs);
}

void OpObserverRegistry::onUpdate(OperationContext* opCtx, const Collection& coll,
                                  const BSONObj& pre, const BSONObj& post, const BSONObj& diff) {
    for (auto& o : _observers)
        o->onUpdate(opCtx, coll, pre, post, diff);
}

void OpObserverRegistry::onDelete(OperationContext* opCtx, const Collection& coll,
                                  const BSONObj& doc) {
    for (auto& o : _observers)
        o->onDelete(opCtx, coll, doc);
}

void OpObserverRegistry::onCreateCollection(OperationContext* opCtx, const NamespaceString& nss,
                                            const BSONObj& options) {
    for (auto& o : _observers)
        o->onCreateCollection(opCtx, nss, options);
}

void OpObserverRegistry::onDropCollection(OperationContext* opCtx, const NamespaceString& nss,
                                          const std::string& uuid) {
    for (auto& o : _observers)
        o->onDropCollection(opCtx, nss, uuid);
}

void OpObserverRegistry::onRenameCollection(OperationContext* opCtx, const NamespaceString& from,
                                            const NamespaceString& to, const std::string& uuid,
                                            bool dropTarget) {
    for (auto& o : _observers)
        o->onRenameCollection(opCtx, from, to, uuid, dropTarget);
}

void OpObserverRegistry::onCreateIndex(OperationContext* opCtx, const NamespaceString& nss,
                                       const BSONObj& spec) {
    for (auto& o : _observers)
        o->onCreateIndex(opCtx, nss, spec);
}

void OpObserverRegistry::onDropIndex(OperationContext* opCtx, const NamespaceString& nss,
                                     StringData indexName) {
    for (auto& o : _observers)
        o->onDropIndex(opCtx, nss, indexName);
}

void OpObserverRegistry::onDropDatabase(OperationContext* opCtx, StringData db) {
    for (auto& o : _observers)
        o->onDropDatabase(opCtx, db);
}

bool OpObserverRegistry::wantsUpdateDiffs() const {
    return std::any_of(_observers.begin(), _observers.end(),
                       [](const auto& o) { return o->wantsUpdateDiffs(); });
}

OpObserverRegistry& getOpObserverRegistry() {
    static OpObserverRegistry registry;
    return registry;
}

OpObserver* getOpObserver() {
    return &getOpObserverRegistry();
}

}  // namespace mongo
