#include "mongo/db/client_registry.h"

#include <gtest/gtest.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/transport/client.h"

namespace mongo {
namespace {

CommandRequest request(const std::string& db, const BSONObj& body) {
    CommandRequest req;
    req.dbName = db;
    req.body = body;
    return req;
}

/** A registered connection for the duration of a test. */
class RegisteredClient {
public:
    explicit RegisteredClient(long long id)
        : client(id, "127.0.0.1:4000" + std::to_string(id), "") {
        ClientRegistry::get().addClient(&client);
    }
    ~RegisteredClient() {
        ClientRegistry::get().removeClient(&client);
    }
    Client client;
};

std::vector<BSONObj> opsOf(const Client& c, const CurrentOpOptions& options) {
    std::vector<BSONObj> out;
    for (const auto& d : ClientRegistry::get().report(nullptr, options))
        if (d["desc"].type() == BSONType::kString && d["desc"].valueStringData() == c.desc())
            out.push_back(d);
    return out;
}

TEST(ClientRegistry, RunningOperationIsReportedInUpstreamShape) {
    RegisteredClient rc(900001);
    ASSERT_TRUE(rc.client.setClientMetadata(BSON("application" << BSON("name"
                                                                       << "app"))));
    OperationContext opCtx(nullptr, &rc.client, 4242);
    ClientRegistry::describe(request("test", BSON("find"
                                                  << "c"
                                                  << "filter" << BSONObj())),
                             &opCtx);
    opCtx.setPlanSummary("COLLSCAN");
    ClientRegistry::ActiveOp active(&rc.client, &opCtx);

    auto ops = opsOf(rc.client, CurrentOpOptions{});
    ASSERT_EQ(1u, ops.size());
    const BSONObj& op = ops[0];
    EXPECT_EQ("op", op["type"].str());
    EXPECT_EQ("conn900001", op["desc"].str());
    EXPECT_EQ(900001, op["connectionId"].numberLong());
    EXPECT_EQ("127.0.0.1:4000900001", op["client"].str());
    EXPECT_EQ("app", op["appName"].str());
    EXPECT_TRUE(op["active"].boolean());
    EXPECT_EQ(4242, op["opid"].numberLong());
    EXPECT_EQ("query", op["op"].str());
    EXPECT_EQ("test.c", op["ns"].str());
    EXPECT_EQ("c", op["command"].Obj()["find"].str());
    EXPECT_EQ("COLLSCAN", op["planSummary"].str());
    EXPECT_FALSE(op["waitingForLock"].boolean());
    EXPECT_TRUE(op["killPending"].eoo());
    EXPECT_EQ(BSONType::kNumberLong, op["microsecs_running"].type());
}

TEST(ClientRegistry, IdleConnectionsOnlyWithTheOption) {
    RegisteredClient rc(900002);
    EXPECT_TRUE(opsOf(rc.client, CurrentOpOptions{}).empty());
    CurrentOpOptions options;
    options.idleConnections = true;
    auto ops = opsOf(rc.client, options);
    ASSERT_EQ(1u, ops.size());
    EXPECT_FALSE(ops[0]["active"].boolean());
    EXPECT_TRUE(ops[0]["opid"].eoo());
}

TEST(ClientRegistry, KillOpMarksTheOperationAndReportsKillPending) {
    RegisteredClient rc(900003);
    OperationContext opCtx(nullptr, &rc.client, 4343);
    ClientRegistry::describe(request("admin", BSON("ping" << 1)), &opCtx);
    ClientRegistry::ActiveOp active(&rc.client, &opCtx);
    EXPECT_FALSE(ClientRegistry::get().killOp(4344));
    EXPECT_FALSE(opCtx.isKillPending());
    EXPECT_TRUE(ClientRegistry::get().killOp(4343));
    EXPECT_TRUE(opCtx.isKillPending());
    auto ops = opsOf(rc.client, CurrentOpOptions{});
    ASSERT_EQ(1u, ops.size());
    EXPECT_TRUE(ops[0]["killPending"].boolean());
    EXPECT_EQ("admin.$cmd", ops[0]["ns"].str());
    EXPECT_EQ("command", ops[0]["op"].str());
}

TEST(ClientRegistry, NestedOperationRestoresTheOuterOneWhenItEnds) {
    RegisteredClient rc(900004);
    OperationContext outer(nullptr, &rc.client, 1001);
    OperationContext inner(nullptr, &rc.client, 1002);
    ClientRegistry::ActiveOp a(&rc.client, &outer);
    {
        ClientRegistry::ActiveOp b(&rc.client, &inner);
        EXPECT_EQ(1002, opsOf(rc.client, CurrentOpOptions{})[0]["opid"].numberLong());
    }
    EXPECT_EQ(1001, opsOf(rc.client, CurrentOpOptions{})[0]["opid"].numberLong());
}

TEST(ClientRegistry, LargeCommandsAreTruncatedOnlyWithTruncateOps) {
    RegisteredClient rc(900005);
    OperationContext opCtx(nullptr, &rc.client, 1003);
    const std::string pad(3000, 'x');
    ClientRegistry::describe(request("test", BSON("aggregate" << 1 << "pad" << pad << "comment"
                                                              << "hi")),
                             &opCtx);
    ClientRegistry::ActiveOp active(&rc.client, &opCtx);
    CurrentOpOptions options;
    EXPECT_EQ(pad, opsOf(rc.client, options)[0]["command"].Obj()["pad"].str());
    EXPECT_EQ("test.$cmd.aggregate", opsOf(rc.client, options)[0]["ns"].str());
    options.truncateOps = true;
    BSONObj cmd = opsOf(rc.client, options)[0]["command"].Obj();
    EXPECT_EQ(1000u, cmd["$truncated"].str().size());
    EXPECT_EQ("...", cmd["$truncated"].str().substr(997));
    EXPECT_EQ("hi", cmd["comment"].str());
}

TEST(ClientRegistry, OperationsOfUnregisteredClientsAreNotTracked) {
    Client stray(900006, "127.0.0.1:1", "");
    OperationContext opCtx(nullptr, &stray, 1004);
    ClientRegistry::ActiveOp active(&stray, &opCtx);
    EXPECT_FALSE(ClientRegistry::get().killOp(1004));
}

}  // namespace
}  // namespace mongo
