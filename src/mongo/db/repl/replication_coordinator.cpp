#include "mongo/db/repl/replication_coordinator.h"

#include <unistd.h>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace repl {

namespace {

const NamespaceString& replsetNss() {
    static const NamespaceString nss("local", "system.replset");
    return nss;
}

OID electionIdForTerm(long long term) {
    unsigned char bytes[12] = {0x7f, 0xff, 0xff, 0xff};
    for (int i = 0; i < 8; ++i)
        bytes[4 + i] =
            static_cast<unsigned char>(static_cast<unsigned long long>(term) >> (56 - 8 * i));
    return OID(bytes);
}

/** The first document of `nss` (empty if none or no collection). */
BSONObj readFirst(OperationContext* opCtx, const NamespaceString& nss) {
    auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
    if (!coll)
        return BSONObj();
    BSONObj out;
    {
        auto cursor = coll->recordStore()->getCursor(opCtx->recoveryUnit(), true);
        if (auto rec = cursor->next())
            out = rec->data;
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    return out;
}

void logNoop(OperationContext* opCtx, StringData msg) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    writeConflictRetry(ru, "logNoop", [&] {
        WriteUnitOfWork wuow(ru);
        OplogEntryParams p;
        p.opType = 'n';
        p.o = BSON("msg" << msg);
        LocalOplog::get()->logOp(opCtx, p);
        wuow.commit();
    });
    ru->abandonSnapshot();
}

}  // namespace

ReplicationCoordinator* ReplicationCoordinator::get() {
    static ReplicationCoordinator instance;
    return &instance;
}

Status ReplicationCoordinator::startup(OperationContext* opCtx, const ServerOptions& options) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _setName = options.replSet;
        std::string host = options.bindIps.empty() ? "127.0.0.1" : options.bindIps.front();
        if (host == "0.0.0.0" || host == "::" || host.find(',') != std::string::npos) {
            char name[256] = {0};
            ::gethostname(name, sizeof(name) - 1);
            host = name;
        }
        _me = host + ":" + std::to_string(options.port);
    }
    if (options.replSet.empty())
        return Status::OK();
    BSONObj config = readFirst(opCtx, replsetNss());
    if (config.isEmpty()) {
        LOGV2_OPTIONS(21313, logv2::Component::kReplication,
                      "Did not find local replica set configuration document at startup");
        return Status::OK();
    }
    if (config["_id"].str() != options.replSet)
        return Status(ErrorCodes::InvalidReplicaSetConfig,
                      "local replica set config has _id " + config["_id"].str() +
                          " but --replSet is " + options.replSet);
    try {
        Status s = LocalOplog::get()->createOrOpen(opCtx);
        if (!s.isOK())
            return s;
        long long term = std::max(1LL, LocalOplog::get()->lastAppliedOpTime().term + 1);
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _config = config.getOwned();
        }
        _becomePrimary(opCtx, term);
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    return Status::OK();
}

void ReplicationCoordinator::_becomePrimary(OperationContext* opCtx, long long term) {
    LocalOplog::get()->setTerm(term);
    {
        std::lock_guard<std::mutex> lk(_mutex);
        _term = term;
        _electionId = electionIdForTerm(term);
        _electionDate = Date_t::now();
    }
    logNoop(opCtx, "new primary");
    LOGV2_OPTIONS(21331, logv2::Component::kReplication, "Transition to primary complete",
                  BSON("term" << term));
}

bool ReplicationCoordinator::isReplEnabled() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return !_setName.empty();
}

bool ReplicationCoordinator::isInitiated() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return !_config.isEmpty();
}

std::string ReplicationCoordinator::setName() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _setName;
}

std::string ReplicationCoordinator::me() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _me;
}

long long ReplicationCoordinator::term() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _term;
}

bool ReplicationCoordinator::canAcceptWrites() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _setName.empty() || !_config.isEmpty();
}

Status ReplicationCoordinator::checkReplEnabledAndInitiated() const {
    std::lock_guard<std::mutex> lk(_mutex);
    if (_setName.empty())
        return Status(ErrorCodes::NoReplicationEnabled, "not running with --replSet");
    if (_config.isEmpty())
        return Status(ErrorCodes::NotYetInitialized, "no replset config has been received");
    return Status::OK();
}

BSONObj ReplicationCoordinator::_defaultConfig() const {
    BSONObjBuilder b;
    b.append("_id", _setName);
    b.append("version", 1);
    b.append("term", 1);
    b.append("members",
             BSON_ARRAY(BSON("_id" << 0 << "host" << _me << "arbiterOnly" << false << "buildIndexes"
                                   << true << "hidden" << false << "priority" << 1.0 << "tags"
                                   << BSONObj() << "secondaryDelaySecs" << 0LL << "votes" << 1)));
    b.append("protocolVersion", 1LL);
    b.append("writeConcernMajorityJournalDefault", true);
    b.append("settings",
             BSON("chainingAllowed"
                  << true << "heartbeatIntervalMillis" << 2000 << "heartbeatTimeoutSecs" << 10
                  << "electionTimeoutMillis" << 10000 << "catchUpTimeoutMillis" << -1
                  << "catchUpTakeoverDelayMillis" << 30000 << "getLastErrorModes" << BSONObj()
                  << "getLastErrorDefaults" << BSON("w" << 1 << "wtimeout" << 0) << "replicaSetId"
                  << OID::gen()));
    return b.obj();
}

Status ReplicationCoordinator::_persistConfig(OperationContext* opCtx, const BSONObj& config) {
    auto* catalog = opCtx->getServiceContext()->catalog;
    try {
        auto coll = catalog->getOrCreateCollection(opCtx, replsetNss());
        RecoveryUnit* ru = opCtx->recoveryUnit();
        writeConflictRetry(ru, "persistReplSetConfig", [&] {
            WriteUnitOfWork wuow(ru);
            coll->insertDocument(opCtx, config);
            wuow.commit();
        });
        ru->abandonSnapshot();
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    return Status::OK();
}

Status ReplicationCoordinator::initiate(OperationContext* opCtx, const BSONObj& given,
                                        BSONObjBuilder* result) {
    std::string setName, me;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_setName.empty())
            return Status(ErrorCodes::NoReplicationEnabled,
                          "This node was not started with replication enabled.");
        if (!_config.isEmpty())
            return Status(ErrorCodes::AlreadyInitialized, "already initialized");
        setName = _setName;
        me = _me;
    }
    BSONObj config;
    if (given.isEmpty()) {
        std::lock_guard<std::mutex> lk(_mutex);
        config = _defaultConfig();
        result->append("info2",
                       "no configuration specified. Using a default configuration for the set");
        result->append("me", me);
    } else {
        if (given["_id"].type() != BSONType::kString || given["_id"].str() != setName)
            return Status(ErrorCodes::InvalidReplicaSetConfig,
                          "Attempting to initiate a replica set with name " + given["_id"].str() +
                              ", but command line reports " + setName + "; rejecting");
        BSONElement members = given["members"];
        if (members.type() != BSONType::kArray || members.Obj().nFields() != 1)
            return Status(ErrorCodes::InvalidReplicaSetConfig,
                          "This single-node server supports exactly one member in the config");
        BSONObjBuilder b;
        for (auto e : given)
            b.append(e);
        if (!given["version"].ok())
            b.append("version", 1);
        if (!given["term"].ok())
            b.append("term", 1);
        if (!given["protocolVersion"].ok())
            b.append("protocolVersion", 1LL);
        config = b.obj();
    }
    Status s = LocalOplog::get()->createOrOpen(opCtx);
    if (!s.isOK())
        return s;
    s = _persistConfig(opCtx, config);
    if (!s.isOK())
        return s;
    try {
        logNoop(opCtx, "initiating set");
        {
            std::lock_guard<std::mutex> lk(_mutex);
            _config = config.getOwned();
        }
        _becomePrimary(opCtx, std::max(1LL, LocalOplog::get()->lastAppliedOpTime().term + 1));
    } catch (const DBException& ex) {
        return ex.toStatus();
    }
    LOGV2_OPTIONS(21356, logv2::Component::kReplication, "replSetInitiate config object parses ok",
                  BSON("numMembers" << 1 << "config" << config));
    return Status::OK();
}

void ReplicationCoordinator::appendHelloFields(BSONObjBuilder* result, bool legacyName) const {
    std::lock_guard<std::mutex> lk(_mutex);
    if (_setName.empty())
        return;
    if (_config.isEmpty()) {
        result->append(legacyName ? "ismaster" : "isWritablePrimary", false);
        result->append("secondary", false);
        result->append("info", "Does not have a valid replica set config");
        result->append("isreplicaset", true);
        return;
    }
    BSONArrayBuilder hosts;
    for (auto m : _config["members"].Obj())
        hosts.append(m.Obj()["host"].str());
    result->append("hosts", hosts.arr());
    result->append("setName", _setName);
    result->append("setVersion", _config["version"].numberInt());
    result->append(legacyName ? "ismaster" : "isWritablePrimary", true);
    result->append("secondary", false);
    result->append("primary", _me);
    result->append("me", _me);
    result->append("electionId", _electionId);
    OpTime last = LocalOplog::get()->lastAppliedOpTime();
    Date_t wall = LocalOplog::get()->lastAppliedWallTime();
    BSONObjBuilder lw(result->subobjStart("lastWrite"));
    lw.append("opTime", last.toBSON());
    lw.append("lastWriteDate", wall);
    lw.append("majorityOpTime", last.toBSON());
    lw.append("majorityWriteDate", wall);
    lw.done();
}

Status ReplicationCoordinator::appendConfig(BSONObjBuilder* result) const {
    Status s = checkReplEnabledAndInitiated();
    if (!s.isOK())
        return s;
    std::lock_guard<std::mutex> lk(_mutex);
    result->append("config", _config);
    return Status::OK();
}

Status ReplicationCoordinator::appendStatus(OperationContext* opCtx, BSONObjBuilder* result) const {
    Status s = checkReplEnabledAndInitiated();
    if (!s.isOK())
        return s;
    std::lock_guard<std::mutex> lk(_mutex);
    OpTime last = LocalOplog::get()->lastAppliedOpTime();
    Date_t wall = LocalOplog::get()->lastAppliedWallTime();
    Date_t now = Date_t::now();
    result->append("set", _setName);
    result->append("date", now);
    result->append("myState", 1);
    result->append("term", _term);
    result->append("syncSourceHost", "");
    result->append("syncSourceId", -1);
    result->append("heartbeatIntervalMillis", 2000LL);
    result->append("majorityVoteCount", 1);
    result->append("writeMajorityCount", 1);
    result->append("votingMembersCount", 1);
    result->append("writableVotingMembersCount", 1);
    {
        BSONObjBuilder o(result->subobjStart("optimes"));
        o.append("lastCommittedOpTime", last.toBSON());
        o.append("lastCommittedWallTime", wall);
        o.append("readConcernMajorityOpTime", last.toBSON());
        o.append("appliedOpTime", last.toBSON());
        o.append("durableOpTime", last.toBSON());
        o.append("lastAppliedWallTime", wall);
        o.append("lastDurableWallTime", wall);
    }
    BSONArrayBuilder members(result->subarrayStart("members"));
    BSONObj m0 = _config["members"].Obj().firstElement().Obj();
    BSONObjBuilder m(members.subobjStart());
    m.append(m0["_id"]);
    m.append("name", m0["host"].str());
    m.append("health", 1.0);
    m.append("state", 1);
    m.append("stateStr", "PRIMARY");
    m.append("uptime", (now.toMillisSinceEpoch() - _startTime.toMillisSinceEpoch()) / 1000);
    m.append("optime", last.toBSON());
    m.append("optimeDate", Date_t::fromMillisSinceEpoch(last.ts.getSecs() * 1000LL));
    m.append("lastAppliedWallTime", wall);
    m.append("lastDurableWallTime", wall);
    m.append("syncSourceHost", "");
    m.append("syncSourceId", -1);
    m.append("infoMessage", "");
    m.append("electionTime",
             Timestamp(static_cast<std::uint32_t>(_electionDate.toMillisSinceEpoch() / 1000), 1));
    m.append("electionDate", _electionDate);
    m.append("configVersion", _config["version"].numberInt());
    m.append("configTerm", _config["term"].numberInt());
    m.append("self", true);
    m.append("lastHeartbeatMessage", "");
    m.done();
    members.done();
    return Status::OK();
}

}  // namespace repl
}  // namespace mongo
