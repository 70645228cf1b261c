#include "mongo/db/commands/user_management_util.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {

using namespace auth;

std::string commandTargetName(const CommandRequest& req) {
    BSONElement e = req.body.firstElement();
    uassert(ErrorCodes::BadValue,
            "BSON field '" + std::string(req.commandName()) + "' must be a string",
            e.type() == BSONType::kString);
    return std::string(e.valueStringData());
}

std::vector<RoleName> parseRoleArgument(const BSONElement& e, const std::string& defaultDb) {
    uassert(ErrorCodes::BadValue, "roles field must be an array", e.type() == BSONType::kArray);
    std::vector<RoleName> out;
    for (auto r : e.embeddedObject()) {
        if (r.type() == BSONType::kString) {
            out.push_back({std::string(r.valueStringData()), defaultDb});
            continue;
        }
        uassert(ErrorCodes::BadValue, "Role names must be either strings or objects",
                r.type() == BSONType::kObject);
        BSONObj o = r.embeddedObject();
        uassert(ErrorCodes::BadValue, "Role name objects must have string 'role' and 'db' fields",
                o["role"].type() == BSONType::kString && o["db"].type() == BSONType::kString);
        out.push_back(
            {std::string(o["role"].valueStringData()), std::string(o["db"].valueStringData())});
    }
    return out;
}

std::vector<UserName> parseUserNames(const BSONElement& e, const std::string& defaultDb) {
    std::vector<UserName> out;
    auto one = [&](const BSONElement& u) {
        if (u.type() == BSONType::kString) {
            out.push_back({std::string(u.valueStringData()), defaultDb});
            return;
        }
        uassert(ErrorCodes::BadValue, "User name must be a string or a {user, db} document",
                u.type() == BSONType::kObject &&
                    u.embeddedObject()["user"].type() == BSONType::kString &&
                    u.embeddedObject()["db"].type() == BSONType::kString);
        out.push_back({std::string(u.embeddedObject()["user"].valueStringData()),
                       std::string(u.embeddedObject()["db"].valueStringData())});
    };
    if (e.type() == BSONType::kArray) {
        for (auto u : e.embeddedObject())
            one(u);
    } else {
        one(e);
    }
    return out;
}

BSONArray roleArray(const std::vector<RoleName>& roles) {
    BSONArrayBuilder arr;
    for (const auto& r : roles)
        arr.append(r.toBSON());
    return arr.arr();
}

void uassertCanGrantRoles(OperationContext* opCtx, const CommandRequest& req,
                          const std::vector<RoleName>& roles, LocalhostException localhost) {
    for (const auto& r : roles)
        uassertAuthorized(opCtx, req, ResourceTarget::database(r.db), {ActionType::k_grantRole},
                          localhost);
}

void uassertCanRevokeRoles(OperationContext* opCtx, const CommandRequest& req,
                           const std::vector<RoleName>& roles) {
    for (const auto& r : roles)
        uassertAuthorized(opCtx, req, ResourceTarget::database(r.db), {ActionType::k_revokeRole});
}

void uassertRolesExist(OperationContext* opCtx, const std::vector<RoleName>& roles) {
    for (const auto& r : roles)
        uassert(auth::kRoleNotFound, "Could not find role: " + r.display(),
                AuthorizationManager::get().roleExists(opCtx, r));
}

bool isSelf(OperationContext* opCtx, const UserName& user) {
    auto* session = AuthorizationSession::get(opCtx->getClient());
    if (!session)
        return false;
    for (const auto& u : session->userNames()) {
        if (u == user)
            return true;
    }
    return false;
}

void uassertUserFound(bool found, const UserName& user) {
    uassert(ErrorCodes::UserNotFound,
            "Could not find user \"" + user.user + "\" for db \"" + user.db + "\"", found);
}

BSONObj uassertUserDoc(OperationContext* opCtx, const UserName& user) {
    auto doc = AuthorizationManager::get().findDoc(opCtx, AuthCollection::kUsers, user.docId());
    uassertUserFound(doc.has_value(), user);
    return *doc;
}

BSONObj userInfoDoc(OperationContext* opCtx, const BSONObj& userDoc, bool showCredentials,
                    bool showPrivileges, bool showCustomData) {
    BSONObjBuilder b;
    for (StringData f : {"_id", "userId", "user", "db"}) {
        if (userDoc.hasField(f))
            b.append(userDoc[f]);
    }
    BSONObj credentials = userDoc["credentials"].type() == BSONType::kObject
                              ? userDoc["credentials"].embeddedObject()
                              : BSONObj();
    if (showCredentials)
        b.append("credentials", credentials);
    if (showCustomData && userDoc["customData"].type() == BSONType::kObject)
        b.append(userDoc["customData"]);
    BSONObj roles =
        userDoc["roles"].type() == BSONType::kArray ? userDoc["roles"].embeddedObject() : BSONObj();
    b.appendArray("roles", roles);
    if (showPrivileges) {
        auto direct = parseRoleNameArray(roles);
        auto resolved = AuthorizationManager::get().resolveRoles(
            opCtx, direct.isOK() ? direct.getValue() : std::vector<RoleName>{});
        b.append("inheritedRoles", roleArray(resolved.roles));
        BSONArrayBuilder privs(b.subarrayStart("inheritedPrivileges"));
        for (const auto& p : resolved.privileges)
            privs.append(p.toBSON());
        privs.done();
    }
    BSONArrayBuilder mechs(b.subarrayStart("mechanisms"));
    for (auto c : credentials) {
        if (c.fieldNameStringData() != "external")
            mechs.append(c.fieldNameStringData());
    }
    mechs.done();
    return b.obj();
}

}  // namespace mongo
