#include "mongo/rpc/message.h"

#include <atomic>
#include <cstring>

namespace mongo {

namespace {
std::int32_t readInt32(const char* p) {
    std::int32_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
}
void writeInt32(char* p, std::int32_t v) {
    std::memcpy(p, &v, sizeof(v));
}
}  // namespace

StringData networkOpToString(NetworkOp op) {
    switch (op) {
        case opReply:
            return "reply";
        case dbUpdate:
            return "update";
        case dbInsert:
            return "insert";
        case dbQuery:
            return "query";
        case dbGetMore:
            return "getmore";
        case dbDelete:
            return "remove";
        case dbKillCursors:
            return "killcursors";
        case dbCompressed:
            return "compressed";
        case dbMsg:
            return "msg";
        default:
            return "unknown";
    }
}

Message Message::allocate(std::int32_t len) {
    std::shared_ptr<char[]> buf(new char[len]());
    writeInt32(buf.get(), len);
    return Message(std::move(buf));
}

Message Message::copyFrom(const char* data, std::size_t len) {
    std::shared_ptr<char[]> buf(new char[len]);
    std::memcpy(buf.get(), data, len);
    return Message(std::move(buf));
}

void Message::setData(NetworkOp op, const char* body, std::size_t bodyLen) {
    const auto len = static_cast<std::int32_t>(kMsgHeaderSize + bodyLen);
    *this = allocate(len);
    writeInt32(_buf.get() + 4, nextMessageId());
    writeInt32(_buf.get() + 8, 0);
    writeInt32(_buf.get() + 12, op);
    if (bodyLen)
        std::memcpy(_buf.get() + kMsgHeaderSize, body, bodyLen);
}

std::int32_t Message::getLen() const {
    return readInt32(_buf.get());
}
std::int32_t Message::getId() const {
    return readInt32(_buf.get() + 4);
}
std::int32_t Message::getResponseToMsgId() const {
    return readInt32(_buf.get() + 8);
}
NetworkOp Message::operation() const {
    return static_cast<NetworkOp>(readInt32(_buf.get() + 12));
}
void Message::setId(std::int32_t id) {
    writeInt32(_buf.get() + 4, id);
}
void Message::setResponseToMsgId(std::int32_t id) {
    writeInt32(_buf.get() + 8, id);
}

std::int32_t nextMessageId() {
    static std::atomic<std::int32_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace mongo
