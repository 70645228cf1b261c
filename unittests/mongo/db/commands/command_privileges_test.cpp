#include "mongo/db/commands/command_privileges.h"

#include <gtest/gtest.h>

namespace mongo {
namespace {

using A = auth::ActionType;

// Every registered command must say what it needs under --auth.
TEST(CommandPrivileges, EveryRegisteredCommandDeclaresItsPrivileges) {
    ASSERT_FALSE(CommandRegistry::all().empty());
    for (const auto& [name, cmd] : CommandRegistry::all())
        EXPECT_NE(nullptr, findCommandAuthRule(name)) << name << " declares no privileges";
}

RequiredPrivileges required(const BSONObj& body, const std::string& db = "test") {
    CommandRequest req;
    req.dbName = db;
    req.body = body;
    Command* cmd = CommandRegistry::find(req.commandName());
    EXPECT_NE(nullptr, cmd);
    return requiredPrivileges(*findCommandAuthRule(cmd->getName()), req);
}

TEST(CommandPrivileges, FindNeedsFindOnItsNamespace) {
    auto r = required(BSON("find"
                           << "c"));
    ASSERT_EQ(1u, r.size());
    EXPECT_EQ("c", r[0].first.coll);
    EXPECT_TRUE(r[0].second == auth::ActionSet{A::k_find});
}

TEST(CommandPrivileges, UpsertAlsoNeedsInsert) {
    auto r = required(BSON("update"
                           << "c"
                           << "updates"
                           << BSON_ARRAY(
                                  BSON("q" << BSONObj() << "u" << BSONObj() << "upsert" << true))));
    ASSERT_EQ(1u, r.size());
    EXPECT_TRUE(r[0].second.containsAll({A::k_update, A::k_insert}));
}

TEST(CommandPrivileges, AggregateWithOutAndLookupNeedsEachNamespace) {
    auto r = required(BSON("aggregate"
                           << "c"
                           << "pipeline"
                           << BSON_ARRAY(BSON("$lookup" << BSON("from"
                                                                << "o"))
                                         << BSON("$out"
                                                 << "dst"))
                           << "cursor" << BSONObj()));
    ASSERT_EQ(3u, r.size());
    EXPECT_EQ("c", r[0].first.coll);
    EXPECT_EQ("o", r[1].first.coll);
    EXPECT_EQ("dst", r[2].first.coll);
    EXPECT_TRUE(r[2].second.containsAll({A::k_insert, A::k_remove}));
}

TEST(CommandPrivileges, ExplainNeedsWhatTheExplainedCommandNeeds) {
    auto r = required(BSON("explain" << BSON("find"
                                             << "c")));
    ASSERT_EQ(1u, r.size());
    EXPECT_TRUE(r[0].second == auth::ActionSet{A::k_find});
}

TEST(CommandPrivileges, DropDatabaseIsDatabaseScoped) {
    auto r = required(BSON("dropDatabase" << 1));
    ASSERT_EQ(1u, r.size());
    EXPECT_EQ(auth::ResourceTarget::Kind::kDatabase, r[0].first.kind);
}

TEST(CommandPrivileges, HandshakeCommandsNeedNoAuthentication) {
    for (StringData name : {"hello", "saslStart", "saslContinue", "ping", "buildInfo", "logout"})
        EXPECT_EQ(CommandAuthRule::Kind::kNoAuth, findCommandAuthRule(name)->kind) << name;
}

}  // namespace
}  // namespace mongo
