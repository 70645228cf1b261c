// The server side of SASL authentication commands (saslStart, saslContinue, and the
// speculativeAuthenticate of hello): runs the connection's SCRAM conversation, marks the
// connection authenticated on success, logs the outcome in upstream's shape (ids 5286306
// "Successfully authenticated", 20249 "Authentication failed"), and delays a failure by
// authFailedDelayMs, doubled per failure on that connection (never holding a lock).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
class OperationContext;
}

namespace mongo::auth {

enum class Speculative { kNo, kYes };

/**
 * saslStart on `db`: appends {conversationId, done, payload} to `result`. Throws
 * AuthenticationFailed 18 (unknown user, wrong proof, malformed message), or
 * MechanismUnavailable 334 for a mechanism other than SCRAM-SHA-1/SCRAM-SHA-256.
 */
void runSaslStart(OperationContext* opCtx, const std::string& db, const BSONObj& cmd,
                  Speculative speculative, BSONObjBuilder* result);
/** saslContinue: the next step of the conversation started by runSaslStart. */
void runSaslContinue(OperationContext* opCtx, const std::string& db, const BSONObj& cmd,
                     BSONObjBuilder* result);

/**
 * MONGODB-X509 (the `authenticate` command, its speculative form in hello, and saslStart with
 * that mechanism): authenticates the connection as the RFC 2253 subject of its verified client
 * certificate, a user on $external. `user`, when given, must equal the subject. Appends
 * {user, dbname} to `result`. Throws (upstream's codes and messages, before the command's own
 * mapping): AuthenticationFailed "No verified subject name available from client" (no
 * verified certificate) or "There is no x.509 client certificate matching the user.";
 * ProtocolError "X.509 authentication must always use the $external database."; UserNotFound
 * when $external has no such user. Failures are logged and delayed like SASL ones.
 */
void authenticateX509(OperationContext* opCtx, const std::string& db,
                      const std::optional<std::string>& user, Speculative speculative,
                      BSONObjBuilder* result);

inline constexpr StringData kMechanismX509 = "MONGODB-X509";

/** The SCRAM mechanisms `user` ("db.user") has credentials for; empty when unknown. */
std::vector<std::string> saslSupportedMechs(OperationContext* opCtx, StringData dbDotUser);

}  // namespace mongo::auth
