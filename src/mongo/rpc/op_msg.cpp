#include "mongo/rpc/op_msg.h"

#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/crc32c.h"

namespace mongo {

namespace {

constexpr std::uint32_t kKnownRequiredFlags =
    OpMsgRequest::kChecksumPresent | OpMsgRequest::kMoreToCome;
constexpr std::uint32_t kRequiredFlagsMask = 0xFFFF;

constexpr std::uint8_t kSectionBody = 0;
constexpr std::uint8_t kSectionSequence = 1;

Status protocolError(std::string msg) {
    return Status(ErrorCodes::ProtocolError, std::move(msg));
}
Status location(int code, std::string msg) {
    return Status(static_cast<ErrorCodes::Error>(code), std::move(msg));
}

// Reads one BSON document at [p, end). On success sets *out (sharing `holder`)
// and *size to the document's length.
Status readDocument(const std::shared_ptr<const char[]>& holder, const char* p, const char* end,
                    BSONObj* out, int* size) {
    if (end - p < 4)
        return Status(ErrorCodes::InvalidBSON, "OP_MSG document truncated before its length");
    std::int32_t len;
    std::memcpy(&len, p, 4);
    if (len < 5 || len > end - p)
        return Status(ErrorCodes::InvalidBSON, "OP_MSG document length overruns its section");
    Status s = validateBSON(p, static_cast<std::size_t>(len));
    if (!s.isOK())
        return s;
    *out = BSONObj(holder, p);
    *size = len;
    return Status::OK();
}

Status parseSequence(const std::shared_ptr<const char[]>& holder, const char* p, const char* end,
                     DocumentSequence* seq, int* consumed) {
    if (end - p < 4)
        return protocolError("OP_MSG document sequence truncated before its size");
    std::int32_t size;
    std::memcpy(&size, p, 4);
    if (size < 5 || size > end - p)
        return protocolError("OP_MSG document sequence size is invalid");
    const char* secEnd = p + size;
    const char* name = p + 4;
    auto nul = static_cast<const char*>(std::memchr(name, 0, secEnd - name));
    if (!nul)
        return protocolError("OP_MSG document sequence identifier is not terminated");
    seq->name.assign(name, nul - name);
    for (const char* d = nul + 1; d < secEnd;) {
        BSONObj obj;
        int len = 0;
        Status s = readDocument(holder, d, secEnd, &obj, &len);
        if (!s.isOK())
            return s;
        seq->objs.push_back(std::move(obj));
        d += len;
    }
    *consumed = size;
    return Status::OK();
}

}  // namespace

StatusWith<OpMsgRequest> OpMsgRequest::parse(const Message& message) {
    if (message.empty() || message.operation() != dbMsg)
        return protocolError("not an OP_MSG message");
    if (message.dataLen() < 4)
        return protocolError("OP_MSG message is too short for its flags");
    OpMsgRequest req;
    std::memcpy(&req.flags, message.data(), 4);
    const std::uint32_t unknown = req.flags & kRequiredFlagsMask & ~kKnownRequiredFlags;
    if (unknown) {
        int bit = __builtin_ctz(unknown);
        return Status(ErrorCodes::IllegalOpMsgFlag,
                      "Message contains illegal flags value: Flag " + std::to_string(bit));
    }

    const char* end = message.buf() + message.getLen();
    if (req.flags & kChecksumPresent) {
        if (message.dataLen() < 8)
            return protocolError("OP_MSG message is too short for its checksum");
        end -= 4;
        std::uint32_t expected;
        std::memcpy(&expected, end, 4);
        if (crc32c(message.buf(), end - message.buf()) != expected)
            return Status(ErrorCodes::ChecksumMismatch, "OP_MSG checksum does not match contents");
    }

    const auto holder = message.sharedBuffer();
    bool haveBody = false;
    for (const char* p = message.data() + 4; p < end;) {
        const auto kind = static_cast<std::uint8_t>(*p++);
        if (kind == kSectionBody) {
            if (haveBody)
                return location(40430, "Multiple body sections in message");
            int len = 0;
            Status s = readDocument(holder, p, end, &req.body, &len);
            if (!s.isOK())
                return s;
            haveBody = true;
            p += len;
        } else if (kind == kSectionSequence) {
            DocumentSequence seq;
            int len = 0;
            Status s = parseSequence(holder, p, end, &seq, &len);
            if (!s.isOK())
                return s;
            if (req.getSequence(seq.name))
                return location(40431, "Duplicate document sequence: " + seq.name);
            req.sequences.push_back(std::move(seq));
            p += len;
        } else {
            return location(40432, "Unknown section kind " + std::to_string(kind));
        }
    }
    if (!haveBody)
        return location(40587, "OP_MSG messages must have a body");
    for (const auto& seq : req.sequences) {
        if (req.body.hasField(seq.name))
            return location(40433,
                            "Duplicate field between body and document sequence " + seq.name);
    }
    return req;
}

std::string OpMsgRequest::getDatabase() const {
    BSONElement db = body["$db"];
    return db.type() == BSONType::kString ? db.str() : std::string();
}

StringData OpMsgRequest::getCommandName() const {
    return body.isEmpty() ? StringData() : body.firstElementFieldNameStringData();
}

const DocumentSequence* OpMsgRequest::getSequence(StringData name) const {
    for (const auto& seq : sequences)
        if (seq.name == name)
            return &seq;
    return nullptr;
}

StatusWith<std::vector<BSONObj>> OpMsgRequest::getDocuments(StringData name) const {
    if (const DocumentSequence* seq = getSequence(name))
        return seq->objs;
    std::vector<BSONObj> out;
    BSONElement field = body[name];
    if (field.eoo())
        return out;
    if (field.type() != BSONType::kArray)
        return Status(ErrorCodes::TypeMismatch,
                      "BSON field '" + std::string(name) + "' is the wrong type, expected array");
    for (BSONElement e : field.embeddedObject()) {
        if (e.type() != BSONType::kObject)
            return Status(ErrorCodes::TypeMismatch,
                          "BSON field '" + std::string(name) + "' must be an array of objects");
        // Share the body's buffer so the documents outlive this request.
        out.push_back(body.isOwned() ? BSONObj(body.sharedBuffer(), e.value())
                                     : BSONObj(e.value()));
    }
    return out;
}

BSONObj OpMsgRequest::asCommandObject() const {
    if (sequences.empty())
        return body;
    BSONObjBuilder b;
    b.appendElements(body);
    for (const auto& seq : sequences) {
        BSONArrayBuilder arr(b.subarrayStart(seq.name));
        for (const auto& o : seq.objs)
            arr.append(o);
    }
    return b.obj();
}

Message OpMsgRequest::serialize() const {
    BufBuilder bb;
    bb.appendNum<std::uint32_t>(flags);
    bb.appendChar(static_cast<char>(kSectionBody));
    bb.appendBuf(body.objdata(), body.objsize());
    for (const auto& seq : sequences) {
        bb.appendChar(static_cast<char>(kSectionSequence));
        const int sizeOffset = bb.len();
        bb.appendNum<std::int32_t>(0);
        bb.appendStr(seq.name);
        for (const auto& o : seq.objs)
            bb.appendBuf(o.objdata(), o.objsize());
        writeLE<std::int32_t>(bb.buf() + sizeOffset, bb.len() - sizeOffset);
    }
    const bool checksum = flags & kChecksumPresent;
    if (checksum)
        bb.appendNum<std::uint32_t>(0);
    Message msg;
    msg.setData(dbMsg, bb.buf(), bb.len());
    if (checksum) {
        const std::size_t covered = msg.getLen() - 4;
        writeLE<std::uint32_t>(msg.mutableBuf() + covered, crc32c(msg.buf(), covered));
    }
    return msg;
}

Message buildOpMsgReply(const BSONObj& reply, std::uint32_t flags) {
    OpMsgRequest msg;
    msg.flags = flags;
    msg.body = reply;
    return msg.serialize();
}

}  // namespace mongo
