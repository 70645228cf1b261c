// AuthorizationSession: one connection's authentication state: the users it is
// authenticated as (at most one per database), the privileges they resolve to (cached
// until AuthorizationManager::generation() moves, so a check is a few bit operations),
// the SASL conversation in progress, and the count of failed attempts.
//
// Thread safety: used by the connection's own thread, except userNames() and
// roleNames(), which currentOp may call from any thread (guarded by an internal mutex).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mongo/db/auth/authorization_manager.h"
#include "mongo/db/auth/scram.h"

namespace mongo {
class Client;
}

namespace mongo::auth {

class AuthorizationSession {
public:
    /** The session of `client` (created on first use); null for a null client. */
    static AuthorizationSession* get(Client* client);

    /** Authenticates as `user`, replacing any user of the same database. */
    void addUser(OperationContext* opCtx, const UserName& user);
    /** Logs out the user of `db` (no-op when none). */
    void logoutDatabase(StringData db);

    bool isAuthenticated() const {
        return !_users.empty();
    }
    std::vector<UserName> userNames() const;
    /** The authenticated users' roles with every inherited role. */
    std::vector<RoleName> roleNames() const;

    /**
     * True when the authenticated users hold `actions` on `target` (also when `actions`
     * is empty). Re-resolves privileges only when users or roles changed.
     */
    bool isAuthorized(OperationContext* opCtx, const ResourceTarget& target,
                      const ActionSet& actions);
    /** The resolved privileges (for connectionStatus showPrivileges). */
    const std::vector<Privilege>& privileges(OperationContext* opCtx);

    /** The SASL conversation in progress (one per connection, as upstream). */
    struct SaslConversation {
        int conversationId = 0;
        std::string db;
        std::string mechanism;
        bool skipEmptyExchange = false;  // done after server-final (options.skipEmptyExchange)
        std::unique_ptr<ScramServerConversation> scram;
    };
    std::unique_ptr<SaslConversation>& conversation() {
        return _conversation;
    }
    int nextConversationId() {
        return ++_lastConversationId;
    }

    /** Failed authentication attempts on this connection (for the back-off delay). */
    int failedAttempts() const {
        return _failedAttempts;
    }
    void recordFailure() {
        ++_failedAttempts;
    }

private:
    void _refresh(OperationContext* opCtx);

    std::vector<UserName> _users;
    std::vector<RoleName> _roles;
    std::vector<Privilege> _privileges;
    long long _generation = 0;  // of _privileges; 0: never resolved
    mutable std::mutex _mutex;  // guards _users and _roles against readers on other threads
    std::unique_ptr<SaslConversation> _conversation;
    int _lastConversationId = 0;
    int _failedAttempts = 0;
};

/** True for a connection from 127.0.0.0/8, ::1 or a Unix socket. */
bool isLocalhostConnection(const Client* client);

/**
 * The localhost exception: access control is on, the connection is local and no user
 * or role exists yet (so the first user may be created).
 */
bool localhostExceptionApplies(OperationContext* opCtx);

}  // namespace mongo::auth
