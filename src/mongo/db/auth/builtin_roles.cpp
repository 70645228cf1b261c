#include "mongo/db/auth/builtin_roles.h"

#include <array>

namespace mongo::auth {
namespace {

using A = ActionType;
using K = ResourcePattern::Kind;

constexpr StringData kAdmin = "admin";

const ActionSet& readActions() {
    static const ActionSet s{A::k_changeStream,    A::k_collStats,   A::k_dbHash,
                             A::k_dbStats,         A::k_find,        A::k_killCursors,
                             A::k_listCollections, A::k_listIndexes, A::k_listSearchIndexes};
    return s;
}

ActionSet readWriteActions() {
    ActionSet s = readActions();
    s.add(ActionSet{A::k_convertToCapped, A::k_createCollection, A::k_createIndex,
                    A::k_dropCollection, A::k_dropIndex, A::k_insert, A::k_remove,
                    A::k_renameCollectionSameDB, A::k_update});
    return s;
}

ActionSet dbAdminActions() {
    return ActionSet{A::k_bypassDocumentValidation,
                     A::k_collMod,
                     A::k_collStats,
                     A::k_compact,
                     A::k_convertToCapped,
                     A::k_createCollection,
                     A::k_createIndex,
                     A::k_dbStats,
                     A::k_dropCollection,
                     A::k_dropDatabase,
                     A::k_dropIndex,
                     A::k_enableProfiler,
                     A::k_listCollections,
                     A::k_listIndexes,
                     A::k_listSearchIndexes,
                     A::k_planCacheIndexFilter,
                     A::k_planCacheRead,
                     A::k_planCacheWrite,
                     A::k_reIndex,
                     A::k_renameCollectionSameDB,
                     A::k_storageDetails,
                     A::k_validate};
}

ActionSet dbAdminProfileActions() {
    return ActionSet{A::k_changeStream,     A::k_collStats,  A::k_convertToCapped,
                     A::k_createCollection, A::k_dbHash,     A::k_dbStats,
                     A::k_dropCollection,   A::k_find,       A::k_killCursors,
                     A::k_listCollections,  A::k_listIndexes};
}

ActionSet userAdminActions() {
    return ActionSet{A::k_changeCustomData, A::k_changePassword, A::k_createRole,
                     A::k_createUser,       A::k_dropRole,       A::k_dropUser,
                     A::k_grantRole,        A::k_revokeRole,     A::k_setAuthenticationRestriction,
                     A::k_viewRole,         A::k_viewUser};
}

void add(std::vector<Privilege>* out, ResourcePattern r, ActionSet a) {
    addPrivilege(out, Privilege{std::move(r), a});
}

/** A database-scoped role's privileges: `db` empty means every database (the AnyDatabase roles). */
void addRead(std::vector<Privilege>* out, const std::string& db) {
    add(out, db.empty() ? ResourcePattern(K::kAnyNormal) : ResourcePattern::forDatabase(db),
        readActions());
    add(out,
        db.empty() ? ResourcePattern(K::kCollectionInAnyDb, "", "system.js")
                   : ResourcePattern::forNamespace(db, "system.js"),
        readActions());
    add(out,
        db.empty() ? ResourcePattern(K::kAnySystemBuckets)
                   : ResourcePattern(K::kSystemBucketsInDb, db),
        readActions());
}

void addReadWrite(std::vector<Privilege>* out, const std::string& db) {
    add(out, db.empty() ? ResourcePattern(K::kAnyNormal) : ResourcePattern::forDatabase(db),
        readWriteActions());
    add(out,
        db.empty() ? ResourcePattern(K::kCollectionInAnyDb, "", "system.js")
                   : ResourcePattern::forNamespace(db, "system.js"),
        readWriteActions());
    add(out,
        db.empty() ? ResourcePattern(K::kAnySystemBuckets)
                   : ResourcePattern(K::kSystemBucketsInDb, db),
        readWriteActions());
}

void addDbAdmin(std::vector<Privilege>* out, const std::string& db) {
    add(out, db.empty() ? ResourcePattern(K::kAnyNormal) : ResourcePattern::forDatabase(db),
        dbAdminActions());
    add(out,
        db.empty() ? ResourcePattern(K::kCollectionInAnyDb, "", "system.profile")
                   : ResourcePattern::forNamespace(db, "system.profile"),
        dbAdminProfileActions());
    add(out,
        db.empty() ? ResourcePattern(K::kAnySystemBuckets)
                   : ResourcePattern(K::kSystemBucketsInDb, db),
        dbAdminActions());
}

void addUserAdmin(std::vector<Privilege>* out, const std::string& db) {
    add(out, db.empty() ? ResourcePattern(K::kAnyNormal) : ResourcePattern::forDatabase(db),
        userAdminActions());
}

void addClusterMonitor(std::vector<Privilege>* out) {
    add(out, ResourcePattern(K::kCluster),
        ActionSet{A::k_checkFreeMonitoringStatus, A::k_connPoolStats, A::k_getCmdLineOpts,
                  A::k_getDefaultRWConcern, A::k_getLog, A::k_getParameter, A::k_hostInfo,
                  A::k_inprog, A::k_listDatabases, A::k_listSessions, A::k_netstat,
                  A::k_replSetGetConfig, A::k_replSetGetStatus, A::k_serverStatus, A::k_top,
                  A::k_useUUID});
    add(out, ResourcePattern(K::kAnyNormal),
        ActionSet{A::k_collStats, A::k_dbStats, A::k_indexStats});
    add(out, ResourcePattern(K::kAnySystemBuckets), ActionSet{A::k_collStats, A::k_indexStats});
    add(out, ResourcePattern::forNamespace("local", "system.replset"), ActionSet{A::k_find});
    add(out, ResourcePattern(K::kCollectionInAnyDb, "", "system.profile"), ActionSet{A::k_find});
}

void addClusterAdmin(std::vector<Privilege>* out) {
    addClusterMonitor(out);
    // clusterManager
    add(out, ResourcePattern(K::kCluster),
        ActionSet{A::k_appendOplogNote, A::k_applicationMessage, A::k_cleanupOrphaned,
                  A::k_flushRouterConfig, A::k_getDefaultRWConcern, A::k_listSessions,
                  A::k_replSetConfigure, A::k_replSetGetConfig, A::k_replSetGetStatus,
                  A::k_replSetStateChange, A::k_resync, A::k_setDefaultRWConcern,
                  A::k_setFeatureCompatibilityVersion});
    add(out, ResourcePattern::forDatabase("local"),
        ActionSet{A::k_find, A::k_insert, A::k_remove, A::k_update, A::k_listCollections,
                  A::k_listIndexes, A::k_collStats});
    // hostManager
    add(out, ResourcePattern(K::kCluster),
        ActionSet{A::k_applicationMessage, A::k_closeAllDatabases, A::k_connPoolSync,
                  A::k_dropConnections, A::k_flushRouterConfig, A::k_fsync,
                  A::k_invalidateUserCache, A::k_killAnyCursor, A::k_killAnySession, A::k_killop,
                  A::k_logRotate, A::k_resync, A::k_setParameter, A::k_shutdown, A::k_touch,
                  A::k_unlock});
    add(out, ResourcePattern(K::kAnyNormal), ActionSet{A::k_killCursors});
    add(out, ResourcePattern(K::kAnyNormal), ActionSet{A::k_dropDatabase});
}

void addBackup(std::vector<Privilege>* out) {
    add(out, ResourcePattern(K::kCluster),
        ActionSet{A::k_appendOplogNote, A::k_getParameter, A::k_listDatabases, A::k_serverStatus,
                  A::k_setParameter});
    ActionSet readMeta{A::k_listCollections, A::k_listIndexes, A::k_find, A::k_collStats,
                       A::k_dbStats};
    add(out, ResourcePattern(K::kAnyNormal), readMeta);
    add(out, ResourcePattern(K::kAnySystemBuckets), readMeta);
    for (StringData sys : {"system.js", "system.views", "system.profile"})
        add(out, ResourcePattern(K::kCollectionInAnyDb, "", std::string(sys)), readMeta);
    for (StringData sys : {"system.users", "system.roles", "system.version"})
        add(out, ResourcePattern::forNamespace("admin", std::string(sys)), readMeta);
    add(out, ResourcePattern::forNamespace("local", "oplog.rs"), ActionSet{A::k_find});
}

void addRestore(std::vector<Privilege>* out) {
    ActionSet write{A::k_bypassDocumentValidation,
                    A::k_changeCustomData,
                    A::k_changePassword,
                    A::k_collMod,
                    A::k_convertToCapped,
                    A::k_createCollection,
                    A::k_createIndex,
                    A::k_createRole,
                    A::k_createUser,
                    A::k_dropCollection,
                    A::k_dropRole,
                    A::k_dropUser,
                    A::k_grantRole,
                    A::k_insert,
                    A::k_revokeRole,
                    A::k_viewRole,
                    A::k_viewUser};
    add(out, ResourcePattern(K::kAnyNormal), write);
    add(out, ResourcePattern(K::kAnySystemBuckets), write);
    ActionSet sysWrite{A::k_createCollection, A::k_createIndex, A::k_dropCollection, A::k_find,
                       A::k_insert,           A::k_remove,      A::k_update,         A::k_collMod};
    for (StringData sys : {"system.js", "system.views"})
        add(out, ResourcePattern(K::kCollectionInAnyDb, "", std::string(sys)), sysWrite);
    for (StringData sys : {"system.users", "system.roles", "system.version"})
        add(out, ResourcePattern::forNamespace("admin", std::string(sys)), sysWrite);
    add(out, ResourcePattern(K::kCluster), ActionSet{A::k_getParameter});
}

constexpr std::array<StringData, 5> kDatabaseRoles = {"read", "readWrite", "dbAdmin", "dbOwner",
                                                      "userAdmin"};
constexpr std::array<StringData, 9> kAdminRoles = {"clusterMonitor",
                                                   "clusterAdmin",
                                                   "readAnyDatabase",
                                                   "readWriteAnyDatabase",
                                                   "userAdminAnyDatabase",
                                                   "dbAdminAnyDatabase",
                                                   "root",
                                                   "backup",
                                                   "restore"};

}  // namespace

bool isBuiltinRole(StringData role, StringData db) {
    for (auto r : kDatabaseRoles) {
        if (r == role)
            return true;
    }
    if (db != kAdmin)
        return false;
    for (auto r : kAdminRoles) {
        if (r == role)
            return true;
    }
    return false;
}

std::vector<std::string> builtinRoleNames(StringData db) {
    std::vector<std::string> out(kDatabaseRoles.begin(), kDatabaseRoles.end());
    if (db == kAdmin)
        out.insert(out.end(), kAdminRoles.begin(), kAdminRoles.end());
    return out;
}

bool addBuiltinRolePrivileges(StringData role, StringData dbName, std::vector<Privilege>* out) {
    if (!isBuiltinRole(role, dbName))
        return false;
    const std::string db(dbName);
    if (role == "read") {
        addRead(out, db);
    } else if (role == "readWrite") {
        addReadWrite(out, db);
    } else if (role == "dbAdmin") {
        addDbAdmin(out, db);
    } else if (role == "userAdmin") {
        addUserAdmin(out, db);
    } else if (role == "dbOwner") {
        addReadWrite(out, db);
        addDbAdmin(out, db);
        addUserAdmin(out, db);
    } else if (role == "clusterMonitor") {
        addClusterMonitor(out);
    } else if (role == "clusterAdmin") {
        addClusterAdmin(out);
    } else if (role == "readAnyDatabase") {
        addRead(out, "");
        add(out, ResourcePattern(K::kCluster), ActionSet{A::k_listDatabases});
    } else if (role == "readWriteAnyDatabase") {
        addReadWrite(out, "");
        add(out, ResourcePattern(K::kCluster), ActionSet{A::k_listDatabases});
    } else if (role == "userAdminAnyDatabase") {
        addUserAdmin(out, "");
        add(out, ResourcePattern(K::kCluster),
            ActionSet{A::k_authSchemaUpgrade, A::k_invalidateUserCache, A::k_listDatabases});
        for (StringData sys : {"system.users", "system.roles"})
            add(out, ResourcePattern::forNamespace("admin", std::string(sys)),
                ActionSet{A::k_collStats, A::k_dbHash, A::k_dbStats, A::k_find, A::k_killCursors,
                          A::k_planCacheRead, A::k_createIndex, A::k_dropIndex});
    } else if (role == "dbAdminAnyDatabase") {
        addDbAdmin(out, "");
        add(out, ResourcePattern(K::kCluster), ActionSet{A::k_listDatabases});
    } else if (role == "root") {
        for (StringData r : {"readWriteAnyDatabase", "dbAdminAnyDatabase", "userAdminAnyDatabase",
                             "clusterAdmin", "backup", "restore"})
            addBuiltinRolePrivileges(r, kAdmin, out);
        add(out, ResourcePattern(K::kAnyNormal), ActionSet{A::k_validate});
    } else if (role == "backup") {
        addBackup(out);
    } else if (role == "restore") {
        addRestore(out);
    }
    return true;
}

}  // namespace mongo::auth
