#include <gtest/gtest.h>

#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/crc32c.h"
#include "mongo/rpc/op_msg.h"

namespace mongo {
namespace {

// Raw OP_MSG body builder for malformed inputs.
struct RawMsg {
    std::string bytes;
    RawMsg& u32(std::uint32_t v) {
        bytes.append(reinterpret_cast<const char*>(&v), 4);
        return *this;
    }
    RawMsg& byte(char c) {
        bytes.push_back(c);
        return *this;
    }
    RawMsg& doc(const BSONObj& o) {
        bytes.append(o.objdata(), o.objsize());
        return *this;
    }
    RawMsg& str(const std::string& s) {
        bytes.append(s);
        bytes.push_back('\0');
        return *this;
    }
    Message message(NetworkOp op = dbMsg) const {
        Message m;
        m.setData(op, bytes.data(), bytes.size());
        return m;
    }
};

ErrorCodes::Error codeOf(const StatusWith<OpMsgRequest>& sw) {
    return sw.getStatus().code();
}

TEST(OpMsg, BodyOnlyRoundTrips) {
    OpMsgRequest req;
    req.body = BSON("ping" << 1 << "$db"
                           << "admin");
    Message m = req.serialize();
    EXPECT_EQ(m.operation(), dbMsg);
    EXPECT_EQ(m.getLen(), 16 + 4 + 1 + req.body.objsize());
    auto parsed = OpMsgRequest::parse(m);
    ASSERT_TRUE(parsed.isOK()) << parsed.getStatus();
    EXPECT_TRUE(parsed.getValue().body.binaryEqual(req.body));
    EXPECT_EQ(parsed.getValue().getDatabase(), "admin");
    EXPECT_EQ(parsed.getValue().getCommandName(), "ping");
    EXPECT_TRUE(parsed.getValue().sequences.empty());
    EXPECT_FALSE(parsed.getValue().isMoreToCome());
}

TEST(OpMsg, BodyWithDocumentSequenceRoundTrips) {
    OpMsgRequest req;
    req.body = BSON("insert"
                    << "c"
                    << "$db"
                    << "test");
    req.sequences.push_back({"documents", {BSON("a" << 1), BSON("a" << 2), BSON("a" << 3)}});
    auto parsed = OpMsgRequest::parse(req.serialize());
    ASSERT_TRUE(parsed.isOK()) << parsed.getStatus();
    const auto& p = parsed.getValue();
    ASSERT_EQ(p.sequences.size(), 1u);
    EXPECT_EQ(p.sequences[0].name, "documents");
    ASSERT_EQ(p.sequences[0].objs.size(), 3u);
    EXPECT_EQ(p.sequences[0].objs[2]["a"].numberInt(), 3);
    EXPECT_TRUE(p.sequences[0].objs[0].isOwned());  // shares the message buffer

    auto docs = p.getDocuments("documents");
    ASSERT_TRUE(docs.isOK());
    EXPECT_EQ(docs.getValue().size(), 3u);

    BSONObj merged = p.asCommandObject();
    EXPECT_EQ(merged["documents"].Array().size(), 3u);
    EXPECT_EQ(merged["insert"].str(), "c");
}

TEST(OpMsg, DocumentsInBodyArrayAreAccepted) {
    OpMsgRequest req;
    req.body = BSON("insert"
                    << "c"
                    << "documents" << BSON_ARRAY(BSON("a" << 1) << BSON("a" << 2)) << "$db"
                    << "test");
    auto parsed = OpMsgRequest::parse(req.serialize());
    ASSERT_TRUE(parsed.isOK());
    auto docs = parsed.getValue().getDocuments("documents");
    ASSERT_TRUE(docs.isOK());
    ASSERT_EQ(docs.getValue().size(), 2u);
    EXPECT_EQ(docs.getValue()[1]["a"].numberInt(), 2);
    EXPECT_TRUE(docs.getValue()[1].isOwned());
}

TEST(OpMsg, DocumentsOfWrongTypeAreTypeMismatch) {
    OpMsgRequest req;
    req.body = BSON("insert"
                    << "c"
                    << "documents" << 5 << "$db"
                    << "test");
    EXPECT_EQ(req.getDocuments("documents").getStatus().code(), ErrorCodes::TypeMismatch);
    req.body = BSON("documents" << BSON_ARRAY(1));
    EXPECT_EQ(req.getDocuments("documents").getStatus().code(), ErrorCodes::TypeMismatch);
    EXPECT_TRUE(req.getDocuments("other").isOK());
    EXPECT_TRUE(req.getDocuments("other").getValue().empty());
}

TEST(OpMsg, ValidChecksumIsAccepted) {
    OpMsgRequest req;
    req.flags = OpMsgRequest::kChecksumPresent;
    req.body = BSON("ping" << 1 << "$db"
                           << "admin");
    req.sequences.push_back({"documents", {BSON("x" << 1)}});
    Message m = req.serialize();
    auto parsed = OpMsgRequest::parse(m);
    ASSERT_TRUE(parsed.isOK()) << parsed.getStatus();
    EXPECT_EQ(parsed.getValue().sequences.size(), 1u);
    std::uint32_t stored;
    std::memcpy(&stored, m.buf() + m.getLen() - 4, 4);
    EXPECT_EQ(stored, crc32c(m.buf(), m.getLen() - 4));
}

TEST(OpMsg, WrongChecksumIsChecksumMismatch) {
    OpMsgRequest req;
    req.flags = OpMsgRequest::kChecksumPresent;
    req.body = BSON("ping" << 1);
    Message m = req.serialize();
    m.mutableBuf()[m.getLen() - 1] ^= 0x5A;
    EXPECT_EQ(codeOf(OpMsgRequest::parse(m)), ErrorCodes::ChecksumMismatch);
}

TEST(OpMsg, ChecksumFlagWithoutRoomIsProtocolError) {
    EXPECT_EQ(codeOf(OpMsgRequest::parse(RawMsg().u32(1).message())), ErrorCodes::ProtocolError);
}

TEST(OpMsg, UnknownRequiredFlagIsIllegalOpMsgFlag) {
    Message m = RawMsg().u32(1u << 3).byte(0).doc(BSON("ping" << 1)).message();
    EXPECT_EQ(codeOf(OpMsgRequest::parse(m)), ErrorCodes::IllegalOpMsgFlag);
}

TEST(OpMsg, UnknownOptionalFlagIsIgnored) {
    Message m = RawMsg().u32((1u << 16) | (1u << 20)).byte(0).doc(BSON("ping" << 1)).message();
    auto parsed = OpMsgRequest::parse(m);
    ASSERT_TRUE(parsed.isOK());
    EXPECT_TRUE(parsed.getValue().isExhaustAllowed());
}

TEST(OpMsg, MoreToComeIsReported) {
    Message m = RawMsg().u32(OpMsgRequest::kMoreToCome).byte(0).doc(BSON("x" << 1)).message();
    auto parsed = OpMsgRequest::parse(m);
    ASSERT_TRUE(parsed.isOK());
    EXPECT_TRUE(parsed.getValue().isMoreToCome());
}

TEST(OpMsg, TwoBodiesAreRejected) {
    Message m = RawMsg().u32(0).byte(0).doc(BSON("a" << 1)).byte(0).doc(BSON("b" << 1)).message();
    EXPECT_EQ(codeOf(OpMsgRequest::parse(m)), 40430);
}

TEST(OpMsg, MissingBodyIsRejected) {
    RawMsg raw;
    raw.u32(0).byte(1).u32(4 + 2 + 5).str("d").doc(BSONObj());
    EXPECT_EQ(codeOf(OpMsgRequest::parse(raw.message())), 40587);
    EXPECT_EQ(codeOf(OpMsgRequest::parse(RawMsg().u32(0).message())), 40587);
}

TEST(OpMsg, UnknownSectionKindIsRejected) {
    Message m = RawMsg().u32(0).byte(0).doc(BSON("a" << 1)).byte(7).message();
    EXPECT_EQ(codeOf(OpMsgRequest::parse(m)), 40432);
}

TEST(OpMsg, DuplicateSequenceIsRejected) {
    BSONObj d = BSON("x" << 1);
    const std::uint32_t size = 4 + 2 + d.objsize();
    RawMsg raw;
    raw.u32(0).byte(0).doc(BSON("a" << 1));
    raw.byte(1).u32(size).str("d").doc(d);
    raw.byte(1).u32(size).str("d").doc(d);
    EXPECT_EQ(codeOf(OpMsgRequest::parse(raw.message())), 40431);
}

TEST(OpMsg, SequenceNameAlsoInBodyIsRejected) {
    BSONObj d = BSON("x" << 1);
    RawMsg raw;
    raw.u32(0).byte(0).doc(BSON("d" << 1));
    raw.byte(1).u32(4 + 2 + d.objsize()).str("d").doc(d);
    EXPECT_EQ(codeOf(OpMsgRequest::parse(raw.message())), 40433);
}

TEST(OpMsg, TruncatedBodyIsInvalidBSON) {
    BSONObj body = BSON("ping" << 1 << "comment"
                               << "hello");
    RawMsg raw;
    raw.u32(0).byte(0);
    raw.bytes.append(body.objdata(), body.objsize() - 3);
    EXPECT_EQ(codeOf(OpMsgRequest::parse(raw.message())), ErrorCodes::InvalidBSON);
}

TEST(OpMsg, TruncatedSequenceIsProtocolError) {
    BSONObj d = BSON("x" << 1);
    RawMsg raw;
    raw.u32(0).byte(0).doc(BSON("a" << 1));
    raw.byte(1).u32(4 + 2 + d.objsize() + 10).str("d").doc(d);  // size past the end
    EXPECT_EQ(codeOf(OpMsgRequest::parse(raw.message())), ErrorCodes::ProtocolError);

    RawMsg shortSize;
    shortSize.u32(0).byte(0).doc(BSON("a" << 1)).byte(1).byte(3);
    EXPECT_EQ(codeOf(OpMsgRequest::parse(shortSize.message())), ErrorCodes::ProtocolError);

    RawMsg noName;
    noName.u32(0).byte(0).doc(BSON("a" << 1)).byte(1).u32(6);
    noName.bytes.append("dd");
    EXPECT_EQ(codeOf(OpMsgRequest::parse(noName.message())), ErrorCodes::ProtocolError);
}

TEST(OpMsg, DocumentOverrunningItsSequenceIsInvalidBSON) {
    BSONObj d = BSON("x" << 1);
    RawMsg raw;
    raw.u32(0).byte(0).doc(BSON("a" << 1));
    raw.byte(1).u32(4 + 2 + d.objsize() - 2).str("d").doc(d);  // doc spills past section
    EXPECT_EQ(codeOf(OpMsgRequest::parse(raw.message())), ErrorCodes::InvalidBSON);
}

TEST(OpMsg, CorruptBsonIsInvalidBSON) {
    BSONObj body = BSON("a" << 1);
    RawMsg raw;
    raw.u32(0).byte(0).doc(body);
    raw.bytes[4 + 1 + 4] = 0x7F;  // unknown element type
    EXPECT_EQ(codeOf(OpMsgRequest::parse(raw.message())), ErrorCodes::InvalidBSON);
}

TEST(OpMsg, WrongOpcodeAndShortMessageAreProtocolErrors) {
    EXPECT_EQ(codeOf(OpMsgRequest::parse(RawMsg().u32(0).message(dbQuery))),
              ErrorCodes::ProtocolError);
    EXPECT_EQ(codeOf(OpMsgRequest::parse(RawMsg().byte(0).message())), ErrorCodes::ProtocolError);
    EXPECT_EQ(codeOf(OpMsgRequest::parse(Message())), ErrorCodes::ProtocolError);
}

TEST(OpMsg, ReplyHasFlagsZeroAndOneBody) {
    Message m = buildOpMsgReply(BSON("ok" << 1.0));
    EXPECT_EQ(m.operation(), dbMsg);
    auto parsed = OpMsgRequest::parse(m);
    ASSERT_TRUE(parsed.isOK());
    EXPECT_EQ(parsed.getValue().flags, 0u);
    EXPECT_EQ(parsed.getValue().body["ok"].numberDouble(), 1.0);
    EXPECT_TRUE(parsed.getValue().sequences.empty());
}

TEST(OpMsg, MessageIdsIncrease) {
    Message a = buildOpMsgReply(BSON("ok" << 1));
    Message b = buildOpMsgReply(BSON("ok" << 1));
    EXPECT_GT(b.getId(), a.getId());
    EXPECT_EQ(a.getResponseToMsgId(), 0);
}

}  // namespace
}  // namespace mongo
