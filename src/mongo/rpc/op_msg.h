// OP_MSG (opcode 2013): parsing of requests and building of replies.
// Layout: uint32 flagBits; sections (kind 0: one BSON body; kind 1: int32 size,
// cstring identifier, BSON documents); optional CRC-32C of everything before it
// when flag bit 0 (checksumPresent) is set. See src/mongo/rpc/README.md.
//
// Documents parsed from a Message share its buffer (no copy of large inserts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/rpc/message.h"

namespace mongo {

/** A kind-1 section: `documents` etc. sent outside the body. */
struct DocumentSequence {
    std::string name;
    std::vector<BSONObj> objs;
};

struct OpMsgRequest {
    // flagBits. Bits 0-15 are "required": an unknown one fails the parse.
    static constexpr std::uint32_t kChecksumPresent = 1u << 0;
    static constexpr std::uint32_t kMoreToCome = 1u << 1;
    static constexpr std::uint32_t kExhaustAllowed = 1u << 16;

    std::uint32_t flags = 0;
    BSONObj body;
    std::vector<DocumentSequence> sequences;

    /**
     * Parses an OP_MSG. Errors:
     *  - IllegalOpMsgFlag (223): an unknown bit among bits 0-15;
     *  - ChecksumMismatch (288): CRC-32C present and wrong;
     *  - InvalidBSON (22): a document that fails validateBSON or overruns its section;
     *  - ProtocolError (17): wrong opcode, truncated message or section, unknown section kind;
     *  - Location40430 (two bodies), Location40587 (no body),
     *    Location40431 (duplicate sequence name),
     *    Location40433 (sequence name also present in the body).
     * Cost: O(message size) (checksum and BSON validation).
     */
    static StatusWith<OpMsgRequest> parse(const Message& message);

    /** The `$db` field of the body, or "" when absent. */
    std::string getDatabase() const;
    /** The first field name of the body (the command name), or "". */
    StringData getCommandName() const;

    bool isMoreToCome() const {
        return flags & kMoreToCome;
    }
    bool isExhaustAllowed() const {
        return flags & kExhaustAllowed;
    }

    /** The kind-1 sequence named `name`, or nullptr. */
    const DocumentSequence* getSequence(StringData name) const;

    /**
     * The documents of argument `name` whichever way they were sent: the kind-1
     * sequence, or else an array of objects in the body. Returns an empty vector if
     * neither is present; TypeMismatch (14) if the body field is not an array of
     * objects.
     */
    StatusWith<std::vector<BSONObj>> getDocuments(StringData name) const;

    /**
     * The body with every sequence appended as an array field. Convenient for small
     * commands; the result may exceed 16 MB for large batches (prefer getDocuments()).
     */
    BSONObj asCommandObject() const;

    /**
     * Serialises this request as an OP_MSG (sequences as kind-1 sections). Appends a
     * CRC-32C when `flags` has kChecksumPresent. Used by tests and internal clients.
     */
    Message serialize() const;
};

/** An OP_MSG with one kind-0 section holding `reply`. responseTo is left 0. */
Message buildOpMsgReply(const BSONObj& reply, std::uint32_t flags = 0);

}  // namespace mongo
