// collStats, dbStats, serverStatus.
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/storage_stats.h"
#include "mongo/db/cursor_manager.h"
#include "mongo/db/exec/plan_stage.h"
#include "mongo/db/logical_session_cache.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/ttl/ttl_monitor.h"
#include "mongo/idl/document_source_coll_stats_gen.h"
#include "mongo/idl/list_commands_gen.h"
#include "mongo/transport/transport_layer.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

struct CollSizes {
    long long count = 0, size = 0, storageSize = 0, totalIndexSize = 0;
};

CollSizes sizesOf(OperationContext* opCtx, const Collection& c, BSONObjBuilder* indexSizes,
                  long long scale) {
    CollSizes s;
    auto* ru = opCtx->recoveryUnit();
    s.count = c.recordStore()->numRecords(ru);
    s.size = c.recordStore()->dataSize(ru);
    s.storageSize = c.recordStore()->storageSize(ru);
    for (const auto& idx : c.indexes()) {
        long long is = idx->sdi->storageSize(ru);
        s.totalIndexSize += is;
        if (indexSizes)
            indexSizes->append(idx->desc.name, is / scale);
    }
    return s;
}

class CollStatsCmd : public Command {
public:
    CollStatsCmd() : Command("collStats") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = CollStatsCommand::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        StorageStatsSpec spec;
        spec.setScale(cmd.getScale());
        spec.setVerbose(cmd.getVerbose().value_or(false));
        result.append("ns", nss.ns());
        try {
            appendCollectionStorageStats(opCtx, nss, spec, &result);
        } catch (const DBException& ex) {
            if (ex.code() != ErrorCodes::NamespaceNotFound)
                throw;
            // As upstream, the command (unlike $collStats) reports a missing collection as
            // empty rather than failing.
            for (const char* f : {"size", "count", "numOrphanDocs", "storageSize", "totalSize",
                                  "nindexes", "totalIndexSize"})
                result.append(f, 0);
            result.append("indexSizes", BSONObj());
            result.append("scaleFactor", cmd.getScale().value_or(1));
        }
    }
};
MONGO_REGISTER_COMMAND(CollStatsCmd)

class DbStatsCmd : public Command {
public:
    DbStatsCmd() : Command("dbStats", {"dbstats"}) {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = DBStatsCommand::parse(req.body);
        long long scale = cmd.getScale().value_or(1);
        CollSizes total;
        long long nIndexes = 0;
        auto colls = opCtx->getServiceContext()->catalog->collectionsInDb(req.dbName);
        for (const auto& c : colls) {
            CollSizes s = sizesOf(opCtx, *c, nullptr, 1);
            total.count += s.count;
            total.size += s.size;
            total.storageSize += s.storageSize;
            total.totalIndexSize += s.totalIndexSize;
            nIndexes += static_cast<long long>(c->indexes().size());
        }
        result.append("db", req.dbName);
        result.append("collections", static_cast<long long>(colls.size()));
        // Every view, time-series views included (upstream counts the view catalog).
        result.append("views", static_cast<long long>(viewsInDb(opCtx, req.dbName).size()));
        result.append("objects", total.count);
        result.append("avgObjSize",
                      total.count ? static_cast<double>(total.size) / total.count : 0.0);
        result.append("dataSize", static_cast<double>(total.size) / scale);
        result.append("storageSize", static_cast<double>(total.storageSize) / scale);
        result.append("indexes", nIndexes);
        result.append("indexSize", static_cast<double>(total.totalIndexSize) / scale);
        result.append("totalSize",
                      static_cast<double>(total.storageSize + total.totalIndexSize) / scale);
        result.append("scaleFactor", scale);
        struct statvfs fs;
        double fsTotal = 0, fsUsed = 0;
        if (statvfs(opCtx->getServiceContext()->options.dbpath.c_str(), &fs) == 0) {
            fsTotal = static_cast<double>(fs.f_blocks) * fs.f_frsize;
            fsUsed = fsTotal - static_cast<double>(fs.f_bfree) * fs.f_frsize;
        }
        result.append("fsUsedSize", fsUsed / scale);
        result.append("fsTotalSize", fsTotal / scale);
    }
};
MONGO_REGISTER_COMMAND(DbStatsCmd)

long long readStatusKB(const char* key) {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind(key, 0) == 0)
            return std::atoll(line.c_str() + std::strlen(key));
    }
    return 0;
}

class ServerStatusCmd : public Command {
public:
    ServerStatusCmd() : Command("serverStatus") {}

    void run(OperationContext* opCtx, const CommandRequest&, BSONObjBuilder& result) override {
        ServiceContext* sc = opCtx->getServiceContext();
        char host[256] = {0};
        gethostname(host, sizeof(host) - 1);
        Date_t now = Date_t::now();
        long long upMillis = (now - sc->startTime).count();
        result.append("host", host);
        result.append("version", "8.0.0");
        result.append("process", "mongod");
        result.append("pid", static_cast<long long>(getpid()));
        result.append("uptime", static_cast<double>(upMillis / 1000));
        result.append("uptimeMillis", upMillis);
        result.append("uptimeEstimate", upMillis / 1000);
        result.append("localTime", now);
        {
            int current = sc->transportLayer ? sc->transportLayer->numOpenConnections() : 0;
            BSONObjBuilder c(result.subobjStart("connections"));
            c.append("current", current);
            const int maxConns =
                sc->transportLayer ? sc->transportLayer->maxConns() : sc->options.maxConns;
            c.append("available", maxConns - current);
            c.append("totalCreated", sc->transportLayer ? sc->transportLayer->totalCreated() : 0LL);
            c.append("active", current);
        }
        if (sc->transportLayer && sc->transportLayer->tlsMode() != TlsMode::kDisabled) {
            // Upstream's TLS fields of the security section.
            BSONObjBuilder sec(result.subobjStart("security"));
            sec.append("SSLServerSubjectName", sc->transportLayer->tlsServerSubject());
            sec.append("SSLServerHasCertificateAuthority", sc->transportLayer->tlsHasCA());
            sec.appendDate(
                "SSLServerCertificateExpirationDate",
                Date_t::fromMillisSinceEpoch(sc->transportLayer->tlsServerCertificateExpiry()));
        }
        {
            BSONObjBuilder l(result.subobjStart("logicalSessionRecordCache"));
            l.append("activeSessionsCount", static_cast<int>(LogicalSessionCache::get().size()));
        }
        {
            BSONObjBuilder o(result.subobjStart("opcounters"));
            o.append("insert", sc->opCounters.insert.load());
            o.append("query", sc->opCounters.query.load());
            o.append("update", sc->opCounters.update.load());
            o.append("delete", sc->opCounters.deleted.load());
            o.append("getmore", sc->opCounters.getmore.load());
            o.append("command", sc->opCounters.command.load());
        }
        {
            BSONObjBuilder m(result.subobjStart("mem"));
            m.append("bits", 64);
            m.append("resident", readStatusKB("VmRSS:") / 1024);
            m.append("virtual", readStatusKB("VmSize:") / 1024);
            m.append("supported", true);
        }
        {
            BSONObjBuilder m(result.subobjStart("metrics"));
            BSONObjBuilder cur(m.subobjStart("cursor"));
            cur.append("timedOut", sc->cursorManager ? sc->cursorManager->totalTimedOut() : 0LL);
            {
                BSONObjBuilder open(cur.subobjStart("open"));
                open.append("noTimeout",
                            static_cast<long long>(
                                sc->cursorManager ? sc->cursorManager->numOpenNoTimeout() : 0));
                open.append("total", static_cast<long long>(
                                         sc->cursorManager ? sc->cursorManager->numOpen() : 0));
            }
            cur.done();
            const auto& qe = queryExecutorCounters();
            m.append("queryExecutor", BSON("scanned" << qe.scanned.load() << "scannedObjects"
                                                     << qe.scannedObjects.load()));
            const auto& ttl = ttlMetrics();
            m.append("ttl", BSON("deletedDocuments" << ttl.deletedDocuments.load() << "passes"
                                                    << ttl.passes.load()));
        }
        timeseries::appendBucketCatalogServerStatus(result);
        {
            BSONObjBuilder se(result.subobjStart("storageEngine"));
            se.append("name", "wiredTiger");
            se.append("supportsCommittedReads", true);
            se.append("oldestRequiredTimestampForCrashRecovery", Timestamp());
            se.append("supportsPendingDrops", true);
            se.append("dropPendingIdents", 0LL);
            se.append("supportsSnapshotReadConcern", true);
            se.append("readOnly", false);
            se.append("persistent", true);
            se.append("backupCursorOpen", false);
        }
    }
};
MONGO_REGISTER_COMMAND(ServerStatusCmd)

}  // namespace
}  // namespace mongo
