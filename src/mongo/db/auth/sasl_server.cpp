#include "mongo/db/auth/sasl_server.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/auth/scram.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/logv2/log.h"
#include "mongo/transport/client.h"
#include "mongo/util/assert_util.h"

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
        return Status(kMechanismUnavailable, "Unable to use " + std::string(mechanismName(alg)) +
                                                 " based authentication for user without any " +
                                                 std::string(mechanismName(alg)) +
                                                 " credentials registered");
    return ScramCredentials::parse(mech.embeddedObject());
}

std::string remoteOf(OperationContext* opCtx) {
    return opCtx->getClient() ? opCtx->getClient()->remote() : std::string();
}

/** Logs the failure and delays this connection (authFailedDelayMs, doubled per failure). */
void recordFailure(OperationContext* opCtx, AuthorizationSession* session,
                   const std::string& mechanism, const std::string& user, const std::string& db,
                   Speculative speculative, const Status& why) {
    LOGV2_OPTIONS(20249, logv2::Component::kAccessControl, "Authentication failed",
                  BSON("mechanism" << mechanism << "speculative"
                                   << (speculative == Speculative::kYes) << "principalName" << user
                                   << "authenticationDatabase" << db << "remote" << remoteOf(opCtx)
                                   << "extraInfo" << BSONObj() << "error" << why.toString()));
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
}

/** Logs the failure, delays this connection, and throws AuthenticationFailed. */
[[noreturn]] void fail(OperationContext* opCtx, AuthorizationSession* session,
                       std::string mechanism, std::string user, std::string db,
                       Speculative speculative, const Status& why) {
    recordFailure(opCtx, session, mechanism, user, db, speculative, why);
    uasserted(ErrorCodes::AuthenticationFailed, "Authentication failed.");
}

void logSuccess(OperationContext* opCtx, Speculative speculative, StringData mechanism,
                const std::string& user, const std::string& db) {
    LOGV2_OPTIONS(
        5286306, logv2::Component::kAccessControl, "Successfully authenticated",
        BSON("client" << remoteOf(opCtx) << "isSpeculative" << (speculative == Speculative::kYes)
                      << "isClusterMember" << false << "mechanism" << mechanism << "user" << user
                      << "db" << db << "result" << 0 << "extraInfo" << BSONObj()));
}

/** The steps of MONGODB-X509 in upstream's order; returns the user name. */
StatusWith<std::string> checkX509(OperationContext* opCtx, const std::string& db,
                                  const std::optional<std::string>& user) {
    Client* client = opCtx->getClient();
    const std::string subject = client ? client->verifiedPeerSubject() : std::string();
    if (subject.empty())
        return Status(ErrorCodes::AuthenticationFailed,
                      "No verified subject name available from client");
    if (user && !user->empty() && *user != subject)
        return Status(ErrorCodes::AuthenticationFailed,
                      "There is no x.509 client certificate matching the user.");
    if (!client->isTls())
        return Status(ErrorCodes::ProtocolError,
                      "SSL support is required for the MONGODB-X509 mechanism.");
    if (db != "$external")
        return Status(ErrorCodes::ProtocolError,
                      "X.509 authentication must always use the $external database.");
    UserName name{subject, db};
    auto doc = AuthorizationManager::get().findDoc(opCtx, AuthCollection::kUsers, name.docId());
    if (opCtx->recoveryUnit() && !opCtx->recoveryUnit()->inUnitOfWork())
        opCtx->recoveryUnit()->abandonSnapshot();
    if (!doc)
        return Status(ErrorCodes::UserNotFound,
                      "Could not find user \"" + subject + "\" for db \"" + db + "\"");
    return subject;
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
        LOGV2_OPTIONS(
            5286306, logv2::Component::kAccessControl, "Successfully authenticated",
            BSON("client" << remoteOf(opCtx) << "isSpeculative"
                          << (speculative == Speculative::kYes) << "isClusterMember" << false
                          << "mechanism" << conv.mechanism << "user" << scram.userName() << "db"
                          << conv.db << "result" << 0 << "extraInfo" << BSONObj()));
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
    if (mechanism == kMechanismX509) {
        // Payload: an optional BSON document {user: "<subject>"}; one step, empty reply.
        const std::string payload = payloadOf(cmd);
        std::optional<std::string> user;
        if (!payload.empty()) {
            uassert(ErrorCodes::BadValue, "Invalid MONGODB-X509 payload",
                    validateBSON(payload.data(), payload.size()).isOK());
            BSONObj doc = BSONObj::copyFrom(payload.data(), static_cast<int>(payload.size()));
            if (doc["user"].type() == BSONType::kString)
                user = std::string(doc["user"].valueStringData());
        }
        BSONObjBuilder ignored;
        try {
            authenticateX509(opCtx, db, user, speculative, &ignored);
        } catch (const DBException& ex) {
            if (ex.code() == ErrorCodes::ProtocolError)
                throw;
            uasserted(ErrorCodes::AuthenticationFailed, "Authentication failed.");
        }
        result->append("conversationId", session->nextConversationId());
        result->append("done", true);
        appendPayload(result, std::string());
        return;
    }
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
        a,
        [opCtx, db, a](const std::string& user) { return lookupCredentials(opCtx, db, a, user); });
    const bool skipEmpty = cmd["options"].type() == BSONType::kObject &&
                           cmd["options"].embeddedObject()["skipEmptyExchange"].trueValue();
    conv->skipEmptyExchange = skipEmpty;
    session->conversation() = std::move(conv);
    replyToStep(opCtx, session, speculative, payload, result);
    if (opCtx->recoveryUnit() && !opCtx->recoveryUnit()->inUnitOfWork())
        opCtx->recoveryUnit()->abandonSnapshot();
}

void authenticateX509(OperationContext* opCtx, const std::string& db,
                      const std::optional<std::string>& user, Speculative speculative,
                      BSONObjBuilder* result) {
    auto* session = AuthorizationSession::get(opCtx->getClient());
    uassert(ErrorCodes::AuthenticationFailed, "Authentication requires a client connection",
            session);
    auto name = checkX509(opCtx, db, user);
    if (!name.isOK()) {
        recordFailure(opCtx, session, std::string(kMechanismX509), user.value_or(""), db,
                      speculative, name.getStatus());
        uassertStatusOK(name.getStatus());
    }
    session->addUser(opCtx, UserName{name.getValue(), db});
    logSuccess(opCtx, speculative, kMechanismX509, name.getValue(), db);
    result->append("user", name.getValue());
    result->append("dbname", db);
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
    for (auto e : (*doc)["credentials"].embeddedObject()) {
        if (e.fieldNameStringData() != "external")  // $external users have no SASL secret
            out.emplace_back(e.fieldNameStringData());
    }
    return out;
}

}  // namespace mongo::auth
