#include "mongo/db/commands/command_privileges.h"

#include <map>

#include "mongo/db/auth/authorization_manager.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

using auth::ActionSet;
using auth::ResourceTarget;
using A = auth::ActionType;
using K = CommandAuthRule::Kind;

const std::map<std::string, CommandAuthRule, std::less<>>& table() {
    static const std::map<std::string, CommandAuthRule, std::less<>> t = {
        // Handshake, authentication, diagnostics every client runs before logging in.
        {"hello", {K::kNoAuth, {}}},
        {"ping", {K::kNoAuth, {}}},
        {"buildInfo", {K::kNoAuth, {}}},
        {"saslStart", {K::kNoAuth, {}}},
        {"authenticate", {K::kNoAuth, {}}},
        {"saslContinue", {K::kNoAuth, {}}},
        {"logout", {K::kNoAuth, {}}},
        {"connectionStatus", {K::kNoAuth, {}}},
        {"listCommands", {K::kNoAuth, {}}},
        {"whatsmyuri", {K::kNoAuth, {}}},
        {"endSessions", {K::kNoAuth, {}}},
        // Sessions and cursors: the user's own.
        {"startSession", {K::kAuthenticated, {}}},
        {"refreshSessions", {K::kAuthenticated, {}}},
        {"getMore", {K::kAuthenticated, {}}},
        {"listDatabases", {K::kAuthenticated, {}}},
        {"configureFailPoint", {K::kAuthenticated, {}}},
        {"testDeprecation", {K::kAuthenticated, {}}},  // test command: does nothing
        // CRUD and queries.
        {"find", {K::kNamespace, {A::k_find}}},
        {"count", {K::kNamespace, {A::k_find}}},
        {"distinct", {K::kNamespace, {A::k_find}}},
        {"insert", {K::kComputed, {A::k_insert}}},
        {"update", {K::kComputed, {A::k_update}}},
        {"delete", {K::kComputed, {A::k_remove}}},
        {"findAndModify", {K::kComputed, {}}},
        {"aggregate", {K::kComputed, {}}},
        {"explain", {K::kComputed, {}}},
        {"killCursors", {K::kNamespace, {A::k_killCursors}}},
        // DDL and collection metadata.
        {"create", {K::kComputed, {A::k_createCollection}}},
        {"drop", {K::kNamespace, {A::k_dropCollection}}},
        {"createIndexes", {K::kNamespace, {A::k_createIndex}}},
        {"dropIndexes", {K::kNamespace, {A::k_dropIndex}}},
        {"reIndex", {K::kNamespace, {A::k_reIndex}}},
        {"listIndexes", {K::kNamespace, {A::k_listIndexes}}},
        {"collMod", {K::kNamespace, {A::k_collMod}}},
        {"collStats", {K::kNamespace, {A::k_collStats}}},
        {"validate", {K::kNamespace, {A::k_validate}}},
        {"compact", {K::kNamespace, {A::k_compact}}},
        {"renameCollection", {K::kComputed, {}}},
        {"listCollections", {K::kDatabase, {A::k_listCollections}}},
        {"dropDatabase", {K::kDatabase, {A::k_dropDatabase}}},
        {"dbStats", {K::kDatabase, {A::k_dbStats}}},
        {"dbHash", {K::kDatabase, {A::k_dbHash}}},
        // Server administration.
        {"serverStatus", {K::kCluster, {A::k_serverStatus}}},
        {"currentOp", {K::kComputed, {A::k_inprog}}},
        {"killOp", {K::kCluster, {A::k_killop}}},
        // Sessions are not tracked by owner here, so killing any needs killAnySession.
        {"killSessions", {K::kCluster, {A::k_killAnySession}}},
        {"killAllSessions", {K::kCluster, {A::k_killAnySession}}},
        {"getParameter", {K::kCluster, {A::k_getParameter}}},
        {"setParameter", {K::kCluster, {A::k_setParameter}}},
        {"getCmdLineOpts", {K::kCluster, {A::k_getCmdLineOpts}}},
        {"hostInfo", {K::kCluster, {A::k_hostInfo}}},
        {"getLog", {K::kCluster, {A::k_getLog}}},
        {"shutdown", {K::kCluster, {A::k_shutdown}}},
        {"fsync", {K::kCluster, {A::k_fsync}}},
        {"applyOps", {K::kCluster, {A::k_applyOps}}},
        {"setFeatureCompatibilityVersion", {K::kCluster, {A::k_setFeatureCompatibilityVersion}}},
        {"replSetGetConfig", {K::kCluster, {A::k_replSetGetConfig}}},
        {"replSetGetStatus", {K::kCluster, {A::k_replSetGetStatus}}},
        {"replSetInitiate", {K::kCluster, {A::k_replSetConfigure}}},
        // User and role management: each command checks its own privileges.
        {"createUser", {K::kCommandChecks, {}}},
        {"updateUser", {K::kCommandChecks, {}}},
        {"dropUser", {K::kCommandChecks, {}}},
        {"dropAllUsersFromDatabase", {K::kCommandChecks, {}}},
        {"usersInfo", {K::kCommandChecks, {}}},
        {"grantRolesToUser", {K::kCommandChecks, {}}},
        {"revokeRolesFromUser", {K::kCommandChecks, {}}},
        {"createRole", {K::kCommandChecks, {}}},
        {"updateRole", {K::kCommandChecks, {}}},
        {"dropRole", {K::kCommandChecks, {}}},
        {"dropAllRolesFromDatabase", {K::kCommandChecks, {}}},
        {"rolesInfo", {K::kCommandChecks, {}}},
        {"grantPrivilegesToRole", {K::kCommandChecks, {}}},
        {"revokePrivilegesFromRole", {K::kCommandChecks, {}}},
        {"grantRolesToRole", {K::kCommandChecks, {}}},
        {"revokeRolesFromRole", {K::kCommandChecks, {}}},
    };
    return t;
}

/** The first element's namespace, or the database when it names no collection. */
ResourceTarget firstElementTarget(const CommandRequest& req) {
    BSONElement first = req.body.firstElement();
    if (first.type() == BSONType::kString && !first.valueStringData().empty())
        return ResourceTarget::ns(req.dbName, std::string(first.valueStringData()));
    return ResourceTarget::database(req.dbName);
}

/** "db.coll" -> (db, coll). */
ResourceTarget fullNameTarget(const BSONElement& e, const std::string& fallbackDb) {
    if (e.type() != BSONType::kString)
        return ResourceTarget::database(fallbackDb);
    StringData full = e.valueStringData();
    size_t dot = full.find('.');
    if (dot == StringData::npos)
        return ResourceTarget::database(std::string(full));
    return ResourceTarget::ns(std::string(full.substr(0, dot)), std::string(full.substr(dot + 1)));
}

void addPipelinePrivileges(const std::string& db, const BSONElement& pipeline,
                           RequiredPrivileges* out);

void addStagePrivileges(const std::string& db, const BSONObj& stageObj, RequiredPrivileges* out) {
    BSONElement stage = stageObj.firstElement();
    StringData name = stage.fieldNameStringData();
    auto targetOf = [&](const BSONElement& e) -> ResourceTarget {
        if (e.type() == BSONType::kString)
            return ResourceTarget::ns(db, std::string(e.valueStringData()));
        if (e.type() == BSONType::kObject) {
            BSONObj o = e.embeddedObject();
            std::string d =
                o["db"].type() == BSONType::kString ? std::string(o["db"].valueStringData()) : db;
            BSONElement c = o["coll"];
            if (c.type() == BSONType::kString)
                return ResourceTarget::ns(d, std::string(c.valueStringData()));
            return ResourceTarget::database(d);
        }
        return ResourceTarget::database(db);
    };
    if (name == "$out") {
        out->push_back({targetOf(stage), {A::k_insert, A::k_remove}});
    } else if (name == "$merge") {
        BSONElement into =
            stage.type() == BSONType::kObject ? stage.embeddedObject()["into"] : stage;
        out->push_back({targetOf(into), {A::k_insert, A::k_update, A::k_remove}});
    } else if (name == "$lookup" || name == "$graphLookup" || name == "$unionWith") {
        BSONElement from = stage;
        if (stage.type() == BSONType::kObject)
            from = stage.embeddedObject()[name == "$unionWith" ? "coll" : "from"];
        if (!from.eoo())
            out->push_back({targetOf(from), {A::k_find}});
        if (stage.type() == BSONType::kObject)
            addPipelinePrivileges(db, stage.embeddedObject()["pipeline"], out);
    } else if (name == "$facet" && stage.type() == BSONType::kObject) {
        for (auto sub : stage.embeddedObject())
            addPipelinePrivileges(db, sub, out);
    } else if (name == "$currentOp") {
        bool allUsers =
            stage.type() == BSONType::kObject && stage.embeddedObject()["allUsers"].trueValue();
        if (allUsers)
            out->push_back({ResourceTarget::cluster(), {A::k_inprog}});
    }
}

void addPipelinePrivileges(const std::string& db, const BSONElement& pipeline,
                           RequiredPrivileges* out) {
    if (pipeline.type() != BSONType::kArray)
        return;
    for (auto s : pipeline.embeddedObject()) {
        if (s.type() == BSONType::kObject && !s.embeddedObject().isEmpty())
            addStagePrivileges(db, s.embeddedObject(), out);
    }
}

RequiredPrivileges aggregatePrivileges(const CommandRequest& req) {
    RequiredPrivileges out;
    ResourceTarget target = firstElementTarget(req);
    BSONElement pipeline = req.body["pipeline"];
    StringData firstStage;
    if (pipeline.type() == BSONType::kArray && !pipeline.embeddedObject().isEmpty() &&
        pipeline.embeddedObject().firstElement().type() == BSONType::kObject)
        firstStage = pipeline.embeddedObject()
                         .firstElement()
                         .embeddedObject()
                         .firstElementFieldNameStringData();
    if (firstStage == "$collStats") {
        out.push_back({target, {A::k_collStats}});
    } else if (firstStage == "$indexStats") {
        out.push_back({target, {A::k_indexStats}});
    } else if (target.kind == ResourceTarget::Kind::kNamespace) {
        out.push_back({target, {A::k_find}});
    }
    addPipelinePrivileges(req.dbName, pipeline, &out);
    if (req.body["bypassDocumentValidation"].trueValue())
        out.push_back({target, {A::k_bypassDocumentValidation}});
    return out;
}

RequiredPrivileges computedPrivileges(const CommandAuthRule& rule, const CommandRequest& req) {
    StringData name = req.commandName();
    if (CommandRegistry::find(name))
        name = CommandRegistry::find(name)->getName();
    ResourceTarget target = firstElementTarget(req);
    RequiredPrivileges out;
    if (name == "aggregate")
        return aggregatePrivileges(req);
    if (name == "explain") {
        BSONElement inner = req.body.firstElement();
        if (inner.type() != BSONType::kObject || inner.embeddedObject().isEmpty())
            return out;
        CommandRequest innerReq;
        innerReq.dbName = req.dbName;
        innerReq.body = inner.embeddedObject();
        Command* innerCmd = CommandRegistry::find(innerReq.commandName());
        const CommandAuthRule* innerRule =
            innerCmd ? findCommandAuthRule(innerCmd->getName()) : nullptr;
        if (!innerRule || innerCmd->getName() == "explain")
            return out;
        return requiredPrivileges(*innerRule, innerReq);
    }
    if (name == "insert" || name == "delete") {
        out.push_back({target, rule.actions});
    } else if (name == "update") {
        ActionSet actions{A::k_update};
        try {
            for (const auto& u : req.getObjectArray("updates")) {
                if (u["upsert"].trueValue())
                    actions.add(A::k_insert);
            }
        } catch (const DBException&) {
            // Malformed: the command reports it once authorized for the update itself.
        }
        out.push_back({target, actions});
    } else if (name == "findAndModify") {
        ActionSet actions{A::k_find};
        if (req.body["remove"].trueValue()) {
            actions.add(A::k_remove);
        } else {
            actions.add(A::k_update);
            if (req.body["upsert"].trueValue())
                actions.add(A::k_insert);
        }
        out.push_back({target, actions});
    } else if (name == "create") {
        out.push_back({target, {A::k_createCollection}});
        if (req.body["viewOn"].type() == BSONType::kString)
            out.push_back(
                {ResourceTarget::ns(req.dbName, std::string(req.body["viewOn"].valueStringData())),
                 {A::k_find}});
    } else if (name == "renameCollection") {
        ResourceTarget from = fullNameTarget(req.body.firstElement(), req.dbName);
        ResourceTarget to = fullNameTarget(req.body["to"], req.dbName);
        if (from.db == to.db) {
            out.push_back({from, {A::k_renameCollectionSameDB}});
            out.push_back({to, {A::k_renameCollectionSameDB}});
        } else {
            out.push_back({from, {A::k_find, A::k_dropCollection}});
            out.push_back({to, {A::k_insert, A::k_createIndex}});
        }
        if (req.body["dropTarget"].trueValue())
            out.push_back({to, {A::k_dropCollection}});
    } else if (name == "currentOp") {
        if (!req.body["$ownOps"].trueValue())
            out.push_back({ResourceTarget::cluster(), {A::k_inprog}});
    }
    if (req.body["bypassDocumentValidation"].trueValue() &&
        (name == "insert" || name == "update" || name == "findAndModify"))
        out.push_back({target, {A::k_bypassDocumentValidation}});
    return out;
}

}  // namespace

const CommandAuthRule* findCommandAuthRule(StringData name) {
    auto it = table().find(name);
    return it == table().end() ? nullptr : &it->second;
}

RequiredPrivileges requiredPrivileges(const CommandAuthRule& rule, const CommandRequest& req) {
    switch (rule.kind) {
        case K::kNamespace:
            return {{firstElementTarget(req), rule.actions}};
        case K::kDatabase:
            return {{ResourceTarget::database(req.dbName), rule.actions}};
        case K::kCluster:
            return {{ResourceTarget::cluster(), rule.actions}};
        case K::kComputed:
            return computedPrivileges(rule, req);
        case K::kNoAuth:
        case K::kAuthenticated:
        case K::kCommandChecks:
            break;
    }
    return {};
}

void uassertedNotAuthorized(const CommandRequest& req) {
    uasserted(ErrorCodes::Unauthorized,
              "not authorized on " + req.dbName + " to execute command " + req.body.toString());
}

void checkAuthForCommand(OperationContext* opCtx, const Command& cmd, const CommandRequest& req) {
    if (!auth::AuthorizationManager::get().isAuthEnabled() || !opCtx->getClient())
        return;
    const CommandAuthRule* rule = findCommandAuthRule(cmd.getName());
    uassert(ErrorCodes::Unauthorized,
            "command " + cmd.getName() + " declares no privileges and cannot run with auth", rule);
    if (rule->kind == K::kNoAuth)
        return;
    auto* session = auth::AuthorizationSession::get(opCtx->getClient());
    if (!session->isAuthenticated()) {
        // The localhost exception lets user and role management create the first user.
        if (rule->kind == K::kCommandChecks && auth::localhostExceptionApplies(opCtx))
            return;
        uasserted(ErrorCodes::Unauthorized,
                  "command " + cmd.getName() + " requires authentication");
    }
    for (const auto& [target, actions] : requiredPrivileges(*rule, req)) {
        if (!session->isAuthorized(opCtx, target, actions))
            uassertedNotAuthorized(req);
    }
}

void uassertAuthorized(OperationContext* opCtx, const CommandRequest& req,
                       const ResourceTarget& target, const ActionSet& actions,
                       LocalhostException localhost) {
    if (!auth::AuthorizationManager::get().isAuthEnabled() || !opCtx->getClient())
        return;
    auto* session = auth::AuthorizationSession::get(opCtx->getClient());
    if (session->isAuthorized(opCtx, target, actions))
        return;
    if (localhost == LocalhostException::kAllowed && auth::localhostExceptionApplies(opCtx))
        return;
    uassertedNotAuthorized(req);
}

}  // namespace mongo
