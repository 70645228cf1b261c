// The server side of SASL authentication commands (saslStart, saslContinue, and the
// speculativeAuthenticate of hello): runs the connection's SCRAM conversation, marks the
// connection authenticated on success, logs the outcome in upstream's shape (ids 5286306
// "Successfully authenticated", 20249 "Authentication failed"), and delays a failure by
// authFailedDelayMs, doubled per failure on that connection (never holding a lock).
#pragma once

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

/** The SCRAM mechanisms `user` ("db.user") has credentials for; empty when unknown. */
std::vector<std::string> saslSupportedMechs(OperationContext* opCtx, StringData dbDotUser);

}  // namespace mongo::auth
