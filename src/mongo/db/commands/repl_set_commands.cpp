// Replica-set commands of a single-node set: replSetInitiate, replSetGetStatus,
// replSetGetConfig. The state lives in repl::ReplicationCoordinator.
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class ReplSetInitiateCmd : public Command {
public:
    ReplSetInitiateCmd() : Command("replSetInitiate") {}
    bool adminOnly() const override {
        return true;
    }
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        BSONElement arg = req.body.firstElement();
        BSONObj config = arg.type() == BSONType::kObject ? arg.Obj() : BSONObj();
        uassertStatusOK(repl::ReplicationCoordinator::get()->initiate(opCtx, config, &result));
    }
};
MONGO_REGISTER_COMMAND(ReplSetInitiateCmd)

class ReplSetGetStatusCmd : public Command {
public:
    ReplSetGetStatusCmd() : Command("replSetGetStatus") {}
    bool adminOnly() const override {
        return true;
    }
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        uassertStatusOK(repl::ReplicationCoordinator::get()->appendStatus(opCtx, &result));
    }
};
MONGO_REGISTER_COMMAND(ReplSetGetStatusCmd)

class ReplSetGetConfigCmd : public Command {
public:
    ReplSetGetConfigCmd() : Command("replSetGetConfig") {}
    bool adminOnly() const override {
        return true;
    }
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        uassertStatusOK(repl::ReplicationCoordinator::get()->appendConfig(&result));
    }
};
MONGO_REGISTER_COMMAND(ReplSetGetConfigCmd)

}  // namespace
}  // namespace mongo
