#include "mongo/db/auth/privilege.h"

#include <gtest/gtest.h>

#include "mongo/db/auth/builtin_roles.h"

namespace mongo::auth {
namespace {

using A = ActionType;

std::vector<Privilege> role(StringData name, StringData db) {
    std::vector<Privilege> out;
    EXPECT_TRUE(addBuiltinRolePrivileges(name, db, &out)) << name;
    return out;
}

TEST(BuiltinRoles, ReadAllowsFindButNotInsert) {
    auto privs = role("read", "test");
    EXPECT_TRUE(isAuthorized(privs, ResourceTarget::ns("test", "c"), {A::k_find}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::ns("test", "c"), {A::k_insert}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::ns("other", "c"), {A::k_find}));
    EXPECT_TRUE(isAuthorized(privs, ResourceTarget::database("test"), {A::k_listCollections}));
}

TEST(BuiltinRoles, ReadWriteCoversTimeseriesBuckets) {
    auto privs = role("readWrite", "test");
    EXPECT_TRUE(isAuthorized(privs, ResourceTarget::ns("test", "ts"), {A::k_insert, A::k_find}));
    EXPECT_TRUE(
        isAuthorized(privs, ResourceTarget::ns("test", "system.buckets.ts"), {A::k_insert}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::database("test"), {A::k_dropDatabase}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::ns("test", "system.users"), {A::k_find}));
}

TEST(BuiltinRoles, DatabasePatternDoesNotMatchSystemCollections) {
    std::vector<Privilege> privs{{ResourcePattern::forDatabase("test"), {A::k_find}}};
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::ns("test", "system.buckets.ts"), {A::k_find}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::ns("test", "system.views"), {A::k_find}));
}

TEST(BuiltinRoles, AdminOnlyRolesExistOnlyInAdmin) {
    EXPECT_TRUE(isBuiltinRole("root", "admin"));
    EXPECT_FALSE(isBuiltinRole("root", "test"));
    EXPECT_TRUE(isBuiltinRole("dbOwner", "test"));
    std::vector<Privilege> none;
    EXPECT_FALSE(addBuiltinRolePrivileges("clusterAdmin", "test", &none));
    EXPECT_TRUE(none.empty());
}

TEST(BuiltinRoles, RootCanDoAdministrationAnywhere) {
    auto privs = role("root", "admin");
    EXPECT_TRUE(
        isAuthorized(privs, ResourceTarget::ns("x", "y"), {A::k_insert, A::k_dropCollection}));
    EXPECT_TRUE(isAuthorized(privs, ResourceTarget::cluster(), {A::k_shutdown, A::k_serverStatus}));
    EXPECT_TRUE(isAuthorized(privs, ResourceTarget::database("x"), {A::k_createUser}));
    EXPECT_TRUE(isAuthorized(privs, ResourceTarget::ns("admin", "system.users"), {A::k_find}));
}

TEST(BuiltinRoles, ClusterMonitorReadsStatusButCannotShutdown) {
    auto privs = role("clusterMonitor", "admin");
    EXPECT_TRUE(isAuthorized(privs, ResourceTarget::cluster(), {A::k_serverStatus, A::k_inprog}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::cluster(), {A::k_shutdown}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::ns("x", "y"), {A::k_find}));
}

TEST(BuiltinRoles, UserAdminManagesUsersButReadsNothing) {
    auto privs = role("userAdmin", "test");
    EXPECT_TRUE(
        isAuthorized(privs, ResourceTarget::database("test"), {A::k_createUser, A::k_grantRole}));
    EXPECT_FALSE(isAuthorized(privs, ResourceTarget::ns("test", "c"), {A::k_find}));
}

TEST(ResourcePattern, ParsesAndSerialisesEveryForm) {
    for (BSONObj o : {BSON("cluster" << true), BSON("anyResource" << true),
                      BSON("db"
                           << ""
                           << "collection"
                           << ""),
                      BSON("db"
                           << "d"
                           << "collection"
                           << ""),
                      BSON("db"
                           << ""
                           << "collection"
                           << "c"),
                      BSON("db"
                           << "d"
                           << "collection"
                           << "c"),
                      BSON("db"
                           << "d"
                           << "system_buckets"
                           << "c")}) {
        auto p = ResourcePattern::parse(o);
        ASSERT_TRUE(p.isOK()) << o.toString();
        EXPECT_EQ(0, p.getValue().toBSON().woCompare(o)) << o.toString();
    }
    EXPECT_FALSE(ResourcePattern::parse(BSON("db"
                                             << "d"))
                     .isOK());
    EXPECT_FALSE(ResourcePattern::parse(BSON("cluster" << false)).isOK());
    EXPECT_FALSE(ResourcePattern::parse(BSON("db" << 1 << "collection"
                                                  << ""))
                     .isOK());
}

TEST(Privilege, UnknownActionIsBadValue) {
    auto p = Privilege::parse(BSON("resource" << BSON("db"
                                                      << "d"
                                                      << "collection"
                                                      << "")
                                              << "actions"
                                              << BSON_ARRAY("find"
                                                            << "fly")));
    EXPECT_EQ(ErrorCodes::BadValue, p.getStatus().code());
}

TEST(Privilege, AddAndRemoveMergeByResource) {
    std::vector<Privilege> privs;
    addPrivilege(&privs, {ResourcePattern::forDatabase("d"), {A::k_find}});
    addPrivilege(&privs, {ResourcePattern::forDatabase("d"), {A::k_insert}});
    ASSERT_EQ(1u, privs.size());
    EXPECT_TRUE(privs[0].actions.containsAll({A::k_find, A::k_insert}));
    removePrivilege(&privs, {ResourcePattern::forDatabase("d"), {A::k_find, A::k_insert}});
    EXPECT_TRUE(privs.empty());
}

}  // namespace
}  // namespace mongo::auth
