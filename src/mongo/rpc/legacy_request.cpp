#include "mongo/rpc/legacy_request.h"

#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

namespace {

Status truncated(StringData what) {
    return Status(ErrorCodes::ProtocolError, std::string(what) + " message is truncated");
}

// Reads a BSON document at [p, end) sharing `holder`; advances p.
Status readDoc(const std::shared_ptr<const char[]>& holder, const char*& p, const char* end,
               BSONObj* out) {
    if (end - p < 5)
        return Status(ErrorCodes::InvalidBSON, "document truncated before its length");
    const auto len = readLE<std::int32_t>(p);
    if (len < 5 || len > end - p)
        return Status(ErrorCodes::InvalidBSON, "document length overruns the message");
    Status s = validateBSON(p, static_cast<std::size_t>(len));
    if (!s.isOK())
        return s;
    *out = BSONObj(holder, p);
    p += len;
    return Status::OK();
}

}  // namespace

StatusWith<QueryMessage> QueryMessage::parse(const Message& message) {
    if (message.empty() || message.operation() != dbQuery)
        return Status(ErrorCodes::ProtocolError, "not an OP_QUERY message");
    const char* p = message.data();
    const char* end = message.buf() + message.getLen();
    QueryMessage q;
    if (end - p < 4)
        return truncated("OP_QUERY");
    q.flags = readLE<std::int32_t>(p);
    p += 4;
    auto nul = static_cast<const char*>(std::memchr(p, 0, end - p));
    if (!nul)
        return truncated("OP_QUERY");
    q.ns.assign(p, nul - p);
    p = nul + 1;
    if (end - p < 8)
        return truncated("OP_QUERY");
    q.numberToSkip = readLE<std::int32_t>(p);
    q.numberToReturn = readLE<std::int32_t>(p + 4);
    p += 8;
    const auto holder = message.sharedBuffer();
    Status s = readDoc(holder, p, end, &q.query);
    if (!s.isOK())
        return s;
    if (p < end) {
        s = readDoc(holder, p, end, &q.fields);
        if (!s.isOK())
            return s;
        if (p != end)
            return Status(ErrorCodes::ProtocolError, "OP_QUERY has trailing bytes");
    }
    return q;
}

std::string QueryMessage::getDatabase() const {
    auto dot = ns.find('.');
    return dot == std::string::npos ? ns : ns.substr(0, dot);
}

bool QueryMessage::isCommand() const {
    auto dot = ns.find('.');
    return dot != std::string::npos && dot > 0 && StringData(ns).substr(dot + 1) == "$cmd";
}

Message buildOpQuery(StringData ns, const BSONObj& query, std::int32_t numberToReturn,
                     std::int32_t flags) {
    BufBuilder bb;
    bb.appendNum<std::int32_t>(flags);
    bb.appendStr(ns);
    bb.appendNum<std::int32_t>(0);
    bb.appendNum<std::int32_t>(numberToReturn);
    bb.appendBuf(query.objdata(), query.objsize());
    Message m;
    m.setData(dbQuery, bb.buf(), bb.len());
    return m;
}

Message buildOpReply(const BSONObj& doc, std::int32_t responseFlags) {
    BufBuilder bb;
    bb.appendNum<std::int32_t>(responseFlags);
    bb.appendNum<std::int64_t>(0);  // cursorID
    bb.appendNum<std::int32_t>(0);  // startingFrom
    bb.appendNum<std::int32_t>(1);  // numberReturned
    bb.appendBuf(doc.objdata(), doc.objsize());
    Message m;
    m.setData(opReply, bb.buf(), bb.len());
    return m;
}

StatusWith<ReplyMessage> ReplyMessage::parse(const Message& message) {
    if (message.empty() || message.operation() != opReply)
        return Status(ErrorCodes::ProtocolError, "not an OP_REPLY message");
    if (message.dataLen() < 20)
        return truncated("OP_REPLY");
    const char* p = message.data();
    const char* end = message.buf() + message.getLen();
    ReplyMessage r;
    r.responseFlags = readLE<std::int32_t>(p);
    r.cursorId = readLE<std::int64_t>(p + 4);
    r.startingFrom = readLE<std::int32_t>(p + 12);
    const auto n = readLE<std::int32_t>(p + 16);
    p += 20;
    const auto holder = message.sharedBuffer();
    for (std::int32_t i = 0; i < n; ++i) {
        BSONObj o;
        Status s = readDoc(holder, p, end, &o);
        if (!s.isOK())
            return s;
        r.documents.push_back(std::move(o));
    }
    if (p != end)
        return Status(ErrorCodes::ProtocolError, "OP_REPLY has trailing bytes");
    return r;
}

}  // namespace mongo
