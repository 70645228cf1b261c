#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/factory.h"
#include "mongo/rpc/legacy_request.h"
#include "mongo/rpc/message_compressor.h"

namespace mongo {
namespace {

TEST(CommandInvocation, OpMsgGivesDbBodyAndSequences) {
    OpMsgRequest req;
    req.flags = OpMsgRequest::kMoreToCome;
    req.body = BSON("insert"
                    << "c"
                    << "$db"
                    << "test");
    req.sequences.push_back({"documents", {BSON("a" << 1)}});
    Message m = req.serialize();
    auto in = rpc::parseCommandInvocation(m);
    ASSERT_TRUE(in.isOK()) << in.getStatus();
    EXPECT_EQ(in.getValue().db, "test");
    EXPECT_EQ(in.getValue().commandName(), "insert");
    EXPECT_TRUE(in.getValue().moreToCome);
    EXPECT_FALSE(in.getValue().legacyOpQuery);
    EXPECT_EQ(in.getValue().requestId, m.getId());
    auto docs = in.getValue().getDocuments("documents");
    ASSERT_TRUE(docs.isOK());
    EXPECT_EQ(docs.getValue().size(), 1u);
}

TEST(CommandInvocation, OpMsgWithoutDbIsRejected) {
    OpMsgRequest req;
    req.body = BSON("ping" << 1);
    EXPECT_EQ(rpc::parseCommandInvocation(req.serialize()).getStatus().code(), 40571);
}

TEST(CommandInvocation, OpQueryIsMasterIsAccepted) {
    Message m = buildOpQuery("admin.$cmd", BSON("isMaster" << 1));
    auto in = rpc::parseCommandInvocation(m);
    ASSERT_TRUE(in.isOK()) << in.getStatus();
    EXPECT_TRUE(in.getValue().legacyOpQuery);
    EXPECT_EQ(in.getValue().db, "admin");
    EXPECT_EQ(in.getValue().commandName(), "isMaster");
    EXPECT_EQ(in.getValue().body["$db"].str(), "admin");
}

TEST(CommandInvocation, WrappedOpQueryIsUnwrapped) {
    BSONObj q = BSON("$query" << BSON("ismaster" << 1) << "$readPreference"
                              << BSON("mode"
                                      << "primaryPreferred"));
    auto in = rpc::parseCommandInvocation(buildOpQuery("test.$cmd", q));
    ASSERT_TRUE(in.isOK()) << in.getStatus();
    EXPECT_EQ(in.getValue().commandName(), "ismaster");
    EXPECT_EQ(in.getValue().db, "test");
    EXPECT_EQ(in.getValue().body.getFieldDotted("$readPreference.mode").str(), "primaryPreferred");
}

TEST(CommandInvocation, OpQueryOtherCommandIsUnsupported) {
    auto in = rpc::parseCommandInvocation(buildOpQuery("admin.$cmd", BSON("ping" << 1)));
    EXPECT_EQ(in.getStatus().code(), ErrorCodes::UnsupportedOpQueryCommand);
}

TEST(CommandInvocation, OpQueryOnCollectionIsRejected) {
    auto in = rpc::parseCommandInvocation(buildOpQuery("test.coll", BSON("a" << 1)));
    EXPECT_EQ(in.getStatus().code(), 5739101);
}

TEST(CommandInvocation, CompressedOpMsgIsDecompressed) {
    OpMsgRequest req;
    req.body = BSON("ping" << 1 << "$db"
                           << "admin");
    auto compressed = compressMessage(req.serialize(), MessageCompressorId::kZlib);
    ASSERT_TRUE(compressed.isOK());
    auto in = rpc::parseCommandInvocation(compressed.getValue());
    ASSERT_TRUE(in.isOK()) << in.getStatus();
    EXPECT_EQ(in.getValue().commandName(), "ping");
}

TEST(CommandInvocation, RemovedOpcodeIsRejected) {
    Message m;
    m.setData(dbInsert, "\0\0\0\0", 4);
    EXPECT_EQ(rpc::parseCommandInvocation(m).getStatus().code(), 5739101);
}

TEST(CommandReply, FollowsTheRequestProtocol) {
    Message q = buildOpQuery("admin.$cmd", BSON("hello" << 1));
    auto legacy = rpc::parseCommandInvocation(q);
    ASSERT_TRUE(legacy.isOK());
    Message r = rpc::makeCommandReply(legacy.getValue(), BSON("ok" << 1.0));
    EXPECT_EQ(r.operation(), opReply);
    EXPECT_EQ(r.getResponseToMsgId(), q.getId());

    OpMsgRequest req;
    req.body = BSON("hello" << 1 << "$db"
                            << "admin");
    Message m = req.serialize();
    auto modern = rpc::parseCommandInvocation(m);
    ASSERT_TRUE(modern.isOK());
    Message r2 = rpc::makeCommandReply(modern.getValue(), BSON("ok" << 1.0));
    EXPECT_EQ(r2.operation(), dbMsg);
    EXPECT_EQ(r2.getResponseToMsgId(), m.getId());
}

TEST(CommandReply, ErrorReplyCarriesCodeAndName) {
    Message q = buildOpQuery("admin.$cmd", BSON("ping" << 1));
    Message r = rpc::makeErrorReply(q, Status(ErrorCodes::UnsupportedOpQueryCommand, "nope"));
    EXPECT_EQ(r.operation(), opReply);
    auto parsed = ReplyMessage::parse(r);
    ASSERT_TRUE(parsed.isOK());
    const BSONObj& doc = parsed.getValue().documents[0];
    EXPECT_EQ(doc["ok"].numberDouble(), 0.0);
    EXPECT_EQ(doc["code"].numberInt(), ErrorCodes::UnsupportedOpQueryCommand);
    EXPECT_EQ(doc["codeName"].str(), "UnsupportedOpQueryCommand");

    Message m = buildOpMsgReply(BSON("x" << 1));
    Message r2 = rpc::makeErrorReply(m, Status(ErrorCodes::BadValue, "bad"));
    EXPECT_EQ(r2.operation(), dbMsg);
    EXPECT_EQ(r2.getResponseToMsgId(), m.getId());
}

}  // namespace
}  // namespace mongo
