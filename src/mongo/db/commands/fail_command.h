// The failCommand fail point (as drivers' tests use it) and the error labels of command
// replies. The dispatcher calls evaluateFailCommandBeforeRun() before a command runs,
// appendFailCommandWriteConcernError() after it succeeded and appendErrorLabels() on an
// error reply. failCommand's data: failCommands (names), closeConnection, errorCode,
// errorExtraInfo, errorLabels, blockConnection + blockTimeMS, writeConcernError, appName,
// namespace, threadName, failInternalCommands.
#pragma once

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

class Command;
class ErrorExtraInfo;
class OperationContext;
struct CommandRequest;

/**
 * When failCommand is on for this command: blocks for blockTimeMS (blockConnection), then
 * closes the connection without a reply (closeConnection, code 50985 on the thread) or
 * throws `errorCode` (with errorLabels/errorExtraInfo when given). Never for
 * configureFailPoint.
 */
void evaluateFailCommandBeforeRun(OperationContext* opCtx, const CommandRequest& req,
                                  const Command& cmd);

/** When failCommand has a writeConcernError for this command: appends it (and labels). */
void appendFailCommandWriteConcernError(OperationContext* opCtx, const CommandRequest& req,
                                        const Command& cmd, BSONObjBuilder& reply);

/**
 * Appends errorLabels to an error reply as upstream: ["RetryableWriteError"] when `req` is a
 * retryable write (lsid + txnNumber, no multi-document transaction) and the error is a
 * retryable one; nothing when `extra` already carries failCommand's own labels.
 */
void appendErrorLabels(const CommandRequest& req, const Status& status, const ErrorExtraInfo* extra,
                       BSONObjBuilder& reply);

}  // namespace mongo
