// The built-in roles and their privileges, per the manual's "Built-In Roles" page.
// Database roles (read, readWrite, dbAdmin, dbOwner, userAdmin) exist in every database;
// the others only in admin.
#pragma once

#include <string>
#include <vector>

#include "mongo/db/auth/privilege.h"

namespace mongo::auth {

/** True when `role` is a built-in role of database `db`. */
bool isBuiltinRole(StringData role, StringData db);

/**
 * Adds the privileges of the built-in role `role`@`db` to `out`; false (and nothing
 * added) when there is no such built-in role.
 */
bool addBuiltinRolePrivileges(StringData role, StringData db, std::vector<Privilege>* out);

/** The names of the built-in roles of `db` (for rolesInfo with showBuiltinRoles). */
std::vector<std::string> builtinRoleNames(StringData db);

}  // namespace mongo::auth
