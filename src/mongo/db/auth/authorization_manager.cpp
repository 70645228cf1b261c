#include "mongo/db/auth/authorization_manager.h"

#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>

#include "mongo/db/auth/builtin_roles.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/util/assert_util.h"

namespace mongo::auth {
namespace {

const NamespaceString& nssFor(AuthCollection which) {
    static const NamespaceString users("admin", "system.users");
    static const NamespaceString roles("admin", "system.roles");
    return which == AuthCollection::kUsers ? users : roles;
}

std::shared_ptr<Collection> lookup(OperationContext* opCtx, AuthCollection which) {
    CollectionCatalog* catalog = opCtx->getServiceContext()->catalog;
    return catalog ? catalog->lookup(nssFor(which)) : nullptr;
}

/** Calls `f(record)` for each record until it returns false. */
template <typename F>
void scan(OperationContext* opCtx, Collection* coll, F&& f) {
    std::shared_lock<std::shared_mutex> lk(coll->lock());
    auto cursor = coll->recordStore()->getCursor(opCtx->recoveryUnit());
    while (auto rec = cursor->next()) {
        if (!f(*rec))
            break;
    }
}

}  // namespace

StatusWith<std::vector<RoleName>> parseRoleNameArray(const BSONObj& arr) {
    std::vector<RoleName> out;
    for (auto e : arr) {
        if (e.type() != BSONType::kObject)
            return Status(ErrorCodes::BadValue, "Role names must be objects {role, db}");
        BSONObj o = e.embeddedObject();
        if (o["role"].type() != BSONType::kString || o["db"].type() != BSONType::kString)
            return Status(ErrorCodes::BadValue, "Role names must have string 'role' and 'db'");
        out.push_back(
            {std::string(o["role"].valueStringData()), std::string(o["db"].valueStringData())});
    }
    return out;
}

AuthorizationManager& AuthorizationManager::get() {
    static AuthorizationManager instance;
    return instance;
}

std::optional<BSONObj> AuthorizationManager::findDoc(OperationContext* opCtx, AuthCollection which,
                                                     const std::string& id) {
    auto coll = lookup(opCtx, which);
    if (!coll)
        return std::nullopt;
    std::optional<BSONObj> found;
    scan(opCtx, coll.get(), [&](const Record& r) {
        BSONElement e = r.data["_id"];
        if (e.type() == BSONType::kString && e.valueStringData() == id) {
            found = r.data.getOwned();
            return false;
        }
        return true;
    });
    return found;
}

std::vector<BSONObj> AuthorizationManager::allDocs(OperationContext* opCtx, AuthCollection which) {
    std::vector<BSONObj> out;
    if (auto coll = lookup(opCtx, which))
        scan(opCtx, coll.get(), [&](const Record& r) {
            out.push_back(r.data.getOwned());
            return true;
        });
    return out;
}

bool AuthorizationManager::hasAnyUsersOrRoles(OperationContext* opCtx) {
    for (auto which : {AuthCollection::kUsers, AuthCollection::kRoles}) {
        auto coll = lookup(opCtx, which);
        if (coll && coll->numRecords(opCtx) > 0)
            return true;
    }
    return false;
}

void AuthorizationManager::insertDoc(OperationContext* opCtx, AuthCollection which,
                                     const BSONObj& doc) {
    auto coll = opCtx->getServiceContext()->catalog->getOrCreateCollection(opCtx, nssFor(which));
    RecoveryUnit* ru = opCtx->recoveryUnit();
    std::shared_lock<std::shared_mutex> lk(coll->lock());
    writeConflictRetry(ru, "insert", [&] {
        WriteUnitOfWork wuow(ru);
        coll->insertDocument(opCtx, doc);
        ru->onCommit([this] { bumpGeneration(); });
        wuow.commit();
    });
    ru->abandonSnapshot();
}

bool AuthorizationManager::replaceDoc(OperationContext* opCtx, AuthCollection which,
                                      const BSONObj& doc) {
    auto coll = lookup(opCtx, which);
    if (!coll)
        return false;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    bool found = false;
    writeConflictRetry(ru, "update", [&] {
        found = false;
        WriteUnitOfWork wuow(ru);
        std::optional<Record> old;
        scan(opCtx, coll.get(), [&](const Record& r) {
            if (r.data["_id"].valueStringData() == doc["_id"].valueStringData() &&
                r.data["_id"].type() == BSONType::kString) {
                old = Record{r.id, r.data.getOwned()};
                return false;
            }
            return true;
        });
        if (!old)
            return;
        found = true;
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        coll->updateDocument(opCtx, old->id, old->data, doc);
        ru->onCommit([this] { bumpGeneration(); });
        wuow.commit();
    });
    ru->abandonSnapshot();
    return found;
}

long long AuthorizationManager::removeDocs(OperationContext* opCtx, AuthCollection which,
                                           const std::function<bool(const BSONObj&)>& pred) {
    auto coll = lookup(opCtx, which);
    if (!coll)
        return 0;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    long long n = 0;
    writeConflictRetry(ru, "remove", [&] {
        n = 0;
        WriteUnitOfWork wuow(ru);
        std::vector<Record> victims;
        scan(opCtx, coll.get(), [&](const Record& r) {
            if (pred(r.data))
                victims.push_back(Record{r.id, r.data.getOwned()});
            return true;
        });
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        for (const auto& v : victims)
            coll->deleteDocument(opCtx, v.id, v.data);
        n = static_cast<long long>(victims.size());
        ru->onCommit([this] { bumpGeneration(); });
        wuow.commit();
    });
    ru->abandonSnapshot();
    return n;
}

bool AuthorizationManager::roleExists(OperationContext* opCtx, const RoleName& role) {
    return isBuiltinRole(role.role, role.db) ||
           findDoc(opCtx, AuthCollection::kRoles, role.docId()).has_value();
}

AuthorizationManager::ResolvedRoles AuthorizationManager::resolveRoles(
    OperationContext* opCtx, const std::vector<RoleName>& direct) {
    ResolvedRoles out;
    std::set<RoleName> seen;
    std::vector<RoleName> stack(direct.rbegin(), direct.rend());
    std::optional<std::map<std::string, BSONObj>> custom;  // loaded on first need
    while (!stack.empty()) {
        RoleName r = stack.back();
        stack.pop_back();
        if (!seen.insert(r).second)
            continue;
        if (addBuiltinRolePrivileges(r.role, r.db, &out.privileges)) {
            out.roles.push_back(r);
            continue;
        }
        if (!custom) {
            custom.emplace();
            for (auto& d : allDocs(opCtx, AuthCollection::kRoles))
                (*custom)[std::string(d["_id"].valueStringData())] = d;
        }
        auto it = custom->find(r.docId());
        if (it == custom->end())
            continue;
        out.roles.push_back(r);
        BSONObj doc = it->second;
        if (doc["privileges"].type() == BSONType::kArray) {
            for (auto p : doc["privileges"].embeddedObject()) {
                if (p.type() != BSONType::kObject)
                    continue;
                auto priv = Privilege::parse(p.embeddedObject());
                if (priv.isOK())
                    addPrivilege(&out.privileges, priv.getValue());
            }
        }
        if (doc["roles"].type() == BSONType::kArray) {
            auto subs = parseRoleNameArray(doc["roles"].embeddedObject());
            if (subs.isOK())
                for (auto& s : subs.getValue())
                    stack.push_back(s);
        }
    }
    return out;
}

}  // namespace mongo::auth
