// ReplicationCoordinator: the state of this node as a single-member replica set
// (`--replSet <name>`): the persisted config (local.system.replset), the term,
// and the fields that hello, replSetGetStatus and replSetGetConfig report. A
// node started with --replSet is not writable until replSetInitiate has run (or
// a config was found at start-up); it is then PRIMARY of its own set.
//
// Thread safety: all methods may be called concurrently (one mutex).
#pragma once

#include <mutex>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/oid.h"
#include "mongo/db/namespace_string.h"
#include "mongo/util/time_support.h"

namespace mongo {

class OperationContext;
struct ServerOptions;

namespace repl {

class ReplicationCoordinator {
public:
    static ReplicationCoordinator* get();

    /**
     * Takes --replSet/--port/--bind_ip from `options`. With a set name, loads a
     * config persisted by an earlier replSetInitiate: the node then opens the
     * oplog, starts a new term and logs a "new primary" no-op.
     */
    Status startup(OperationContext* opCtx, const ServerOptions& options);

    /** True when started with --replSet. */
    bool isReplEnabled() const;
    /** True once a config exists (this node is PRIMARY). */
    bool isInitiated() const;
    std::string setName() const;
    /** "host:port" of this node as it appears in the config. */
    std::string me() const;
    long long term() const;

    /**
     * replSetInitiate. `config` may be empty (a default one-member config is built).
     * NoReplicationEnabled 76 without --replSet; AlreadyInitialized 23;
     * InvalidReplicaSetConfig 93 when _id differs from the set name or members is
     * not a one-element array. Appends {info2, me} when no config was given.
     */
    Status initiate(OperationContext* opCtx, const BSONObj& config, BSONObjBuilder* result);

    /** replSetGetStatus body. NoReplicationEnabled 76 / NotYetInitialized 94. */
    Status appendStatus(OperationContext* opCtx, BSONObjBuilder* result) const;
    /** replSetGetConfig: {config: ...}. Same errors as appendStatus. */
    Status appendConfig(BSONObjBuilder* result) const;

    /** The replica-set fields of hello (nothing on a standalone). */
    void appendHelloFields(BSONObjBuilder* result, bool legacyName) const;
    /** False only on a --replSet node that is not initiated yet. */
    bool canAcceptWrites() const;

    /** Checks a command that needs replication: NoReplicationEnabled / NotYetInitialized. */
    Status checkReplEnabledAndInitiated() const;

private:
    Status _persistConfig(OperationContext* opCtx, const BSONObj& config);
    BSONObj _defaultConfig() const;
    void _becomePrimary(OperationContext* opCtx, long long term);

    mutable std::mutex _mutex;
    std::string _setName;
    std::string _me;
    BSONObj _config;
    long long _term = -1;
    OID _electionId;
    Date_t _electionDate;
    Date_t _startTime = Date_t::now();
};

}  // namespace repl
}  // namespace mongo
