// Turns a request Message of any supported protocol into one command invocation,
// and builds the reply in the protocol the request came in. A ServiceEntryPoint
// implementation calls these; the command dispatcher never sees wire formats.
//
//   auto in = rpc::parseCommandInvocation(request);          // OP_MSG / OP_QUERY / OP_COMPRESSED
//   if (!in.isOK()) return {rpc::makeErrorReply(request, in.getStatus())};
//   BSONObj reply = dispatch(in.getValue());
//   if (in.getValue().moreToCome) return {};                 // no reply
//   return {rpc::makeCommandReply(in.getValue(), reply)};
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/rpc/message.h"
#include "mongo/rpc/op_msg.h"

namespace mongo::rpc {

struct CommandInvocationInput {
    std::string db;                           // from $db (OP_MSG) or the ns (OP_QUERY)
    BSONObj body;                             // the command; first field is its name
    std::vector<DocumentSequence> sequences;  // kind-1 sections (OP_MSG only)
    bool legacyOpQuery = false;               // reply with OP_REPLY
    bool moreToCome = false;                  // send no reply
    bool exhaustAllowed = false;
    std::int32_t requestId = 0;

    StringData commandName() const {
        return body.isEmpty() ? StringData() : body.firstElementFieldNameStringData();
    }
    /** The documents of `name` from the sequence or the body array (see OpMsgRequest). */
    StatusWith<std::vector<BSONObj>> getDocuments(StringData name) const;
};

/**
 * Parses `request`:
 *  - OP_MSG: OpMsgRequest::parse; db from `$db` (missing or not a string:
 *    Location40571, as upstream).
 *  - OP_QUERY on "<db>.$cmd": the query, unwrapped from `$query`/`query` when wrapped
 *    (a sibling `$readPreference` is copied into the body), and `$db` is appended
 *    so that OP_MSG and OP_QUERY bodies look alike. Only isMaster/ismaster/hello
 *    are accepted: others fail with UnsupportedOpQueryCommand (352). OP_QUERY on a
 *    non-$cmd namespace fails with Location5739101.
 *  - OP_COMPRESSED: decompressed first, then as above.
 *  - any other opcode: Location5739101 ("unsupported opcode"), as upstream does for
 *    removed legacy opcodes.
 * Errors from the OP_MSG/OP_QUERY parsers are passed through.
 */
StatusWith<CommandInvocationInput> parseCommandInvocation(const Message& request);

/** OP_REPLY (flags 8) for legacy OP_QUERY requests, OP_MSG otherwise; responseTo set. */
Message makeCommandReply(const CommandInvocationInput& input, const BSONObj& reply);

/**
 * An error reply for a request that could not be parsed: `{ok: 0, errmsg, code, codeName}`
 * in OP_REPLY for OP_QUERY requests, OP_MSG otherwise; responseTo = request id.
 */
Message makeErrorReply(const Message& request, const Status& status);

/** `{ok: 0.0, errmsg, code, codeName}` for `status`. */
BSONObj errorResponseObject(const Status& status);

/** True for codes after which the connection must be closed without a reply
 *  (IllegalOpMsgFlag, ChecksumMismatch: upstream's ConnectionFatalMessageParseError). */
bool isConnectionFatalMessageParseError(ErrorCodes::Error code);

}  // namespace mongo::rpc
