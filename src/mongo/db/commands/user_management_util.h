// Helpers shared by the user and role management commands: argument parsing (role and
// user names given as strings or documents), privilege checks for granting roles, and
// the usersInfo/rolesInfo document shapes.
#pragma once

#include <string>
#include <vector>

#include "mongo/db/auth/authorization_manager.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/command_privileges.h"

namespace mongo {

/** The command's first element as a user or role name (BadValue unless a string). */
std::string commandTargetName(const CommandRequest& req);
/** roles: ["read", {role: "x", db: "y"}]; a bare string names a role of `defaultDb`. */
std::vector<auth::RoleName> parseRoleArgument(const BSONElement& e, const std::string& defaultDb);
/** usersInfo's argument: "name", {user, db}, or an array of them. */
std::vector<auth::UserName> parseUserNames(const BSONElement& e, const std::string& defaultDb);
BSONArray roleArray(const std::vector<auth::RoleName>& roles);

/** Unauthorized unless the session may grant (grantRole on each role's db). */
void uassertCanGrantRoles(OperationContext* opCtx, const CommandRequest& req,
                          const std::vector<auth::RoleName>& roles, LocalhostException localhost);
void uassertCanRevokeRoles(OperationContext* opCtx, const CommandRequest& req,
                           const std::vector<auth::RoleName>& roles);
/** RoleNotFound 31 "Could not find role: r@db" for the first missing role. */
void uassertRolesExist(OperationContext* opCtx, const std::vector<auth::RoleName>& roles);

/** True when the connection is authenticated as `user`. */
bool isSelf(OperationContext* opCtx, const auth::UserName& user);
/** The user's document, or UserNotFound 11. */
BSONObj uassertUserDoc(OperationContext* opCtx, const auth::UserName& user);
void uassertUserFound(bool found, const auth::UserName& user);

/** One usersInfo entry: never credentials unless `showCredentials`. */
BSONObj userInfoDoc(OperationContext* opCtx, const BSONObj& userDoc, bool showCredentials,
                    bool showPrivileges, bool showCustomData);

}  // namespace mongo
