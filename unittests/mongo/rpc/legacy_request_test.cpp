#include <gtest/gtest.h>

#include <string>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/legacy_request.h"

namespace mongo {
namespace {

TEST(OpQuery, IsMasterRoundTrips) {
    BSONObj q = BSON("ismaster" << 1 << "helloOk" << true);
    Message m = buildOpQuery("admin.$cmd", q);
    EXPECT_EQ(m.operation(), dbQuery);
    auto parsed = QueryMessage::parse(m);
    ASSERT_TRUE(parsed.isOK()) << parsed.getStatus();
    const auto& p = parsed.getValue();
    EXPECT_EQ(p.ns, "admin.$cmd");
    EXPECT_EQ(p.getDatabase(), "admin");
    EXPECT_TRUE(p.isCommand());
    EXPECT_EQ(p.numberToSkip, 0);
    EXPECT_EQ(p.numberToReturn, -1);
    EXPECT_TRUE(p.query.binaryEqual(q));
    EXPECT_TRUE(p.fields.isEmpty());
}

TEST(OpQuery, FieldSelectorIsParsed) {
    std::string body;
    auto i32 = [&](std::int32_t v) { body.append(reinterpret_cast<const char*>(&v), 4); };
    BSONObj q = BSON("a" << 1), f = BSON("b" << 1);
    i32(4);
    body.append("db.coll");
    body.push_back('\0');
    i32(5);
    i32(10);
    body.append(q.objdata(), q.objsize());
    body.append(f.objdata(), f.objsize());
    Message m;
    m.setData(dbQuery, body.data(), body.size());
    auto parsed = QueryMessage::parse(m);
    ASSERT_TRUE(parsed.isOK());
    EXPECT_EQ(parsed.getValue().flags, 4);
    EXPECT_EQ(parsed.getValue().numberToSkip, 5);
    EXPECT_EQ(parsed.getValue().numberToReturn, 10);
    EXPECT_FALSE(parsed.getValue().isCommand());
    EXPECT_EQ(parsed.getValue().fields["b"].numberInt(), 1);
}

TEST(OpQuery, TruncatedMessagesAreRejected) {
    Message full = buildOpQuery("admin.$cmd", BSON("ismaster" << 1));
    const std::string bytes(full.data(), full.dataLen());
    // Every strict prefix fails: ProtocolError before the query, InvalidBSON inside it.
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        Message m;
        m.setData(dbQuery, bytes.data(), n);
        auto parsed = QueryMessage::parse(m);
        ASSERT_FALSE(parsed.isOK()) << n;
        EXPECT_TRUE(parsed.getStatus().code() == ErrorCodes::ProtocolError ||
                    parsed.getStatus().code() == ErrorCodes::InvalidBSON)
            << n;
    }
}

TEST(OpQuery, WrongOpcodeIsProtocolError) {
    Message m;
    m.setData(dbMsg, "\0\0\0\0", 4);
    EXPECT_EQ(QueryMessage::parse(m).getStatus().code(), ErrorCodes::ProtocolError);
}

TEST(OpReply, HasHandshakeShape) {
    BSONObj doc = BSON("ismaster" << true << "ok" << 1.0);
    Message m = buildOpReply(doc);
    EXPECT_EQ(m.operation(), opReply);
    EXPECT_EQ(m.getLen(), 16 + 20 + doc.objsize());
    EXPECT_EQ(readLE<std::int32_t>(m.data()), 8);       // responseFlags: AwaitCapable
    EXPECT_EQ(readLE<std::int64_t>(m.data() + 4), 0);   // cursorID
    EXPECT_EQ(readLE<std::int32_t>(m.data() + 12), 0);  // startingFrom
    EXPECT_EQ(readLE<std::int32_t>(m.data() + 16), 1);  // numberReturned
    auto parsed = ReplyMessage::parse(m);
    ASSERT_TRUE(parsed.isOK());
    ASSERT_EQ(parsed.getValue().documents.size(), 1u);
    EXPECT_TRUE(parsed.getValue().documents[0].binaryEqual(doc));
}

}  // namespace
}  // namespace mongo
