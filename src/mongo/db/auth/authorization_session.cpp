#include "mongo/db/auth/authorization_session.h"

#include "mongo/db/operation_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/transport/client.h"

namespace mongo::auth {

AuthorizationSession* AuthorizationSession::get(Client* client) {
    if (!client)
        return nullptr;
    if (!client->authState)
        client->authState = std::make_shared<AuthorizationSession>();
    return static_cast<AuthorizationSession*>(client->authState.get());
}

void AuthorizationSession::addUser(OperationContext* opCtx, const UserName& user) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        std::erase_if(_users, [&](const UserName& u) { return u.db == user.db; });
        _users.push_back(user);
    }
    _generation = 0;
    _refresh(opCtx);
}

void AuthorizationSession::logoutDatabase(StringData db) {
    std::lock_guard<std::mutex> lk(_mutex);
    std::erase_if(_users, [&](const UserName& u) { return u.db == db; });
    _generation = 0;
    if (_users.empty()) {
        _roles.clear();
        _privileges.clear();
    }
}

std::vector<UserName> AuthorizationSession::userNames() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _users;
}

std::vector<RoleName> AuthorizationSession::roleNames() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _roles;
}

void AuthorizationSession::_refresh(OperationContext* opCtx) {
    auto& mgr = AuthorizationManager::get();
    const long long gen = mgr.generation();
    if (_generation == gen)
        return;
    std::vector<RoleName> direct;
    std::vector<UserName> users = userNames();
    std::vector<UserName> gone;
    for (const auto& u : users) {
        auto doc = mgr.findDoc(opCtx, AuthCollection::kUsers, u.docId());
        if (!doc) {
            gone.push_back(u);  // dropped while logged in: loses its privileges
            continue;
        }
        if ((*doc)["roles"].type() == BSONType::kArray) {
            auto roles = parseRoleNameArray((*doc)["roles"].embeddedObject());
            if (roles.isOK())
                direct.insert(direct.end(), roles.getValue().begin(), roles.getValue().end());
        }
    }
    auto resolved = mgr.resolveRoles(opCtx, direct);
    if (opCtx->recoveryUnit() && !opCtx->recoveryUnit()->inUnitOfWork())
        opCtx->recoveryUnit()->abandonSnapshot();
    std::lock_guard<std::mutex> lk(_mutex);
    for (const auto& g : gone)
        std::erase(_users, g);
    _roles = std::move(resolved.roles);
    _privileges = std::move(resolved.privileges);
    _generation = gen;
}

bool AuthorizationSession::isAuthorized(OperationContext* opCtx, const ResourceTarget& target,
                                        const ActionSet& actions) {
    if (_users.empty())
        return actions.empty();
    _refresh(opCtx);
    return auth::isAuthorized(_privileges, target, actions);
}

const std::vector<Privilege>& AuthorizationSession::privileges(OperationContext* opCtx) {
    if (!_users.empty())
        _refresh(opCtx);
    return _privileges;
}

bool isLocalhostConnection(const Client* client) {
    if (!client)
        return true;
    const std::string& r = client->remote();
    return r.rfind("127.", 0) == 0 || r.rfind("[::1]", 0) == 0 || r.rfind("::1", 0) == 0 ||
           r.rfind("anonymous unix socket", 0) == 0 || (!r.empty() && r[0] == '/');
}

bool localhostExceptionApplies(OperationContext* opCtx) {
    auto& mgr = AuthorizationManager::get();
    return mgr.isAuthEnabled() && isLocalhostConnection(opCtx->getClient()) &&
           !mgr.hasAnyUsersOrRoles(opCtx);
}

}  // namespace mongo::auth
