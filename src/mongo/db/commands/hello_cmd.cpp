// hello / isMaster / ismaster: the handshake every client sends first. A
// standalone node answers as a writable primary without topologyVersion (so
// clients use polling monitoring) and without compression.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/sasl_server.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/service_context.h"
#include "mongo/idl/hello_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/transport/client.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr int kMinWireVersion = 0;
constexpr int kMaxWireVersion = 25;  // MongoDB 8.0

class HelloCmd : public Command {
public:
    HelloCmd() : Command("hello", {"isMaster", "ismaster"}) {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        bool legacyName = req.commandName() != "hello";
        auto cmd = HelloCommand::parse(req.body, req.commandName());
        if (Client* client = opCtx->getClient(); client && cmd.getClient()) {
            uassert(ErrorCodes::ClientMetadataCannotBeMutated,
                    "The client metadata document may only be sent in the first hello",
                    client->setClientMetadata(*cmd.getClient()));
        }
        if (cmd.getHelloOk().value_or(false))
            result.append("helloOk", true);
        auto* replCoord = repl::ReplicationCoordinator::get();
        if (replCoord->isReplEnabled())
            replCoord->appendHelloFields(&result, legacyName);  // setName, hosts, primary...
        else
            result.append(legacyName ? "ismaster" : "isWritablePrimary", true);
        result.append("maxBsonObjectSize", BSONObjMaxUserSize);
        result.append("maxMessageSizeBytes", 48000000);
        result.append("maxWriteBatchSize", 100000);
        result.append("localTime", Date_t::now());
        result.append("logicalSessionTimeoutMinutes", gLocalLogicalSessionTimeoutMinutes.load());
        if (Client* client = opCtx->getClient())
            result.append("connectionId", static_cast<long long>(client->connectionId()));
        result.append("minWireVersion", kMinWireVersion);
        result.append("maxWireVersion", kMaxWireVersion);
        result.append("readOnly", false);
        if (cmd.getSaslSupportedMechs()) {
            auto mechs = auth::saslSupportedMechs(opCtx, *cmd.getSaslSupportedMechs());
            if (!mechs.empty()) {
                BSONArrayBuilder arr(result.subarrayStart("saslSupportedMechs"));
                for (const auto& m : mechs)
                    arr.append(m);
            }
        }
        if (cmd.getSpeculativeAuthenticate())
            appendSpeculativeAuthenticate(opCtx, *cmd.getSpeculativeAuthenticate(), &result);
    }

private:
    /**
     * speculativeAuthenticate: {saslStart: 1, mechanism, payload, db} runs the first SASL
     * step inside the handshake; {authenticate: 1, mechanism: "MONGODB-X509"} the whole
     * login. A failure only leaves the field out (the client then authenticates in full), as
     * upstream.
     */
    static void appendSpeculativeAuthenticate(OperationContext* opCtx, const BSONObj& spec,
                                              BSONObjBuilder* result) {
        if (spec["authenticate"].trueValue()) {
            // MONGODB-X509 in the handshake: {authenticate: 1, mechanism, user?, db?}, the
            // database defaulting to $external (as upstream).
            if (spec["mechanism"].type() != BSONType::kString ||
                spec["mechanism"].valueStringData() != auth::kMechanismX509)
                return;
            std::optional<std::string> user;
            if (spec["user"].type() == BSONType::kString)
                user = std::string(spec["user"].valueStringData());
            const std::string db = spec["db"].type() == BSONType::kString
                                       ? std::string(spec["db"].valueStringData())
                                       : std::string("$external");
            try {
                BSONObjBuilder reply;
                auth::authenticateX509(opCtx, db, user, auth::Speculative::kYes, &reply);
                result->append("speculativeAuthenticate", reply.obj());
            } catch (const DBException&) {
                // Logged by the auth layer; the client then sends authenticate itself.
            }
            return;
        }
        if (!spec["saslStart"].trueValue() || spec["db"].type() != BSONType::kString)
            return;
        try {
            BSONObjBuilder reply;
            auth::runSaslStart(opCtx, std::string(spec["db"].valueStringData()), spec,
                               auth::Speculative::kYes, &reply);
            result->append("speculativeAuthenticate", reply.obj());
        } catch (const DBException&) {
            // Logged by the SASL layer; the client falls back to saslStart.
        }
    }
};
MONGO_REGISTER_COMMAND(HelloCmd)

}  // namespace
}  // namespace mongo
