// Privilege actions (upstream's names, "Privilege Actions" in the manual) and ActionSet,
// a bitset of them: a privilege check is a few word operations.
#pragma once

#include <bitset>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/string_data.h"

namespace mongo::auth {

// clang-format off
#define MONGO_AUTH_ACTIONS(X)                                                                    \
    X(anyAction) X(appendOplogNote) X(applicationMessage) X(applyOps) X(authSchemaUpgrade)         \
    X(bypassDocumentValidation) X(changeCustomData) X(changeOwnCustomData) X(changeOwnPassword)    \
    X(changePassword) X(changeStream) X(checkFreeMonitoringStatus) X(cleanupOrphaned)              \
    X(closeAllDatabases) X(collMod) X(collStats) X(compact) X(connPoolStats) X(connPoolSync)        \
    X(convertToCapped) X(cpuProfiler) X(createCollection) X(createIndex) X(createRole)             \
    X(createUser) X(dbHash) X(dbStats) X(dropAllRolesFromDatabase) X(dropAllUsersFromDatabase)     \
    X(dropCollection) X(dropConnections) X(dropDatabase) X(dropIndex) X(dropRole) X(dropUser)      \
    X(enableProfiler) X(find) X(flushRouterConfig) X(fsync) X(getCmdLineOpts)                      \
    X(getDefaultRWConcern) X(getLog) X(getParameter) X(grantRole) X(hostInfo) X(impersonate)       \
    X(indexStats) X(inprog) X(insert) X(internal) X(invalidateUserCache) X(killAnyCursor)          \
    X(killAnySession) X(killCursors) X(killop) X(listCollections) X(listDatabases)                 \
    X(listIndexes) X(listSearchIndexes) X(listSessions) X(logRotate) X(netstat)                    \
    X(planCacheIndexFilter) X(planCacheRead) X(planCacheWrite) X(reIndex) X(remove)               \
    X(renameCollection) X(renameCollectionSameDB) X(replSetConfigure) X(replSetGetConfig)          \
    X(replSetGetStatus) X(replSetHeartbeat) X(replSetStateChange) X(resync) X(revokeRole)          \
    X(serverStatus) X(setAuthenticationRestriction) X(setDefaultRWConcern)                         \
    X(setFeatureCompatibilityVersion) X(setParameter) X(shutdown) X(storageDetails) X(top)         \
    X(touch) X(unlock) X(update) X(useUUID) X(validate) X(viewRole) X(viewUser)
// clang-format on

enum class ActionType {
#define MONGO_AUTH_ACTION_ENUM(name) k_##name,
    MONGO_AUTH_ACTIONS(MONGO_AUTH_ACTION_ENUM)
#undef MONGO_AUTH_ACTION_ENUM
        kNumActions
};

/** "find" for ActionType::k_find. */
StringData actionName(ActionType a);
/** The action named `name`, or nullopt. */
std::optional<ActionType> parseActionName(StringData name);

class ActionSet {
public:
    ActionSet() = default;
    ActionSet(std::initializer_list<ActionType> actions) {
        for (auto a : actions)
            add(a);
    }
    void add(ActionType a) {
        _bits.set(static_cast<size_t>(a));
    }
    void add(const ActionSet& other) {
        _bits |= other._bits;
    }
    void remove(const ActionSet& other) {
        _bits &= ~other._bits;
    }
    bool contains(ActionType a) const {
        return _bits.test(static_cast<size_t>(a));
    }
    /** True when every action of `other` is here (or anyAction is). */
    bool containsAll(const ActionSet& other) const {
        return contains(ActionType::k_anyAction) || (other._bits & ~_bits).none();
    }
    bool empty() const {
        return _bits.none();
    }
    bool operator==(const ActionSet& o) const {
        return _bits == o._bits;
    }
    /** Action names in enum (alphabetical) order. */
    std::vector<std::string> names() const;

private:
    std::bitset<static_cast<size_t>(ActionType::kNumActions)> _bits;
};

}  // namespace mongo::auth
