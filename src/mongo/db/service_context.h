// ServiceContext: the process-wide state of mongod: the storage engine, the
// collection catalog, the cursor manager, the transport layer, start-up options
// and the operation counters that serverStatus reports. One instance, created in
// mongod_main before the listener starts.
//
// Thread safety: the pointers are set during start-up and are then read-only;
// counters are atomics.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/oid.h"
#include "mongo/util/time_support.h"

namespace mongo {

class CollectionCatalog;
class CursorManager;
class TransportLayer;
class KVEngine;
class DurableCatalog;

struct OpCounters {
    std::atomic<long long> insert{0};
    std::atomic<long long> query{0};
    std::atomic<long long> update{0};
    std::atomic<long long> deleted{0};
    std::atomic<long long> getmore{0};
    std::atomic<long long> command{0};
};

struct ServerOptions {
    std::string dbpath = "/data/db";
    int port = 27017;
    std::vector<std::string> bindIps{"127.0.0.1"};
    std::string logpath;
    bool quiet = false;
    std::string collectionBlockCompressor = "snappy";
    std::string journalCompressor = "snappy";
    double cacheSizeGB = 0;    // 0: default
    int maxConns = 1'000'000;  // --maxConns / net.maxIncomingConnections
    std::string replSet;
    /** {argv: [...], parsed: {...}} for getCmdLineOpts. */
    BSONObj cmdLine;
};

class ServiceContext {
public:
    static ServiceContext* get();
    static void set(ServiceContext* sc);

    ServerOptions options;
    KVEngine* storageEngine = nullptr;
    DurableCatalog* durableCatalog = nullptr;
    CollectionCatalog* catalog = nullptr;
    CursorManager* cursorManager = nullptr;
    TransportLayer* transportLayer = nullptr;

    Date_t startTime = Date_t::now();
    OID processId = OID::gen();
    OpCounters opCounters;
    std::atomic<bool> shuttingDown{false};
    std::atomic<long long> nextOpId{1};

    /** Asks the process to shut down (the shutdown command, signals). */
    std::function<void()> requestShutdown;
};

}  // namespace mongo
