// AuthorizationManager: the process-wide side of access control. It owns the
// `--auth` switch, reads and writes the user and role documents of admin.system.users
// and admin.system.roles (one document per user/role, _id "<db>.<name>"), and resolves
// a user's roles (transitively, built-in and user-defined) into privileges.
//
// Thread safety: all methods may be called from any thread. Every write to a user or
// role document bumps generation() on commit; sessions re-resolve their cached
// privileges when it moved.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/auth/privilege.h"

namespace mongo {
class OperationContext;
}

namespace mongo::auth {

// Upstream's RoleNotFound (31) and MechanismUnavailable (334). Their names are in
// idl/error_codes.idl; the numbers are spelled here so that this layer does not depend on
// the generated enum members (which would rebuild every file when they change).
constexpr ErrorCodes::Error kRoleNotFound = ErrorCodes::Error(31);
constexpr ErrorCodes::Error kMechanismUnavailable = ErrorCodes::Error(334);

struct UserName {
    std::string user;
    std::string db;
    /** The system.users _id: "<db>.<user>". */
    std::string docId() const {
        return db + "." + user;
    }
    /** "user@db" */
    std::string display() const {
        return user + "@" + db;
    }
    BSONObj toBSON() const {
        return BSON("user" << user << "db" << db);
    }
    bool operator==(const UserName& o) const {
        return user == o.user && db == o.db;
    }
};

struct RoleName {
    std::string role;
    std::string db;
    std::string docId() const {
        return db + "." + role;
    }
    std::string display() const {
        return role + "@" + db;
    }
    BSONObj toBSON() const {
        return BSON("role" << role << "db" << db);
    }
    bool operator==(const RoleName& o) const {
        return role == o.role && db == o.db;
    }
    bool operator<(const RoleName& o) const {
        return db != o.db ? db < o.db : role < o.role;
    }
};

/** [{role, db}, ...] -> RoleNames; BadValue for a malformed entry. */
StatusWith<std::vector<RoleName>> parseRoleNameArray(const BSONObj& arr);

enum class AuthCollection { kUsers, kRoles };

class AuthorizationManager {
public:
    static AuthorizationManager& get();

    /** --auth / security.authorization: enabled. Set once at start-up. */
    bool isAuthEnabled() const {
        return _authEnabled.load(std::memory_order_relaxed);
    }
    void setAuthEnabled(bool enabled) {
        _authEnabled.store(enabled);
    }

    /** Moves on every committed change of a user or role document. */
    long long generation() const {
        return _generation.load(std::memory_order_acquire);
    }
    void bumpGeneration() {
        _generation.fetch_add(1, std::memory_order_acq_rel);
    }

    /** The document with `_id` in the users or roles collection. */
    std::optional<BSONObj> findDoc(OperationContext* opCtx, AuthCollection which,
                                   const std::string& id);
    /** Every document of the users or roles collection (a scan: they are few). */
    std::vector<BSONObj> allDocs(OperationContext* opCtx, AuthCollection which);
    /** True when admin.system.users or admin.system.roles holds a document. O(1). */
    bool hasAnyUsersOrRoles(OperationContext* opCtx);

    /** Inserts `doc` (creating the collection); DuplicateKey 11000 when its _id exists. */
    void insertDoc(OperationContext* opCtx, AuthCollection which, const BSONObj& doc);
    /** Replaces the document with the same _id; false if there is none. */
    bool replaceDoc(OperationContext* opCtx, AuthCollection which, const BSONObj& doc);
    /** Removes the documents `pred` selects; returns how many. */
    long long removeDocs(OperationContext* opCtx, AuthCollection which,
                         const std::function<bool(const BSONObj&)>& pred);

    /** True for a built-in role or an existing user-defined one. */
    bool roleExists(OperationContext* opCtx, const RoleName& role);

    struct ResolvedRoles {
        std::vector<RoleName> roles;  // the given roles and every role they inherit
        std::vector<Privilege> privileges;
    };
    /** Roles that no longer exist are skipped (as upstream does for dropped roles). */
    ResolvedRoles resolveRoles(OperationContext* opCtx, const std::vector<RoleName>& direct);

private:
    std::atomic<bool> _authEnabled{false};
    std::atomic<long long> _generation{1};
};

}  // namespace mongo::auth
