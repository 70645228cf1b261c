// User management commands: createUser, updateUser, dropUser, dropAllUsersFromDatabase,
// usersInfo, grantRolesToUser, revokeRolesFromUser. Users live in admin.system.users
// (db/auth/authorization_manager.h); each command checks its own privileges (userAdmin
// actions on the user's database, grantRole on the databases of roles it hands out).
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/auth/sasl_prep.h"
#include "mongo/db/auth/scram.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/command_privileges.h"
#include "mongo/db/commands/user_management_util.h"
#include "mongo/db/operation_context.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/transport/client.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using namespace auth;
using A = ActionType;

constexpr StringData kExternalDb = "$external";

/** The {credentials: ...} of `password` for `mechanisms`. */
BSONObj makeCredentials(const UserName& user, StringData password,
                        const std::vector<std::string>& mechanisms) {
    BSONObjBuilder b;
    for (const auto& m : mechanisms) {
        if (m == kScramSha1) {
            b.append(kScramSha1, generateScramCredentials(HashAlgorithm::kSha1,
                                                          mongoPasswordDigest(user.user, password),
                                                          gScramIterationCount.load())
                                     .toBSON());
        } else {
            std::string prepared = uassertStatusOK(saslPrep(password));
            b.append(kScramSha256, generateScramCredentials(HashAlgorithm::kSha256, prepared,
                                                            gScramSHA256IterationCount.load())
                                       .toBSON());
        }
    }
    return b.obj();
}

std::vector<std::string> parseMechanisms(const BSONObj& cmd, bool digestPassword) {
    std::vector<std::string> out;
    BSONElement e = cmd["mechanisms"];
    if (e.eoo()) {
        out = {std::string(kScramSha1), std::string(kScramSha256)};
        if (!digestPassword)
            out.pop_back();
        return out;
    }
    uassert(ErrorCodes::TypeMismatch, "mechanisms field must be an array",
            e.type() == BSONType::kArray);
    for (auto m : e.embeddedObject()) {
        uassert(ErrorCodes::BadValue, "mechanisms field must be an array of strings",
                m.type() == BSONType::kString);
        std::string name(m.valueStringData());
        uassert(ErrorCodes::BadValue, "Unknown auth mechanism '" + name + "'",
                scramAlgorithm(name).has_value());
        uassert(ErrorCodes::BadValue, "Use of SCRAM-SHA-256 requires undigested passwords",
                !(name == kScramSha256 && !digestPassword));
        if (std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(name);
    }
    uassert(ErrorCodes::BadValue, "mechanisms field must not be empty", !out.empty());
    return out;
}

std::string passwordOf(const BSONObj& cmd) {
    BSONElement pwd = cmd["pwd"];
    uassert(ErrorCodes::TypeMismatch, "pwd must be a string", pwd.type() == BSONType::kString);
    uassert(ErrorCodes::BadValue, "Password cannot be empty", !pwd.valueStringData().empty());
    return std::string(pwd.valueStringData());
}

BSONObj randomUUIDBinData() {
    std::string bytes = secureRandomBytes(16);
    bytes[6] = static_cast<char>((bytes[6] & 0x0F) | 0x40);
    bytes[8] = static_cast<char>((bytes[8] & 0x3F) | 0x80);
    BSONObjBuilder b;
    b.appendBinData("userId", 16, newUUID, bytes.data());
    return b.obj();
}

class CreateUserCmd : public Command {
public:
    CreateUserCmd() : Command("createUser") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        const BSONObj& cmd = req.body;
        UserName user{commandTargetName(req), req.dbName};
        uassert(ErrorCodes::BadValue, "User document needs 'user' field to be non-empty",
                !user.user.empty());
        uassert(ErrorCodes::BadValue, "Username cannot contain NULL characters",
                user.user.find('\0') == std::string::npos);
        uassert(ErrorCodes::IDLFailedToParse,
                "BSON field 'createUser.roles' is missing but a required field",
                cmd.hasField("roles"));
        auto roles = parseRoleArgument(cmd["roles"], req.dbName);
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_createUser},
                          LocalhostException::kAllowed);
        uassertCanGrantRoles(opCtx, req, roles, LocalhostException::kAllowed);
        uassertRolesExist(opCtx, roles);

        BSONObjBuilder doc;
        doc.append("_id", user.docId());
        doc.appendElements(randomUUIDBinData());
        doc.append("user", user.user);
        doc.append("db", user.db);
        if (user.db != kExternalDb) {
            uassert(ErrorCodes::BadValue,
                    "Must provide a 'pwd' field for all user documents, except those with "
                    "'$external' as the user's source db",
                    cmd.hasField("pwd"));
            const bool digest =
                !cmd.hasField("digestPassword") || cmd["digestPassword"].trueValue();
            doc.append("credentials",
                       makeCredentials(user, passwordOf(cmd), parseMechanisms(cmd, digest)));
        } else {
            uassert(ErrorCodes::BadValue,
                    "Cannot set the password for users defined on '$external'",
                    !cmd.hasField("pwd"));
            doc.append("credentials", BSON("external" << true));
        }
        if (cmd["customData"].type() == BSONType::kObject)
            doc.append("customData", cmd["customData"].embeddedObject());
        else
            uassert(ErrorCodes::TypeMismatch, "customData must be an object",
                    cmd["customData"].eoo());
        doc.append("roles", roleArray(roles));
        try {
            AuthorizationManager::get().insertDoc(opCtx, AuthCollection::kUsers, doc.obj());
        } catch (const DBException& ex) {
            uassert(ErrorCodes::Error(51003), "User \"" + user.display() + "\" already exists",
                    ex.code() != ErrorCodes::DuplicateKey);
            throw;
        }
    }
};
MONGO_REGISTER_COMMAND(CreateUserCmd)

class UpdateUserCmd : public Command {
public:
    UpdateUserCmd() : Command("updateUser") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        const BSONObj& cmd = req.body;
        UserName user{commandTargetName(req), req.dbName};
        const bool self = isSelf(opCtx, user);
        if (cmd.hasField("pwd") || cmd.hasField("mechanisms"))
            uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName),
                              {self ? A::k_changeOwnPassword : A::k_changePassword});
        if (cmd.hasField("customData"))
            uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName),
                              {self ? A::k_changeOwnCustomData : A::k_changeCustomData});
        std::optional<std::vector<RoleName>> roles;
        if (cmd.hasField("roles")) {
            roles = parseRoleArgument(cmd["roles"], req.dbName);
            uassertCanGrantRoles(opCtx, req, *roles, LocalhostException::kNotAllowed);
            BSONObj old = uassertUserDoc(opCtx, user);
            auto oldRoles = uassertStatusOK(parseRoleNameArray(old["roles"].embeddedObject()));
            uassertCanRevokeRoles(opCtx, req, oldRoles);
            uassertRolesExist(opCtx, *roles);
        }
        uassert(ErrorCodes::BadValue, "Must specify at least one field to update in updateUser",
                cmd.hasField("pwd") || cmd.hasField("customData") || roles ||
                    cmd.hasField("mechanisms"));
        BSONObj old = uassertUserDoc(opCtx, user);
        BSONObjBuilder doc;
        for (auto e : old) {
            StringData f = e.fieldNameStringData();
            if ((f == "credentials" && (cmd.hasField("pwd") || cmd.hasField("mechanisms"))) ||
                (f == "customData" && cmd.hasField("customData")) || (f == "roles" && roles))
                continue;
            doc.append(e);
        }
        if (cmd.hasField("pwd")) {
            const bool digest =
                !cmd.hasField("digestPassword") || cmd["digestPassword"].trueValue();
            doc.append("credentials",
                       makeCredentials(user, passwordOf(cmd), parseMechanisms(cmd, digest)));
        } else if (cmd.hasField("mechanisms")) {
            // Without a new password, mechanisms can only narrow the stored credentials.
            auto mechs = parseMechanisms(cmd, true);
            BSONObjBuilder creds(doc.subobjStart("credentials"));
            for (const auto& m : mechs) {
                BSONElement c = old["credentials"].embeddedObject()[m];
                uassert(ErrorCodes::BadValue,
                        "mechanisms field must be a subset of previously set mechanisms",
                        c.type() == BSONType::kObject);
                creds.append(c);
            }
            creds.done();
        }
        if (cmd.hasField("customData")) {
            uassert(ErrorCodes::TypeMismatch, "customData must be an object",
                    cmd["customData"].type() == BSONType::kObject);
            doc.append("customData", cmd["customData"].embeddedObject());
        }
        if (roles)
            doc.append("roles", roleArray(*roles));
        uassertUserFound(
            AuthorizationManager::get().replaceDoc(opCtx, AuthCollection::kUsers, doc.obj()), user);
    }
};
MONGO_REGISTER_COMMAND(UpdateUserCmd)

class DropUserCmd : public Command {
public:
    DropUserCmd() : Command("dropUser") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        UserName user{commandTargetName(req), req.dbName};
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_dropUser});
        const std::string id = user.docId();
        long long n = AuthorizationManager::get().removeDocs(
            opCtx, AuthCollection::kUsers, [&](const BSONObj& d) {
                return d["_id"].type() == BSONType::kString && d["_id"].valueStringData() == id;
            });
        uassertUserFound(n > 0, user);
    }
};
MONGO_REGISTER_COMMAND(DropUserCmd)

class DropAllUsersFromDatabaseCmd : public Command {
public:
    DropAllUsersFromDatabaseCmd() : Command("dropAllUsersFromDatabase") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_dropUser});
        long long n = AuthorizationManager::get().removeDocs(
            opCtx, AuthCollection::kUsers, [&](const BSONObj& d) {
                return d["db"].type() == BSONType::kString &&
                       d["db"].valueStringData() == req.dbName;
            });
        result.append("n", n);
    }
};
MONGO_REGISTER_COMMAND(DropAllUsersFromDatabaseCmd)

class RolesToUserCmd : public Command {
public:
    RolesToUserCmd(StringData name, bool grant) : Command(name), _grant(grant) {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        UserName user{commandTargetName(req), req.dbName};
        uassert(ErrorCodes::IDLFailedToParse,
                "BSON field '" + getName() + ".roles' is missing but a required field",
                req.body.hasField("roles"));
        auto roles = parseRoleArgument(req.body["roles"], req.dbName);
        if (_grant) {
            uassertCanGrantRoles(opCtx, req, roles, LocalhostException::kNotAllowed);
            uassertRolesExist(opCtx, roles);
        } else {
            uassertCanRevokeRoles(opCtx, req, roles);
        }
        BSONObj old = uassertUserDoc(opCtx, user);
        auto current = uassertStatusOK(parseRoleNameArray(old["roles"].embeddedObject()));
        for (const auto& r : roles) {
            auto it = std::find(current.begin(), current.end(), r);
            if (_grant && it == current.end())
                current.push_back(r);
            else if (!_grant && it != current.end())
                current.erase(it);
        }
        BSONObjBuilder doc;
        for (auto e : old) {
            if (e.fieldNameStringData() != "roles")
                doc.append(e);
        }
        doc.append("roles", roleArray(current));
        uassertUserFound(
            AuthorizationManager::get().replaceDoc(opCtx, AuthCollection::kUsers, doc.obj()), user);
    }

private:
    bool _grant;
};
class GrantRolesToUserCmd : public RolesToUserCmd {
public:
    GrantRolesToUserCmd() : RolesToUserCmd("grantRolesToUser", true) {}
};
class RevokeRolesFromUserCmd : public RolesToUserCmd {
public:
    RevokeRolesFromUserCmd() : RolesToUserCmd("revokeRolesFromUser", false) {}
};
MONGO_REGISTER_COMMAND(GrantRolesToUserCmd)
MONGO_REGISTER_COMMAND(RevokeRolesFromUserCmd)

class UsersInfoCmd : public Command {
public:
    UsersInfoCmd() : Command("usersInfo") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        const BSONObj& cmd = req.body;
        BSONElement arg = cmd.firstElement();
        const bool forAllDBs =
            arg.type() == BSONType::kObject && arg.embeddedObject()["forAllDBs"].trueValue();
        std::vector<UserName> wanted;  // empty with `all`: every user of the db
        bool all = false;
        if (forAllDBs) {
            uassertAuthorized(opCtx, req, ResourceTarget::cluster(), {A::k_viewUser});
        } else if (arg.isNumber() && arg.numberInt() == 1) {
            all = true;
            uassertAuthorized(opCtx, req, ResourceTarget::database(req.dbName), {A::k_viewUser});
        } else {
            wanted = parseUserNames(arg, req.dbName);
            for (const auto& u : wanted) {
                if (!isSelf(opCtx, u))
                    uassertAuthorized(opCtx, req, ResourceTarget::database(u.db), {A::k_viewUser});
            }
        }
        const bool showCredentials = cmd["showCredentials"].trueValue();
        const bool showPrivileges = cmd["showPrivileges"].trueValue();
        const bool showCustomData =
            !cmd.hasField("showCustomData") || cmd["showCustomData"].trueValue();
        if (showCredentials)  // reading credentials needs find on admin.system.users
            uassertAuthorized(opCtx, req, ResourceTarget::ns("admin", "system.users"), {A::k_find});
        auto& mgr = AuthorizationManager::get();
        BSONArrayBuilder users(result.subarrayStart("users"));
        for (const auto& doc : mgr.allDocs(opCtx, AuthCollection::kUsers)) {
            UserName name{std::string(doc["user"].valueStringData()),
                          std::string(doc["db"].valueStringData())};
            bool match = forAllDBs || (all && name.db == req.dbName) ||
                         std::find(wanted.begin(), wanted.end(), name) != wanted.end();
            if (!match)
                continue;
            users.append(userInfoDoc(opCtx, doc, showCredentials, showPrivileges, showCustomData));
        }
        users.done();
    }
};
MONGO_REGISTER_COMMAND(UsersInfoCmd)

}  // namespace
}  // namespace mongo
