// hello / isMaster / ismaster: the handshake every client sends first. A
// standalone node answers as a writable primary without topologyVersion (so
// clients use polling monitoring) and without compression.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/service_context.h"
#include "mongo/idl/hello_gen.h"
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
    }
};
MONGO_REGISTER_COMMAND(HelloCmd)

}  // namespace
}  // namespace mongo
