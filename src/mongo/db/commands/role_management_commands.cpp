// Role management commands: createRole, updateRole, dropRole, dropAllRolesFromDatabase,
// rolesInfo, grantPrivilegesToRole, revokePrivilegesFromRole, grantRolesToRole,
// revokeRolesFromRole. User-defined roles live in admin.system.roles as
// {_id: "<db>.<role>", role, db, privileges, roles}; built-in roles cannot be changed.
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/builtin_roles.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/user_management_util.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using namespace auth;
using A = ActionType;

/** Privileges given in a command; a role outside admin may only target its own database. */
std::vector<Privilege> parsePrivileges(const BSONElement& e, const std::string& roleDb) {
    uassert(ErrorCodes::BadValue, "privileges field must be an array",
            e.type() == BSONType::kArray);
    std::vector<Privilege> out;
    for (auto p : e.embeddedObject()) {
        uassert(ErrorCodes::BadValue, "Each privilege must be an object",
                p.type() == BSONType::kObject);
        Privilege priv = uassertStatusOK(Privilege::parse(p.embeddedObject()));
        if (roleDb != "admin") {
            using K = ResourcePattern::Kind;
            BSONObj res = priv.resource.toBSON();
            bool own = (priv.resource.kind() == K::kDatabase ||
                        priv.resource.kind() == K::kExactNamespace ||
                        priv.resource.kind() == K::kSystemBucketsInDb ||
                        priv.resource.kind() == K::kExactSystemBuckets) &&
                       res["db"].valueStringData() == roleDb;
            uassert(ErrorCodes::BadValue,
                    "Roles on the '" + roleDb +
                        "' database cannot be granted privileges that target other databases "
                        "or the cluster",
                    own);
        }
        addPrivilege(&out, priv);
    }
    return out;
}

BSONArray privilegeArray(const std::vector<Privilege>& privs) {
    BSONArrayBuilder arr;
    for (const auto& p : privs)
        arr.append(p.toBSON());
    return arr.arr();
}

BSONObj roleDoc(const RoleName& role, const std::vector<Privilege>& privs,
                const std::vector<RoleName>& roles) {
    return BSON("_id" << role.docId() << "role" << role.role << "db" << role.db << "privileges"
                      << privilegeArray(privs) << "roles" << roleArray(roles));
}

struct StoredRole {
    RoleName name;
    std::vector<Privilege> privileges;
    std::vector<RoleName> roles;
};

StoredRole uassertStoredRole(OperationContext* opCtx, const RoleName& role) {
    uassert(ErrorCodes::BadValue, "Cannot modify built-in role: " + role.display(),
            !isBuiltinRole(role.role, role.db));
    auto doc = AuthorizationManager::get().findDoc(opCtx, AuthCollection::kRoles, role.docId());
    uassert(auth::kRoleNotFound, "Could not find role: " + role.display(), doc.has_value());
    StoredRole out{role, {}, {}};
    if ((*doc)["privileges"].type() == BSONType::kArray) {
        for (auto p : (*doc)["privileges"].embeddedObject()) {
            auto priv = Privilege::parse(p.embeddedObject());
            if (priv.isOK())
                addPrivilege(&out.privileges, priv.getValue());
        }
    }
    if ((*doc)["roles"].type() == BSONType::kArray)
        out.roles = uassertStatusOK(parseRoleNameArray((*doc)["roles"].embeddedObject()));
    return out;
}

/** BadValue if `subRoles` would make `role` inherit from itself. */
void uassertNoCycle(OperationContext* opCtx, const RoleName& role,
                    const std::vector<RoleName>& subRoles) {
    auto resolved = AuthorizationManager::get().resolveRoles(opCtx, subRoles);
    for (const auto& r : resolved.roles)
        uassert(
            ErrorCodes::BadValue,
            "Granting roles to " + role.display() + " would introduce a cycle in the role graph",
            !(r == role));
}

void save(OperationContext* opCtx, const StoredRole& r) {
    AuthorizationManager::get().replaceDoc(opCtx, AuthCollection::kRoles,
                                           roleDoc(r.name, r.privileges, r.roles));
}

class CreateRoleCmd : public Command {
public:
    CreateRoleCmd() : Command("createRole") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        RoleName role{commandTargetName(req), req.dbName};
        uassert(ErrorCodes::BadValue, "Role name must be non-empty", !role.role.empty());
        uassert(ErrorCodes::BadValue, "Cannot create roles with the same name as a built-in role",
                !isBuiltinRole(role.role, role.db));
        uassert(ErrorCodes::IDLFailedToParse,
                "BSON field 'createRole.privileges' is missing but a required field",
                req.body.hasField("privileges"));
        uassert(ErrorCodes::IDLFailedToParse,
                "BSON field 'createRole.roles' is missing but a required field",
                req.body.hasField("roles"));
        auto privs = parsePrivileges(req.body["privileges"], role.db);
        auto roles = parseRoleArgument(req.body["roles"], req.dbName);
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_createRole},
                          LocalhostException::kAllowed);
        uassertCanGrantRoles(opCtx, req, roles, LocalhostException::kAllowed);
        uassertRolesExist(opCtx, roles);
        try {
            AuthorizationManager::get().insertDoc(opCtx, AuthCollection::kRoles,
                                                  roleDoc(role, privs, roles));
        } catch (const DBException& ex) {
            uassert(ErrorCodes::Error(51002), "Role \"" + role.display() + "\" already exists",
                    ex.code() != ErrorCodes::DuplicateKey);
            throw;
        }
    }
};
MONGO_REGISTER_COMMAND(CreateRoleCmd)

class UpdateRoleCmd : public Command {
public:
    UpdateRoleCmd() : Command("updateRole") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        RoleName name{commandTargetName(req), req.dbName};
        uassert(ErrorCodes::BadValue, "Must specify at least one field to update in updateRole",
                req.body.hasField("privileges") || req.body.hasField("roles"));
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName),
                          {A::k_grantRole, A::k_revokeRole});
        StoredRole role = uassertStoredRole(opCtx, name);
        if (req.body.hasField("privileges"))
            role.privileges = parsePrivileges(req.body["privileges"], name.db);
        if (req.body.hasField("roles")) {
            role.roles = parseRoleArgument(req.body["roles"], req.dbName);
            uassertCanGrantRoles(opCtx, req, role.roles, LocalhostException::kNotAllowed);
            uassertRolesExist(opCtx, role.roles);
            uassertNoCycle(opCtx, name, role.roles);
        }
        save(opCtx, role);
    }
};
MONGO_REGISTER_COMMAND(UpdateRoleCmd)

/** Removes `gone` from every user's and role's `roles` (what dropping a role does). */
void removeRoleReferences(OperationContext* opCtx, const std::vector<RoleName>& gone) {
    auto& mgr = AuthorizationManager::get();
    for (auto which : {AuthCollection::kUsers, AuthCollection::kRoles}) {
        for (const auto& doc : mgr.allDocs(opCtx, which)) {
            if (doc["roles"].type() != BSONType::kArray)
                continue;
            auto roles = parseRoleNameArray(doc["roles"].embeddedObject());
            if (!roles.isOK())
                continue;
            auto kept = roles.getValue();
            std::erase_if(kept, [&](const RoleName& r) {
                return std::find(gone.begin(), gone.end(), r) != gone.end();
            });
            if (kept.size() == roles.getValue().size())
                continue;
            BSONObjBuilder b;
            for (auto e : doc) {
                if (e.fieldNameStringData() != "roles")
                    b.append(e);
            }
            b.append("roles", roleArray(kept));
            mgr.replaceDoc(opCtx, which, b.obj());
        }
    }
}

class DropRoleCmd : public Command {
public:
    DropRoleCmd() : Command("dropRole") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        RoleName name{commandTargetName(req), req.dbName};
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_dropRole});
        uassertStoredRole(opCtx, name);
        const std::string id = name.docId();
        AuthorizationManager::get().removeDocs(
            opCtx, AuthCollection::kRoles, [&](const BSONObj& d) {
                return d["_id"].type() == BSONType::kString && d["_id"].valueStringData() == id;
            });
        removeRoleReferences(opCtx, {name});
    }
};
MONGO_REGISTER_COMMAND(DropRoleCmd)

class DropAllRolesFromDatabaseCmd : public Command {
public:
    DropAllRolesFromDatabaseCmd() : Command("dropAllRolesFromDatabase") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_dropRole});
        std::vector<RoleName> gone;
        long long n = AuthorizationManager::get().removeDocs(
            opCtx, AuthCollection::kRoles, [&](const BSONObj& d) {
                if (d["db"].type() != BSONType::kString || d["db"].valueStringData() != req.dbName)
                    return false;
                gone.push_back({std::string(d["role"].valueStringData()), req.dbName});
                return true;
            });
        removeRoleReferences(opCtx, gone);
        result.append("n", n);
    }
};
MONGO_REGISTER_COMMAND(DropAllRolesFromDatabaseCmd)

class PrivilegesToRoleCmd : public Command {
public:
    PrivilegesToRoleCmd(StringData name, bool grant) : Command(name), _grant(grant) {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        RoleName name{commandTargetName(req), req.dbName};
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName),
                          {_grant ? A::k_grantRole : A::k_revokeRole});
        auto privs = parsePrivileges(req.body["privileges"], name.db);
        StoredRole role = uassertStoredRole(opCtx, name);
        for (const auto& p : privs) {
            if (_grant)
                addPrivilege(&role.privileges, p);
            else
                removePrivilege(&role.privileges, p);
        }
        save(opCtx, role);
    }

private:
    bool _grant;
};
class GrantPrivilegesToRoleCmd : public PrivilegesToRoleCmd {
public:
    GrantPrivilegesToRoleCmd() : PrivilegesToRoleCmd("grantPrivilegesToRole", true) {}
};
class RevokePrivilegesFromRoleCmd : public PrivilegesToRoleCmd {
public:
    RevokePrivilegesFromRoleCmd() : PrivilegesToRoleCmd("revokePrivilegesFromRole", false) {}
};
MONGO_REGISTER_COMMAND(GrantPrivilegesToRoleCmd)
MONGO_REGISTER_COMMAND(RevokePrivilegesFromRoleCmd)

class RolesToRoleCmd : public Command {
public:
    RolesToRoleCmd(StringData name, bool grant) : Command(name), _grant(grant) {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        RoleName name{commandTargetName(req), req.dbName};
        auto roles = parseRoleArgument(req.body["roles"], req.dbName);
        StoredRole role = uassertStoredRole(opCtx, name);
        if (_grant) {
            uassertCanGrantRoles(opCtx, req, roles, LocalhostException::kNotAllowed);
            uassertRolesExist(opCtx, roles);
            uassertNoCycle(opCtx, name, roles);
        } else {
            uassertCanRevokeRoles(opCtx, req, roles);
        }
        for (const auto& r : roles) {
            auto it = std::find(role.roles.begin(), role.roles.end(), r);
            if (_grant && it == role.roles.end())
                role.roles.push_back(r);
            else if (!_grant && it != role.roles.end())
                role.roles.erase(it);
        }
        save(opCtx, role);
    }

private:
    bool _grant;
};
class GrantRolesToRoleCmd : public RolesToRoleCmd {
public:
    GrantRolesToRoleCmd() : RolesToRoleCmd("grantRolesToRole", true) {}
};
class RevokeRolesFromRoleCmd : public RolesToRoleCmd {
public:
    RevokeRolesFromRoleCmd() : RolesToRoleCmd("revokeRolesFromRole", false) {}
};
MONGO_REGISTER_COMMAND(GrantRolesToRoleCmd)
MONGO_REGISTER_COMMAND(RevokeRolesFromRoleCmd)

class RolesInfoCmd : public Command {
public:
    RolesInfoCmd() : Command("rolesInfo") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement arg = req.body.firstElement();
        const bool showPrivileges = req.body["showPrivileges"].trueValue();
        const bool showBuiltin = req.body["showBuiltinRoles"].trueValue();
        std::vector<RoleName> wanted;
        if (arg.isNumber() && arg.numberInt() == 1) {
            uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_viewRole});
            if (showBuiltin)
                for (const auto& n : builtinRoleNames(req.dbName))
                    wanted.push_back({n, req.dbName});
            for (const auto& d : AuthorizationManager::get().allDocs(opCtx, AuthCollection::kRoles))
                if (d["db"].valueStringData() == req.dbName)
                    wanted.push_back({std::string(d["role"].valueStringData()), req.dbName});
        } else {
            BSONObjBuilder wrapped;
            if (arg.type() == BSONType::kArray)
                wrapped.append("roles", arg.embeddedObject());
            else
                wrapped.appendArray("roles", BSON("0" << arg));
            wanted = parseRoleArgument(wrapped.obj()["roles"], req.dbName);
            for (const auto& r : wanted)
                uassertAuthorized(opCtx, req, ResourceTarget::database(r.db), {A::k_viewRole});
        }
        BSONArrayBuilder out(result.subarrayStart("roles"));
        for (const auto& r : wanted) {
            if (!AuthorizationManager::get().roleExists(opCtx, r))
                continue;  // unknown roles are left out, as upstream
            out.append(describe(opCtx, r, showPrivileges));
        }
        out.done();
    }

private:
    static BSONObj describe(OperationContext* opCtx, const RoleName& r, bool showPrivileges) {
        BSONObjBuilder b;
        const bool builtin = isBuiltinRole(r.role, r.db);
        std::vector<RoleName> direct;
        std::vector<Privilege> own;
        if (builtin) {
            addBuiltinRolePrivileges(r.role, r.db, &own);
        } else {
            StoredRole stored = uassertStoredRole(opCtx, r);
            direct = stored.roles;
            own = stored.privileges;
        }
        b.append("_id", r.docId());
        b.append("role", r.role);
        b.append("db", r.db);
        b.append("isBuiltin", builtin);
        b.append("roles", roleArray(direct));
        auto inherited = AuthorizationManager::get().resolveRoles(opCtx, direct);
        b.append("inheritedRoles", roleArray(inherited.roles));
        if (showPrivileges) {
            b.append("privileges", privilegeArray(own));
            for (const auto& p : own)
                addPrivilege(&inherited.privileges, p);
            b.append("inheritedPrivileges", privilegeArray(inherited.privileges));
        }
        return b.obj();
    }
};
MONGO_REGISTER_COMMAND(RolesInfoCmd)

}  // namespace
}  // namespace mongo
