#include "mongo/db/auth/sasl_server.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/auth/scram.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/transport/client.h"
#include "mongo/util/assert_util.h"
#include "mongo/logv2/log.h"

namespace mongo::auth {
namespace {

constexpr int kMaxFailureDelayMs = 5000;

/** The payload of a SASL command: BinData or string. */
std::string payloadOf(const BSONObj& cmd) {
    BSONElement p = cmd["payload"];
    if (p.type() == BSONType::kBinData) {
        int len = 0;
        const char* data = p.binData(len);
        return std::string(data, len);
    }
    if (p.type() == BSONType::kString)
        return std::string(p.valueStringData());
    uasserted(ErrorCodes::BadValue, "Missing or invalid SASL payload");
}

void appendPayload(BSONObjBuilder* b, const std::string& payload) {
    b->appendBinData("payload", static_cast<int>(payload.size()), BinDataGeneral, payload.data());
}

StatusWith<ScramCredentials> lookupCredentials(OperationContext* opCtx, const std::string& db,
                                               HashAlgorithm alg, const std::string& user) {
    UserName name{user, db};
    auto doc = AuthorizationManager::get().findDoc(opCtx, AuthCollection::kUsers, name.docId());
    if (!doc)
        return Status(ErrorCodes::UserNotFound,
                      "Could not find user \"" + user + "\" for db \"" + db + "\"");
    BSONElement creds = (*doc)["credentials"];
    BSONElement mech = creds.type() == BSONType::kObject
        ? creds.embeddedObject()[mechanismName(alg)]
        : BSONElement();
    if (mech.type() != BSONType::kObject)
        return Status(kMechanismUnavailable,
                      "Unable to use " + std::string(mechanismName(alg)) +
                          " based authentication for user without any " +
                          std::string(mechanismName(alg)) + " credentials registered");
    return ScramCredentials::parse(mech.embeddedObject());
}

std::string remoteOf(OperationContext* opCtx) {
    return opCtx->getClient() ? opCtx->getClient()->remote() : std::string();
}

/** Logs the failure, delays this connection, and throws AuthenticationFailed. */
[[noreturn]] void fail(OperationContext* opCtx, AuthorizationSession* session,
                       std::string mechanism, std::string user, std::string db,
                       Speculative speculative, const Status& why) {
    LOGV2_OPTIONS(20249, logv2::Component::kAccessControl, "Authentication failed",
                  BSON("mechanism" << mechanism << "speculative"
                                   << (speculative == Speculative::kYes) << "principalName"
                                   << user << "authenticationDatabase" << db << "remote"
                                   << remoteOf(opCtx) << "extraInfo" << BSONObj() << "error"
                                   << why.toString()));
    if (session) {
        session->recordFailure();
        session->conversation().reset();
        long long delay = gAuthFailedDelayMs.load();
        for (int i = 1; i < session->failedAttempts() && delay < kMaxFailureDelayMs; ++i)
            delay *= 2;
        delay = std::min<long long>(delay, kMaxFailureDelayMs);
        if (delay > 0)  // this connection's thread only; no lock is held here
            std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    }
    uasserted(ErrorCodes::AuthenticationFailed, "Authentication failed.");
}

/** Appends the step's reply; on success of the proof marks the connection authenticated. */
void replyToStep(OperationContext* opCtx, AuthorizationSession* session, Speculative speculative,
                 const std::string& input, BSONObjBuilder* result) {
    auto& conv = *session->conversation();
    ScramServerConversation& scram = *conv.scram;
    const bool verifiedBefore = scram.proofVerified();
    auto out = scram.step(input);
    if (!out.isOK())
        fail(opCtx, session, conv.mechanism, scram.userName(), conv.db, speculative,
             out.getStatus());
    const bool done = scram.isDone() || (scram.proofVerified() && conv.skipEmptyExchange);
    if (!verifiedBefore && scram.proofVerified()) {
        session->addUser(opCtx, UserName{scram.userName(), conv.db});
        LOGV2_OPTIONS(5286306, logv2::Component::kAccessControl, "Successfully authenticated",
                      BSON("client" << remoteOf(opCtx) << "isSpeculative"
                                    << (speculative == Speculative::kYes) << "isClusterMember"
                                    << false << "mechanism" << conv.mechanism << "user"
                                    << scram.userName() << "db" << conv.db << "result" << 0
                                    << "extraInfo" << BSONObj()));
    }
    result->append("conversationId", conv.conversationId);
    result->append("done", done);
    appendPayload(result, out.getValue());
    if (done)
        session->conversation().reset();
}

}  // namespace

void runSaslStart(OperationContext* opCtx, const std::string& db, const BSONObj& cmd,
                  Speculative speculative, BSONObjBuilder* result) {
    auto* session = AuthorizationSession::get(opCtx->getClient());
    uassert(ErrorCodes::AuthenticationFailed, "Authentication requires a client connection",
            session);
    BSONElement mechElem = cmd["mechanism"];
    uassert(ErrorCodes::BadValue, "Missing or invalid SASL mechanism",
            mechElem.type() == BSONType::kString);
    const std::string mechanism(mechElem.valueStringData());
    auto alg = scramAlgorithm(mechanism);
    uassert(kMechanismUnavailable,
            "Received authentication for mechanism " + mechanism + " which is not enabled",
            alg.has_value());
    uassert(ErrorCodes::BadValue, "Authentication on $external is not supported",
            db != "$external");
    const std::string payload = payloadOf(cmd);

    auto conv = std::make_unique<AuthorizationSession::SaslConversation>();
    conv->conversationId = session->nextConversationId();
    conv->db = db;
    conv->mechanism = mechanism;
    HashAlgorithm a = *alg;
    conv->scram = std::make_unique<ScramServerConversation>(
        a, [opCtx, db, a](const std::string& user) {
            return lookupCredentials(opCtx, db, a, user);
        });
    const bool skipEmpty = cmd["options"].type() == BSONType::kObject &&
        cmd["options"].embeddedObject()["skipEmptyExchange"].trueValue();
    conv->skipEmptyExchange = skipEmpty;
    session->conversation() = std::move(conv);
    replyToStep(opCtx, session, speculative, payload, result);
    if (opCtx->recoveryUnit() && !opCtx->recoveryUnit()->inUnitOfWork())
        opCtx->recoveryUnit()->abandonSnapshot();
}

void runSaslContinue(OperationContext* opCtx, const std::string& db, const BSONObj& cmd,
                     BSONObjBuilder* result) {
    auto* session = AuthorizationSession::get(opCtx->getClient());
    uassert(ErrorCodes::ProtocolError, "No SASL session state found",
            session && session->conversation());
    auto& conv = *session->conversation();
    BSONElement id = cmd["conversationId"];
    uassert(ErrorCodes::ProtocolError, "Mismatched conversation id",
            id.isNumber() && id.numberInt() == conv.conversationId);
    uassert(ErrorCodes::ProtocolError,
            "Attempt to switch database target during SASL authentication.", db == conv.db);
    replyToStep(opCtx, session, Speculative::kNo, payloadOf(cmd), result);
}

std::vector<std::string> saslSupportedMechs(OperationContext* opCtx, StringData dbDotUser) {
    std::vector<std::string> out;
    size_t dot = dbDotUser.find('.');
    if (dot == StringData::npos)
        return out;
    UserName name{std::string(dbDotUser.substr(dot + 1)), std::string(dbDotUser.substr(0, dot))};
    auto doc = AuthorizationManager::get().findDoc(opCtx, AuthCollection::kUsers, name.docId());
    if (opCtx->recoveryUnit() && !opCtx->recoveryUnit()->inUnitOfWork())
        opCtx->recoveryUnit()->abandonSnapshot();
    if (!doc || (*doc)["credentials"].type() != BSONType::kObject)
        return out;
    for (auto e : (*doc)["credentials"].embeddedObject())
        out.emplace_back(e.fieldNameStringData());
    return out;
}

}  // namespace mongo::auth
