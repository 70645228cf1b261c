// Legacy opcodes: OP_QUERY (2004) requests, which every driver still uses for its
// first `isMaster` handshake, and OP_REPLY (1) replies.
// OP_QUERY body: int32 flags, cstring fullCollectionName, int32 numberToSkip,
// int32 numberToReturn, BSON query, [BSON returnFieldsSelector].
// OP_REPLY body: int32 responseFlags, int64 cursorID, int32 startingFrom,
// int32 numberReturned, documents.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/rpc/message.h"

namespace mongo {

/** OP_REPLY responseFlags bits. */
constexpr std::int32_t kResultFlagCursorNotFound = 1;
constexpr std::int32_t kResultFlagErrSet = 2;
constexpr std::int32_t kResultFlagShardConfigStale = 4;
constexpr std::int32_t kResultFlagAwaitCapable = 8;

struct QueryMessage {
    std::int32_t flags = 0;
    std::string ns;  // "admin.$cmd"
    std::int32_t numberToSkip = 0;
    std::int32_t numberToReturn = 0;
    BSONObj query;   // shares the message buffer
    BSONObj fields;  // empty when absent

    /**
     * Parses an OP_QUERY. Errors: ProtocolError (17) for a wrong opcode or a
     * truncated message, InvalidBSON (22) for a bad query or selector document.
     */
    static StatusWith<QueryMessage> parse(const Message& message);

    /** The database part of ns ("admin" for "admin.$cmd"). */
    std::string getDatabase() const;
    /** True when ns is "<db>.$cmd". */
    bool isCommand() const;
};

/** An OP_QUERY message (for tests and internal clients). */
Message buildOpQuery(StringData ns, const BSONObj& query, std::int32_t numberToReturn = -1,
                     std::int32_t flags = 0);

/** An OP_REPLY carrying one document: cursorID 0, startingFrom 0, numberReturned 1. */
Message buildOpReply(const BSONObj& doc, std::int32_t responseFlags = kResultFlagAwaitCapable);

struct ReplyMessage {
    std::int32_t responseFlags = 0;
    std::int64_t cursorId = 0;
    std::int32_t startingFrom = 0;
    std::vector<BSONObj> documents;

    /** Parses an OP_REPLY (ProtocolError, InvalidBSON). Used by tests and clients. */
    static StatusWith<ReplyMessage> parse(const Message& message);
};

}  // namespace mongo
