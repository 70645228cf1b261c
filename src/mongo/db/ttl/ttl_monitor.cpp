#include "mongo/db/ttl/ttl_monitor.h"

#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

std::vector<TTLCollectionHandler>& handlers() {
    static std::vector<TTLCollectionHandler> h;
    return h;
}

constexpr int kDeleteBatch = 1000;

}  // namespace

void registerTTLCollectionHandler(TTLCollectionHandler handler) {
    handlers().push_back(std::move(handler));
}

TTLMetrics& ttlMetrics() {
    static TTLMetrics m;
    return m;
}

long long deleteMatchingInBatches(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                                  const BSONObj& filter) {
    FindPlanParams params;
    params.filter = filter;
    params.matcher = uassertStatusOK(parseMatchExpression(filter));
    RecoveryUnit* ru = opCtx->recoveryUnit();
    long long deleted = 0;
    while (true) {
        std::vector<RecordId> ids;
        {
            std::shared_lock<std::shared_mutex> lk(coll->lock());
            if (coll->isDropped())
                return deleted;
            auto exec = buildFindPlan(opCtx, coll, params);
            BSONObj doc;
            RecordId id;
            while (ids.size() < static_cast<size_t>(kDeleteBatch) &&
                   exec->getNext(opCtx, &doc, &id))
                ids.push_back(id);
        }
        ru->abandonSnapshot();
        if (ids.empty())
            return deleted;
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        for (RecordId id : ids) {
            writeConflictRetry(ru, "ttlDelete", [&] {
                WriteUnitOfWork wuow(ru);
                BSONObj doc;
                // Re-check: the document may have changed since it was found.
                if (coll->recordStore()->findRecord(ru, id, &doc) &&
                    (!params.matcher || params.matcher->matchesBSON(doc))) {
                    coll->deleteDocument(opCtx, id, doc);
                    ++deleted;
                }
                wuow.commit();
            });
            ru->abandonSnapshot();
        }
        if (ids.size() < static_cast<size_t>(kDeleteBatch))
            return deleted;
    }
}

long long deleteExpiredDocuments(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                                 const IndexEntry& index, Date_t now) {
    const auto& desc = index.desc;
    if (!desc.expireAfterSeconds || desc.keyPattern.nFields() != 1)
        return 0;
    std::string field(desc.keyPattern.firstElementFieldNameStringData());
    Date_t cutoff = now - std::chrono::milliseconds(*desc.expireAfterSeconds * 1000);
    BSONObj filter = BSON(field << BSON("$lte" << cutoff));
    return deleteMatchingInBatches(opCtx, coll, filter);
}

OID maxOidForSeconds(long long secs) {
    unsigned char bytes[12];
    const auto s = static_cast<uint32_t>(secs);
    bytes[0] = static_cast<unsigned char>(s >> 24);
    bytes[1] = static_cast<unsigned char>(s >> 16);
    bytes[2] = static_cast<unsigned char>(s >> 8);
    bytes[3] = static_cast<unsigned char>(s);
    for (int i = 4; i < 12; ++i)
        bytes[i] = 0xff;
    return OID::from(bytes);
}

long long deleteExpiredClusteredDocuments(OperationContext* opCtx,
                                          const std::shared_ptr<Collection>& coll, Date_t now) {
    BSONElement ttl;
    {
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        if (!coll->isClustered() || coll->ns().isTimeseriesBucketsCollection())
            return 0;
        ttl = coll->options()["expireAfterSeconds"];
        if (!ttl.isNumber())
            return 0;
    }
    const Date_t cutoff = now - std::chrono::seconds(ttl.numberLong());
    const long long cutoffSecs = cutoff.toMillisSinceEpoch() / 1000;
    BSONArrayBuilder ors;
    // Comparisons stay within a BSON type: the OID bound matches ObjectIds, the date dates.
    if (cutoffSecs >= 0)
        ors.append(BSON("_id" << BSON("$lte" << maxOidForSeconds(cutoffSecs))));
    ors.append(BSON("_id" << BSON("$lte" << cutoff)));
    return deleteMatchingInBatches(opCtx, coll, BSON("$or" << ors.arr()));
}

long long doTTLPass(OperationContext* opCtx, Date_t now) {
    auto* catalog = opCtx->getServiceContext()->catalog;
    long long deleted = 0;
    for (const auto& db : catalog->databaseNames()) {
        for (const auto& coll : catalog->collectionsInDb(db)) {
            bool handled = false;
            for (const auto& h : handlers()) {
                if (auto n = h(opCtx, coll, now)) {
                    deleted += *n;
                    handled = true;
                    break;
                }
            }
            if (handled)
                continue;
            std::vector<std::shared_ptr<IndexEntry>> ttlIndexes;
            {
                std::shared_lock<std::shared_mutex> lk(coll->lock());
                for (const auto& idx : coll->indexes()) {
                    if (idx->desc.expireAfterSeconds)
                        ttlIndexes.push_back(idx);
                }
            }
            for (const auto& idx : ttlIndexes)
                deleted += deleteExpiredDocuments(opCtx, coll, *idx, now);
            deleted += deleteExpiredClusteredDocuments(opCtx, coll, now);
        }
    }
    ttlMetrics().deletedDocuments.fetch_add(deleted);
    ttlMetrics().passes.fetch_add(1);
    return deleted;
}

TTLMonitor::TTLMonitor(ServiceContext* sc)
    : _sc(sc),
      _thread(
          [] { logv2::setThreadName("TTLMonitor"); },
          [] {
              return std::chrono::milliseconds(1000LL * std::max(1, gTTLMonitorSleepSecs.load()));
          },
          [this] { _pass(); }, false) {}

void TTLMonitor::_pass() {
    if (!gTTLMonitorEnabled.load() || !repl::ReplicationCoordinator::get()->canAcceptWrites())
        return;
    OperationContext opCtx(_sc, nullptr, --_opId);
    opCtx.swapRecoveryUnit(_sc->storageEngine->newRecoveryUnit());
    try {
        long long n = doTTLPass(&opCtx, Date_t::now());
        if (n > 0)
            LOGV2_OPTIONS(5479200, logv2::Component::kIndex, "Deleted expired documents",
                          BSON("numDeleted" << n));
    } catch (const DBException& ex) {
        LOGV2_WARNING(22537, "TTLMonitor was interrupted",
                      BSON("error" << ex.toStatus().toString()));
    }
}

}  // namespace mongo
