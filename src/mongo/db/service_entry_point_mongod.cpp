#include "mongo/db/service_entry_point_mongod.h"

#include <optional>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/client_registry.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/command_privileges.h"
#include "mongo/db/commands/fail_command.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/logical_session_cache.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/operation_session_info.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/service_context.h"
#include "mongo/db/stats/top.h"
#include "mongo/db/storage/disk_space_monitor.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/logv2/log.h"
#include "mongo/rpc/factory.h"
#include "mongo/transport/client.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/fail_point.h"

namespace mongo {

namespace {

bool isCrudCommand(StringData name) {
    return name == "insert" || name == "update" || name == "delete" || name == "find" ||
           name == "getMore";
}

void applyGenericArguments(OperationContext* opCtx, const CommandRequest& req) {
    opCtx->setBypassDocumentValidation(req.body["bypassDocumentValidation"].trueValue());
    BSONElement maxTime = req.body["maxTimeMS"];
    if (!maxTime.eoo()) {
        uassert(ErrorCodes::BadValue, "maxTimeMS must be a number", maxTime.isNumber());
        double v = maxTime.numberDouble();
        uassert(ErrorCodes::BadValue, "maxTimeMS value must be non-negative and an integer",
                v >= 0 && v == static_cast<double>(static_cast<long long>(v)) && v <= 2147483647.0);
        if (v > 0)
            opCtx->setDeadlineAfterMillis(static_cast<long long>(v));
    }
    repl::parseOperationSessionInfo(req.commandName(), req.body);  // lsid/txnNumber checks
    // Multi-document transactions are not implemented: refuse a statement of one rather than
    // run it on its own as if no transaction had been asked for.
    if (!req.body["autocommit"].eoo() || req.body["startTransaction"].trueValue()) {
        uassert(ErrorCodes::IllegalOperation,
                "Transaction numbers are only allowed on a replica set member or mongos",
                repl::ReplicationCoordinator::get()->isReplEnabled());
        const std::string what = req.commandName() == "insert"
                                     ? "Cannot insert into a collection"
                                     : "Cannot run '" + std::string(req.commandName()) + "'";
        uasserted(ErrorCodes::OperationNotSupportedInTransaction,
                  what +
                      " in a multi-document transaction: this server does not support "
                      "multi-document transactions");
    }
    BSONElement wc = req.body["writeConcern"];
    if (!wc.eoo()) {
        uassert(ErrorCodes::TypeMismatch, "writeConcern must be an object",
                wc.type() == BSONType::kObject);
        BSONElement w = wc.embeddedObject()["w"];
        if (w.isNumber()) {
            uassert(ErrorCodes::FailedToParse, "w has to be a non-negative number",
                    w.numberLong() >= 0);
            uassert(ErrorCodes::BadValue, "cannot use 'w' > 1 with a standalone",
                    w.numberLong() <= 1);
        }
    }
}

/**
 * Reads the command's Stable API parameters onto the operation and applies the rules that
 * concern the command as a whole: it must be in API Version 1 under apiStrict (by the name it
 * was invoked with), not deprecated under apiDeprecationErrors, and apiStrict writes may not
 * touch system.js (stored JavaScript is outside API Version 1).
 */
void applyAPIParameters(OperationContext* opCtx, const Command& cmd, const CommandRequest& req) {
    APIParameters api = APIParameters::parse(req.body);
    const StringData name = req.commandName();  // messages are built only on failure
    if (api.isStrict()) {
        uassert(ErrorCodes::APIStrictError,
                "Provided apiStrict:true, but the command " + std::string(name) +
                    " is not in API Version 1. Information on supported commands and migrations "
                    "in API Version 1 can be found at "
                    "https://dochub.mongodb.org/core/manual-versioned-api",
                isInAPIVersion1(name));
        const bool isWrite =
            name == "insert" || name == "update" || name == "delete" || name == "findAndModify";
        BSONElement target = req.body.firstElement();
        uassert(ErrorCodes::APIStrictError,
                "Provided apiStrict:true, but the command " + std::string(name) +
                    " attempts to write to system.js",
                !isWrite || target.type() != BSONType::kString ||
                    target.valueStringData() != "system.js");
    }
    uassert(ErrorCodes::APIDeprecationError,
            "Provided apiDeprecationErrors: true, but the command " + std::string(name) +
                " is deprecated in API Version 1",
            !api.wantsDeprecationErrors() || !cmd.deprecatedInAPIVersion1());
    opCtx->setAPIParameters(std::move(api));
    if (isAPIStrict(opCtx))
        cmd.checkAPIStrictFields(opCtx, req);
}

/**
 * Refuses a write (OutOfDiskSpace 14031) while the data directory's filesystem has less than
 * diskSpaceMinFreeMB free: WiredTiger must never meet a full disk in its journal.
 */
void uassertDiskSpaceForWrites() {
    const long long minFree = gDiskSpaceMinFreeMB.load() * 1024 * 1024;
    if (minFree <= 0)
        return;
    const long long free = availableDiskSpaceBytes();
    uassert(ErrorCodes::OutOfDiskSpace,
            "Write refused: " + std::to_string(free >> 20) +
                " MB free on the data directory's filesystem, below diskSpaceMinFreeMB (" +
                std::to_string(minFree >> 20) + " MB)",
            free < 0 || free >= minFree);
}

/** Journal flush for writeConcern {j: true} (and w: "majority", which implies it). */
bool wantsJournal(const CommandRequest& req) {
    BSONElement wc = req.body["writeConcern"];
    if (wc.type() != BSONType::kObject)
        return false;
    BSONObj w = wc.embeddedObject();
    return w["j"].trueValue() || w["fsync"].trueValue() ||
           (w["w"].type() == BSONType::kString && w["w"].valueStringData() == "majority");
}

/**
 * The collection (or view) a command reports its latency under in Top: the string first
 * element of a collection command, getMore's `collection`; nullopt for others.
 */
std::optional<NamespaceString> latencyNamespace(const CommandRequest& req) {
    BSONElement target =
        req.commandName() == "getMore" ? req.body["collection"] : req.body.firstElement();
    if (target.type() != BSONType::kString)
        return std::nullopt;
    NamespaceString nss(req.dbName, target.valueStringData());
    if (!NamespaceString::validateDatabaseName(req.dbName).isOK() ||
        !nss.validateCollectionName().isOK())
        return std::nullopt;
    return nss;
}

/** Records the command's latency in Top when it names a collection (success or failure). */
class LatencyRecorder {
public:
    LatencyRecorder(const CommandRequest& req, const Command& cmd)
        : _nss(latencyNamespace(req)), _type(cmd.getReadWriteType()), _start(curTimeMicros64()) {}
    ~LatencyRecorder() {
        if (_nss)
            Top::get().recordLatency(*_nss, curTimeMicros64() - _start, _type);
    }

private:
    std::optional<NamespaceString> _nss;
    ReadWriteType _type;
    long long _start;
};

}  // namespace

BSONObj runCommandDirect(ServiceContext* sc, Client* client, const CommandRequest& req) {
    BSONObjBuilder result;
    StringData name = req.commandName();
    Command* cmd = CommandRegistry::find(name);
    if (!cmd) {
        appendCommandStatusNoThrow(result, Status(ErrorCodes::CommandNotFound,
                                                  "no such command: '" + std::string(name) + "'"));
        return result.obj();
    }
    if (isCrudCommand(name)) {
        // Counted by the command itself (per document for inserts).
    } else {
        sc->opCounters.command.fetch_add(1);
    }
    OperationContext opCtx(sc, client, sc->nextOpId.fetch_add(1));
    if (sc->storageEngine)
        opCtx.swapRecoveryUnit(sc->storageEngine->newRecoveryUnit());
    if (client)
        opCtx.setClientDisconnectedFlag(&client->disconnectedFlag());
    ClientRegistry::describe(req, &opCtx);
    ClientRegistry::ActiveOp activeOp(client, &opCtx);  // visible to currentOp and killOp
    LatencyRecorder latency(req, *cmd);
    try {
        uassert(ErrorCodes::Unauthorized,
                std::string(cmd->getName()) + " may only be run against the admin database.",
                !cmd->adminOnly() || req.dbName == "admin");
        // $external holds the users of external mechanisms (X.509); commands may name it,
        // collections in it stay invalid (their namespaces are validated on their own).
        if (req.dbName != "$external")
            uassertStatusOK(NamespaceString::validateDatabaseName(req.dbName));
        applyAPIParameters(&opCtx, *cmd, req);
        checkAuthForCommand(&opCtx, *cmd, req);  // a no-op without --auth
        applyGenericArguments(&opCtx, req);
        if (BSONElement lsid = req.body["lsid"]; lsid.type() == BSONType::kObject)
            LogicalSessionCache::get().vivify(lsid.embeddedObject(), Date_t::now(),
                                              gMaxSessions.load());
        evaluateFailCommandBeforeRun(&opCtx, req, *cmd);
        if (cmd->writesData(req))
            uassertDiskSpaceForWrites();
        BSONObjBuilder body;
        cmd->run(&opCtx, req, body);
        appendFailCommandWriteConcernError(&opCtx, req, *cmd, body);
        if (wantsJournal(req) && opCtx.recoveryUnit()) {
            // The write is applied; when the journal cannot be flushed its durability is not
            // known, which the reply says as upstream does: a writeConcernError.
            Status durable = opCtx.recoveryUnit()->waitUntilDurable();
            if (!durable.isOK() && !body.hasField("writeConcernError"))
                body.append("writeConcernError",
                            BSON("code" << static_cast<int>(durable.code()) << "codeName"
                                        << ErrorCodes::errorString(durable.code()) << "errmsg"
                                        << durable.reason()));
        }
        result.appendElements(body.obj());
        result.append("ok", 1.0);
    } catch (const DBException& ex) {
        BSONObjBuilder err;
        appendCommandStatusNoThrow(err, ex.toStatus());
        if (const ErrorExtraInfo* extra = ex.extraInfo())
            extra->serialize(&err);
        appendErrorLabels(req, ex.toStatus(), ex.extraInfo(), err);
        return err.obj();
    } catch (const std::exception& ex) {
        BSONObjBuilder err;
        appendCommandStatusNoThrow(err, Status(ErrorCodes::InternalError, ex.what()));
        return err.obj();
    }
    return result.obj();
}

DbResponse ServiceEntryPointMongod::handleRequest(Client& client, const Message& request) {
    DbResponse response;
    auto parsed = rpc::parseCommandInvocation(request);
    if (!parsed.isOK()) {
        const Status& s = parsed.getStatus();
        LOGV2_OPTIONS(22988, logv2::Component::kNetwork, "Error parsing request",
                      BSON("error" << s.toString()));
        if (rpc::isConnectionFatalMessageParseError(s.code())) {
            response.closeConnection = true;
            return response;
        }
        response.response = rpc::makeErrorReply(request, s);
        return response;
    }
    const rpc::CommandInvocationInput& input = parsed.getValue();
    CommandRequest req;
    req.dbName = input.db;
    req.body = input.body;
    for (const auto& seq : input.sequences)
        req.sequences[seq.name] = seq.objs;

    BSONObj reply = runCommandDirect(_sc, &client, req);
    if (takeConnectionCloseRequest()) {  // a fail point's closeConnection: no reply
        response.closeConnection = true;
        return response;
    }
    if (input.moreToCome)
        return response;
    response.response = rpc::makeCommandReply(input, reply);
    return response;
}

void ServiceEntryPointMongod::onClientConnect(Client& client) {
    // Created before the client is visible to other threads (currentOp reads it).
    auth::AuthorizationSession::get(&client);
    ClientRegistry::get().addClient(&client);
}

void ServiceEntryPointMongod::onClientDisconnect(Client& client) {
    ClientRegistry::get().removeClient(&client);
}

}  // namespace mongo
