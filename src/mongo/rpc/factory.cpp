#include "mongo/rpc/factory.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/legacy_request.h"
#include "mongo/rpc/message_compressor.h"

namespace mongo::rpc {

namespace {

constexpr int kLegacyOpcodeRemoved = 5739101;
constexpr int kMissingDollarDb = 40571;

const char* const kLegacyRemovedMsg =
    " is no longer supported. The client driver may require an upgrade. For more details see "
    "https://dochub.mongodb.org/core/legacy-opcode-removal";

bool isHelloCommand(StringData name) {
    return name == "isMaster" || name == "ismaster" || name == "hello";
}

StatusWith<CommandInvocationInput> fromOpMsg(const Message& request) {
    auto parsed = OpMsgRequest::parse(request);
    if (!parsed.isOK())
        return parsed.getStatus();
    OpMsgRequest& msg = parsed.getValue();
    BSONElement db = msg.body["$db"];
    if (db.type() != BSONType::kString)
        return Status(static_cast<ErrorCodes::Error>(kMissingDollarDb),
                      "OP_MSG requests require a $db argument");
    CommandInvocationInput in;
    in.db = db.str();
    in.body = std::move(msg.body);
    in.sequences = std::move(msg.sequences);
    in.moreToCome = msg.isMoreToCome();
    in.exhaustAllowed = msg.isExhaustAllowed();
    in.requestId = request.getId();
    return in;
}

// The command inside an OP_QUERY: {$query|query: {...}, $readPreference: ...} or bare.
BSONObj unwrapLegacyQuery(const BSONObj& query, StringData db) {
    BSONObj cmd = query;
    BSONElement first = query.firstElement();
    const bool wrapped =
        first.type() == BSONType::kObject &&
        (first.fieldNameStringData() == "$query" || first.fieldNameStringData() == "query");
    if (wrapped)
        cmd = first.embeddedObject();
    BSONObjBuilder b;
    b.appendElements(cmd);
    if (wrapped) {
        BSONElement rp = query["$readPreference"];
        if (!rp.eoo() && !cmd.hasField("$readPreference"))
            b.append(rp);
    }
    if (!cmd.hasField("$db"))
        b.append("$db", db);
    return b.obj();
}

StatusWith<CommandInvocationInput> fromOpQuery(const Message& request) {
    auto parsed = QueryMessage::parse(request);
    if (!parsed.isOK())
        return parsed.getStatus();
    const QueryMessage& q = parsed.getValue();
    if (!q.isCommand())
        return Status(static_cast<ErrorCodes::Error>(kLegacyOpcodeRemoved),
                      std::string("OP_QUERY") + kLegacyRemovedMsg);
    CommandInvocationInput in;
    in.db = q.getDatabase();
    in.body = unwrapLegacyQuery(q.query, in.db);
    in.legacyOpQuery = true;
    in.requestId = request.getId();
    if (!isHelloCommand(in.commandName()))
        return Status(ErrorCodes::UnsupportedOpQueryCommand,
                      "Unsupported OP_QUERY command: " + std::string(in.commandName()) +
                          ". The client driver may require an upgrade. For more details see "
                          "https://dochub.mongodb.org/core/legacy-opcode-removal");
    return in;
}

}  // namespace

StatusWith<std::vector<BSONObj>> CommandInvocationInput::getDocuments(StringData name) const {
    OpMsgRequest view;
    view.body = body;
    view.sequences = sequences;  // BSONObj copies share buffers: cheap except the vector
    return view.getDocuments(name);
}

StatusWith<CommandInvocationInput> parseCommandInvocation(const Message& request) {
    if (request.empty())
        return Status(ErrorCodes::ProtocolError, "empty message");
    switch (request.operation()) {
        case dbMsg:
            return fromOpMsg(request);
        case dbQuery:
            return fromOpQuery(request);
        case dbCompressed: {
            auto inner = decompressMessage(request);
            if (!inner.isOK())
                return inner.getStatus();
            return parseCommandInvocation(inner.getValue());
        }
        default:
            return Status(
                static_cast<ErrorCodes::Error>(kLegacyOpcodeRemoved),
                "Unsupported opcode " + std::to_string(request.operation()) + kLegacyRemovedMsg);
    }
}

Message makeCommandReply(const CommandInvocationInput& input, const BSONObj& reply) {
    Message m = input.legacyOpQuery ? buildOpReply(reply) : buildOpMsgReply(reply);
    m.setResponseToMsgId(input.requestId);
    return m;
}

BSONObj errorResponseObject(const Status& status) {
    BSONObjBuilder b;
    b.append("ok", 0.0);
    b.append("errmsg", status.reason());
    b.append("code", static_cast<int>(status.code()));
    b.append("codeName", status.codeString());
    return b.obj();
}

Message makeErrorReply(const Message& request, const Status& status) {
    NetworkOp op = request.empty() ? opInvalid : request.operation();
    if (op == dbCompressed && request.dataLen() >= 4)
        op = static_cast<NetworkOp>(readLE<std::int32_t>(request.data()));
    const BSONObj doc = errorResponseObject(status);
    Message m = op == dbQuery ? buildOpReply(doc) : buildOpMsgReply(doc);
    if (!request.empty())
        m.setResponseToMsgId(request.getId());
    return m;
}

bool isConnectionFatalMessageParseError(ErrorCodes::Error code) {
    return code == ErrorCodes::IllegalOpMsgFlag || code == ErrorCodes::ChecksumMismatch;
}

}  // namespace mongo::rpc
