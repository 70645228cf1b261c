// saslStart, saslContinue, authenticate (MONGODB-X509 only, as upstream 8.0), logout
// (db/auth/sasl_server.h does the work).
#include <optional>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/auth/sasl_server.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/util/assert_util.h"

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

/**
 * {authenticate: 1, mechanism: "MONGODB-X509", user?: "<subject>"} on $external. Reply
 * {user, dbname}. As upstream, UserNotFound and ProtocolError reach the client as they are,
 * every other failure as AuthenticationFailed "Authentication failed.".
 */
class AuthenticateCmd : public Command {
public:
    AuthenticateCmd() : Command("authenticate") {}
    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        try {
            authenticate(opCtx, req.dbName, req.body, auth::Speculative::kNo, &result);
        } catch (const DBException& ex) {
            if (ex.code() == ErrorCodes::UserNotFound || ex.code() == ErrorCodes::ProtocolError)
                throw;
            uasserted(ErrorCodes::AuthenticationFailed, "Authentication failed.");
        }
    }

    static void authenticate(OperationContext* opCtx, const std::string& db, const BSONObj& body,
                             auth::Speculative speculative, BSONObjBuilder* result) {
        BSONElement mech = body["mechanism"];
        uassert(ErrorCodes::BadValue, "Auth mechanism not specified",
                mech.type() == BSONType::kString && !mech.valueStringData().empty());
        uassert(ErrorCodes::BadValue,
                "Unsupported mechanism: " + std::string(mech.valueStringData()),
                mech.valueStringData() == auth::kMechanismX509);
        std::optional<std::string> user;
        if (body["user"].type() == BSONType::kString)
            user = std::string(body["user"].valueStringData());
        auth::authenticateX509(opCtx, db, user, speculative, result);
    }
};
MONGO_REGISTER_COMMAND(AuthenticateCmd)

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
