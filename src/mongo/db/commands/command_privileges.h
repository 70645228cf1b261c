// The privileges every command requires, one table for all command families (by
// primary name), and the check the dispatcher runs before a command under --auth.
// A command missing from the table is refused (a unit test walks the registry so
// that none is).
#pragma once

#include <utility>
#include <vector>

#include "mongo/db/auth/privilege.h"
#include "mongo/db/commands.h"

namespace mongo {

struct CommandAuthRule {
    enum class Kind {
        kNoAuth,         // runs without authentication (hello, saslStart, ping...)
        kAuthenticated,  // any authenticated user (getMore checks its cursor...)
        kNamespace,      // `actions` on the namespace of the first element
        kDatabase,       // `actions` on the request's database
        kCluster,        // `actions` on the cluster
        kComputed,       // derived from the body (aggregate, update, explain, rename...)
        kCommandChecks,  // the command checks itself (user and role management)
    };
    Kind kind;
    auth::ActionSet actions;
};

/** The rule of the command with primary name `name`, or null. */
const CommandAuthRule* findCommandAuthRule(StringData name);

using RequiredPrivileges = std::vector<std::pair<auth::ResourceTarget, auth::ActionSet>>;

/** What `req` needs (for the kinds the dispatcher checks). */
RequiredPrivileges requiredPrivileges(const CommandAuthRule& rule, const CommandRequest& req);

/**
 * Under --auth: throws Unauthorized 13 ("command X requires authentication", or "not
 * authorized on <db> to execute command { ... }") unless the connection may run `req`.
 * A no-op without --auth and for internal operations. Cost: a table lookup and, for an
 * authenticated session with cached privileges, a scan of its few privileges.
 */
void checkAuthForCommand(OperationContext* opCtx, const Command& cmd, const CommandRequest& req);

/** Throws the "not authorized on <db> to execute command" Unauthorized error. */
[[noreturn]] void uassertedNotAuthorized(const CommandRequest& req);

enum class LocalhostException { kNotAllowed, kAllowed };

/**
 * For commands that check themselves: throws Unauthorized unless access control is off,
 * the session holds `actions` on `target`, or the localhost exception is allowed here and
 * applies (no user or role exists yet, local connection).
 */
void uassertAuthorized(OperationContext* opCtx, const CommandRequest& req,
                       const auth::ResourceTarget& target, const auth::ActionSet& actions,
                       LocalhostException localhost = LocalhostException::kNotAllowed);

}  // namespace mongo
