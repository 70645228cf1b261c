// Message: the owning buffer of one wire-protocol message (16-byte header plus
// body), with header accessors. The buffer is shared and immutable once handed
// to a parser, so BSONObjs parsed out of it can keep it alive without copying.
// Layout (all little-endian int32): messageLength, requestID, responseTo, opCode.
// See src/mongo/rpc/README.md.
//
// Thread safety: a Message is a value; distinct copies may be used from
// different threads, but they share the bytes (do not mutate a shared one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "mongo/base/string_data.h"

namespace mongo {

/** Wire opcodes (upstream's NetworkOp names). */
enum NetworkOp : std::int32_t {
    opInvalid = 0,
    opReply = 1,
    dbUpdate = 2001,
    dbInsert = 2002,
    dbQuery = 2004,
    dbGetMore = 2005,
    dbDelete = 2006,
    dbKillCursors = 2007,
    dbCompressed = 2012,
    dbMsg = 2013,
};

/** Upstream's name for an opcode ("query", "msg", ...), or "unknown". */
StringData networkOpToString(NetworkOp op);

constexpr int kMsgHeaderSize = 16;
/** maxMessageSizeBytes advertised in hello; larger frames close the connection. */
constexpr int kMaxMessageSizeBytes = 48'000'000;

class Message {
public:
    /** An empty message (no buffer); `empty()` is true. */
    Message() = default;

    /**
     * Takes `buf`, which holds a whole message; its first int32 must be its length.
     * REQUIRES: the buffer holds at least kMsgHeaderSize bytes and getLen() bytes.
     */
    explicit Message(std::shared_ptr<char[]> buf) : _buf(std::move(buf)) {}

    /** A message of `len` zeroed bytes (len >= kMsgHeaderSize) whose length field is set. */
    static Message allocate(std::int32_t len);
    /** A copy of `len` bytes of a whole message (header included). */
    static Message copyFrom(const char* data, std::size_t len);

    /**
     * Replaces the contents with a header for `op` followed by `bodyLen` bytes of `body`.
     * The request id is set to nextMessageId(), responseTo to 0.
     */
    void setData(NetworkOp op, const char* body, std::size_t bodyLen);

    bool empty() const {
        return !_buf;
    }
    void reset() {
        _buf.reset();
    }

    std::int32_t getLen() const;
    std::int32_t getId() const;
    std::int32_t getResponseToMsgId() const;
    NetworkOp operation() const;

    void setId(std::int32_t id);
    void setResponseToMsgId(std::int32_t id);

    /** The whole message (header included), getLen() bytes. */
    const char* buf() const {
        return _buf.get();
    }
    char* mutableBuf() {
        return _buf.get();
    }
    /** The body (after the header) and its size. */
    const char* data() const {
        return _buf.get() + kMsgHeaderSize;
    }
    int dataLen() const {
        return getLen() - kMsgHeaderSize;
    }
    /** The owning buffer, for BSONObjs that view into this message. */
    std::shared_ptr<const char[]> sharedBuffer() const {
        return _buf;
    }

private:
    std::shared_ptr<char[]> _buf;
};

/** A process-wide increasing request id for messages this server sends. */
std::int32_t nextMessageId();

}  // namespace mongo
