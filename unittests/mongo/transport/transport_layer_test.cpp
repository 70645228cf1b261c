// End-to-end tests of the TransportLayer over real loopback sockets, with a tiny
// fake ServiceEntryPoint built on the rpc factory.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/factory.h"
#include "mongo/rpc/legacy_request.h"
#include "mongo/rpc/op_msg.h"
#include "mongo/transport/client.h"
#include "mongo/transport/service_entry_point.h"
#include "mongo/transport/transport_layer.h"

namespace mongo {
namespace {

class FakeEntryPoint : public ServiceEntryPoint {
public:
    DbResponse handleRequest(Client& client, const Message& request) override {
        EXPECT_EQ(Client::getCurrent(), &client);
        auto in = rpc::parseCommandInvocation(request);
        if (!in.isOK()) {
            if (rpc::isConnectionFatalMessageParseError(in.getStatus().code()))
                return {Message(), true};
            return {rpc::makeErrorReply(request, in.getStatus())};
        }
        const auto& cmd = in.getValue();
        const StringData name = cmd.commandName();
        if (name == "throw")
            throw std::runtime_error("handler failed");
        if (name == "waitForHangup") {
            // A long request: returns once the transport marks the client disconnected.
            for (int i = 0; i < 500 && !client.isDisconnected(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            sawHangup = client.isDisconnected();
            return {};
        }
        if (name == "sleep")
            std::this_thread::sleep_for(std::chrono::milliseconds(400));
        BSONObjBuilder b;
        if (name == "hello" || name == "isMaster" || name == "ismaster") {
            b.append(name == "hello" ? "isWritablePrimary" : "ismaster", true);
            b.append("maxMessageSizeBytes", kMaxMessageSizeBytes);
            b.append("connectionId", static_cast<long long>(client.connectionId()));
        } else if (name == "count") {
            auto docs = cmd.getDocuments("documents");
            b.append("n", static_cast<long long>(docs.isOK() ? docs.getValue().size() : -1));
        }
        b.append("ok", 1.0);
        ++handled;
        if (cmd.moreToCome)
            return {};
        return {rpc::makeCommandReply(cmd, b.obj())};
    }
    void onClientDisconnect(Client&) override {
        ++disconnects;
    }
    std::atomic<int> handled{0};
    std::atomic<int> disconnects{0};
    std::atomic<bool> sawHangup{false};
};

// A blocking test client over a POSIX socket.
class TestConn {
public:
    explicit TestConn(int port) {
        _fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        timeval tv{10, 0};
        ::setsockopt(_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        _connected = ::connect(_fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    }
    ~TestConn() {
        ::close(_fd);
    }
    bool connected() const {
        return _connected;
    }
    bool sendRaw(const char* data, std::size_t len) {
        while (len) {
            ssize_t n = ::send(_fd, data, len, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            data += n;
            len -= n;
        }
        return true;
    }
    bool send(const Message& m) {
        return sendRaw(m.buf(), m.getLen());
    }
    /** The next message, or an empty one when the server closed the connection. */
    Message recv() {
        char header[16];
        if (!recvAll(header, 16))
            return Message();
        const auto len = readLE<std::int32_t>(header);
        Message m = Message::allocate(len);
        std::memcpy(m.mutableBuf(), header, 16);
        if (!recvAll(m.mutableBuf() + 16, len - 16))
            return Message();
        return m;
    }

private:
    bool recvAll(char* p, std::size_t len) {
        while (len) {
            ssize_t n = ::recv(_fd, p, len, 0);
            if (n <= 0)
                return false;
            p += n;
            len -= n;
        }
        return true;
    }
    int _fd;
    bool _connected = false;
};

Message opMsg(const BSONObj& body, std::uint32_t flags = 0) {
    OpMsgRequest req;
    req.flags = flags;
    req.body = body;
    return req.serialize();
}

BSONObj replyBody(const Message& m) {
    auto parsed = OpMsgRequest::parse(m);
    return parsed.isOK() ? parsed.getValue().body.getOwned() : BSONObj();
}

class TransportLayerTest : public ::testing::Test {
protected:
    void SetUp() override {
        TransportLayer::Options opts;
        opts.bindIps = {"localhost"};
        opts.port = 0;
        tl = std::make_unique<TransportLayer>(opts, &sep);
        ASSERT_TRUE(tl->setup().isOK());
        ASSERT_GT(tl->boundPort(), 0);
        tl->start();
    }
    void TearDown() override {
        tl->shutdown();
    }
    void waitForOpenConnections(int n) {
        for (int i = 0; i < 500 && tl->numOpenConnections() != n; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        EXPECT_EQ(tl->numOpenConnections(), n);
    }
    FakeEntryPoint sep;
    std::unique_ptr<TransportLayer> tl;
};

TEST_F(TransportLayerTest, OpQueryIsMasterGetsOpReply) {
    TestConn c(tl->boundPort());
    ASSERT_TRUE(c.connected());
    Message q = buildOpQuery("admin.$cmd", BSON("ismaster" << 1 << "helloOk" << true));
    ASSERT_TRUE(c.send(q));
    Message r = c.recv();
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(r.operation(), opReply);
    EXPECT_EQ(r.getResponseToMsgId(), q.getId());
    auto reply = ReplyMessage::parse(r);
    ASSERT_TRUE(reply.isOK());
    EXPECT_EQ(reply.getValue().responseFlags, 8);
    ASSERT_EQ(reply.getValue().documents.size(), 1u);
    EXPECT_TRUE(reply.getValue().documents[0]["ismaster"].boolean());
}

TEST_F(TransportLayerTest, OpMsgPingAndHelloGetOpMsgReplies) {
    TestConn c(tl->boundPort());
    Message ping = opMsg(BSON("ping" << 1 << "$db"
                                     << "admin"));
    ASSERT_TRUE(c.send(ping));
    Message r = c.recv();
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(r.operation(), dbMsg);
    EXPECT_EQ(r.getResponseToMsgId(), ping.getId());
    EXPECT_EQ(replyBody(r)["ok"].numberDouble(), 1.0);

    ASSERT_TRUE(c.send(opMsg(BSON("hello" << 1 << "$db"
                                          << "admin"))));
    EXPECT_TRUE(replyBody(c.recv())["isWritablePrimary"].boolean());
}

TEST_F(TransportLayerTest, MoreToComeGetsNoReply) {
    TestConn c(tl->boundPort());
    ASSERT_TRUE(c.send(opMsg(BSON("endSessions" << 1 << "$db"
                                                << "admin"),
                             OpMsgRequest::kMoreToCome)));
    Message ping = opMsg(BSON("ping" << 1 << "$db"
                                     << "admin"));
    ASSERT_TRUE(c.send(ping));
    Message r = c.recv();
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(r.getResponseToMsgId(), ping.getId());  // the first reply is the ping's
    EXPECT_EQ(sep.handled.load(), 2);
}

TEST_F(TransportLayerTest, GarbageClosesOnlyThatConnection) {
    TestConn good(tl->boundPort());
    ASSERT_TRUE(good.send(opMsg(BSON("ping" << 1 << "$db"
                                            << "admin"))));
    ASSERT_FALSE(good.recv().empty());

    for (std::int32_t badLen : {5, -1, kMaxMessageSizeBytes + 1}) {
        TestConn bad(tl->boundPort());
        char header[16] = {};
        writeLE<std::int32_t>(header, badLen);
        ASSERT_TRUE(bad.sendRaw(header, sizeof(header)));
        EXPECT_TRUE(bad.recv().empty()) << badLen;  // closed by the server
    }

    // Malformed OP_MSG contents get an error reply, and the connection stays usable.
    TestConn malformed(tl->boundPort());
    Message m;
    m.setData(dbMsg, "\0\0\0\0\0\x05\0\0\0", 9);
    ASSERT_TRUE(malformed.send(m));
    BSONObj err = replyBody(malformed.recv());
    EXPECT_EQ(err["ok"].numberDouble(), 0.0);
    EXPECT_EQ(err["code"].numberInt(), ErrorCodes::InvalidBSON);
    ASSERT_TRUE(malformed.send(opMsg(BSON("ping" << 1 << "$db"
                                                 << "admin"))));
    EXPECT_EQ(replyBody(malformed.recv())["ok"].numberDouble(), 1.0);

    ASSERT_TRUE(good.send(opMsg(BSON("ping" << 1 << "$db"
                                            << "admin"))));
    EXPECT_EQ(replyBody(good.recv())["ok"].numberDouble(), 1.0);
}

TEST_F(TransportLayerTest, WrongChecksumClosesTheConnection) {
    TestConn c(tl->boundPort());
    Message m = opMsg(BSON("ping" << 1 << "$db"
                                  << "admin"),
                      OpMsgRequest::kChecksumPresent);
    m.mutableBuf()[m.getLen() - 2] ^= 1;
    ASSERT_TRUE(c.send(m));
    EXPECT_TRUE(c.recv().empty());
}

TEST_F(TransportLayerTest, HandlerExceptionClosesConnectionNotServer) {
    TestConn c(tl->boundPort());
    ASSERT_TRUE(c.send(opMsg(BSON("throw" << 1 << "$db"
                                          << "admin"))));
    EXPECT_TRUE(c.recv().empty());

    TestConn other(tl->boundPort());
    ASSERT_TRUE(other.send(opMsg(BSON("ping" << 1 << "$db"
                                             << "admin"))));
    EXPECT_EQ(replyBody(other.recv())["ok"].numberDouble(), 1.0);
}

TEST_F(TransportLayerTest, LargeMessageWithDocumentSequenceIsServed) {
    OpMsgRequest req;
    req.body = BSON("count"
                    << "c"
                    << "$db"
                    << "test");
    DocumentSequence seq{"documents", {}};
    const std::string big(1'000'000, 'x');
    for (int i = 0; i < 45; ++i)
        seq.objs.push_back(BSON("i" << i << "s" << big));
    req.sequences.push_back(std::move(seq));
    Message m = req.serialize();
    ASSERT_GT(m.getLen(), 45'000'000);
    ASSERT_LE(m.getLen(), kMaxMessageSizeBytes);

    TestConn c(tl->boundPort());
    ASSERT_TRUE(c.send(m));
    EXPECT_EQ(replyBody(c.recv())["n"].numberLong(), 45);
}

TEST_F(TransportLayerTest, CountsConnectionsAndAssignsIncreasingIds) {
    const long long before = tl->totalCreated();
    long long firstId;
    {
        TestConn a(tl->boundPort());
        TestConn b(tl->boundPort());
        ASSERT_TRUE(a.send(opMsg(BSON("hello" << 1 << "$db"
                                              << "admin"))));
        firstId = replyBody(a.recv())["connectionId"].numberLong();
        ASSERT_TRUE(b.send(opMsg(BSON("hello" << 1 << "$db"
                                              << "admin"))));
        EXPECT_EQ(replyBody(b.recv())["connectionId"].numberLong(), firstId + 1);
        EXPECT_EQ(tl->numOpenConnections(), 2);
        EXPECT_EQ(tl->totalCreated(), before + 2);
    }
    waitForOpenConnections(0);
    EXPECT_EQ(sep.disconnects.load(), 2);
}

TEST_F(TransportLayerTest, ShutdownClosesOpenConnections) {
    TestConn c(tl->boundPort());
    ASSERT_TRUE(c.send(opMsg(BSON("ping" << 1 << "$db"
                                         << "admin"))));
    ASSERT_FALSE(c.recv().empty());
    tl->shutdown();
    EXPECT_EQ(tl->numOpenConnections(), 0);
    EXPECT_TRUE(c.recv().empty());
    tl->shutdown();  // idempotent
}

TEST_F(TransportLayerTest, ClientHangingUpDuringARequestIsMarkedDisconnected) {
    {
        TestConn c(tl->boundPort());
        ASSERT_TRUE(c.send(opMsg(BSON("waitForHangup" << 1 << "$db"
                                                      << "admin"))));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }  // closes the socket while the request runs
    for (int i = 0; i < 600 && sep.disconnects.load() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(sep.sawHangup.load());
    waitForOpenConnections(0);
}

TEST_F(TransportLayerTest, SlowRequestOfAConnectedClientIsNotMarkedDisconnected) {
    TestConn c(tl->boundPort());
    ASSERT_TRUE(c.send(opMsg(BSON("sleep" << 1 << "$db"
                                          << "admin"))));
    Message r = c.recv();
    ASSERT_FALSE(r.empty());
    EXPECT_EQ(replyBody(r)["ok"].numberDouble(), 1.0);
    // The connection still serves requests.
    ASSERT_TRUE(c.send(opMsg(BSON("ping" << 1 << "$db"
                                         << "admin"))));
    EXPECT_FALSE(c.recv().empty());
}

TEST(TransportLayer, ConnectionsBeyondMaxConnsAreRefused) {
    FakeEntryPoint sep;
    TransportLayer tl({{"127.0.0.1"}, 0, 1}, &sep);
    ASSERT_TRUE(tl.setup().isOK());
    tl.start();
    TestConn first(tl.boundPort());
    ASSERT_TRUE(first.send(opMsg(BSON("ping" << 1 << "$db"
                                             << "admin"))));
    ASSERT_FALSE(first.recv().empty());
    TestConn second(tl.boundPort());
    second.send(opMsg(BSON("ping" << 1 << "$db"
                                  << "admin")));
    EXPECT_TRUE(second.recv().empty());
    EXPECT_EQ(tl.numOpenConnections(), 1);
}

TEST(TransportLayer, SetupFailsWhenPortIsInUse) {
    FakeEntryPoint sep;
    TransportLayer first({{"127.0.0.1"}, 0}, &sep);
    ASSERT_TRUE(first.setup().isOK());
    TransportLayer second({{"127.0.0.1"}, first.boundPort()}, &sep);
    Status s = second.setup();
    EXPECT_EQ(s.code(), ErrorCodes::SocketException);
    EXPECT_EQ(s.reason(), "Address already in use");
}

TEST(TransportLayer, BadBindIpIsBadValue) {
    FakeEntryPoint sep;
    TransportLayer tl({{"not-an-ip"}, 0}, &sep);
    EXPECT_EQ(tl.setup().code(), ErrorCodes::BadValue);
}

TEST(TransportLayer, CommaSeparatedBindIpsShareOnePort) {
    FakeEntryPoint sep;
    TransportLayer tl({{"127.0.0.1,localhost, 127.0.0.2"}, 0}, &sep);
    ASSERT_TRUE(tl.setup().isOK());
    tl.start();
    TestConn c(tl.boundPort());
    ASSERT_TRUE(c.send(opMsg(BSON("ping" << 1 << "$db"
                                         << "admin"))));
    EXPECT_EQ(replyBody(c.recv())["ok"].numberDouble(), 1.0);
}

}  // namespace
}  // namespace mongo
