// saslStart, saslContinue, logout (db/auth/sasl_server.h does the work). MONGODB-X509
// and the legacy `authenticate` command are not implemented (CommandNotFound).
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/auth/sasl_server.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"

namespace mongo {
namespace {

class SaslStartCmd : public Command {
public:
    SaslStartCmd() : Command("saslStart") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auth::runSaslStart(opCtx, req.dbName, req.body, auth::Speculative::kNo, &result);
    }
};
MONGO_REGISTER_COMMAND(SaslStartCmd)

class SaslContinueCmd : public Command {
public:
    SaslContinueCmd() : Command("saslContinue") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auth::runSaslContinue(opCtx, req.dbName, req.body, &result);
    }
};
MONGO_REGISTER_COMMAND(SaslContinueCmd)

/** Logs out the user authenticated on the request's database (upstream's behaviour). */
class LogoutCmd : public Command {
public:
    LogoutCmd() : Command("logout") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder&) override {
        if (auto* session = auth::AuthorizationSession::get(opCtx->getClient()))
            session->logoutDatabase(req.dbName);
    }
};
MONGO_REGISTER_COMMAND(LogoutCmd)

}  // namespace
}  // namespace mongo
