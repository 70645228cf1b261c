// validate and compact. On a time-series view both act on its buckets collection (as
// upstream); on any other view they fail with CommandNotSupportedOnView.
#include <mutex>
#include <shared_mutex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/collection_validation.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/timeseries/timeseries_bucket_validation.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/idl/maintenance_commands_gen.h"
#include "mongo/logv2/log.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** `nss`, or the buckets collection when `nss` is a time-series view. */
NamespaceString resolveTimeseries(OperationContext* opCtx, const NamespaceString& nss) {
    if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss))
        return ts->bucketsNss;
    return nss;
}

class ValidateCmd : public Command {
public:
    ValidateCmd() : Command("validate") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = ValidateCommand::parse(req.body);
        checkOptions(cmd);
        const NamespaceString nss =
            resolveTimeseries(opCtx, NamespaceString(req.dbName, cmd.getCollectionName()));
        auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
        uassert(ErrorCodes::CommandNotSupportedOnView, "Cannot validate a view",
                coll || !isView(opCtx, nss));
        uassert(ErrorCodes::NamespaceNotFound,
                "Collection '" + nss.ns() + "' does not exist to validate.", coll);
        // Exclusive, as upstream's foreground validate: no write commits during the scan, so
        // the counted records can replace the fast count.
        std::unique_lock lk(coll->lock());
        uassert(ErrorCodes::NamespaceNotFound,
                "Collection '" + nss.ns() + "' does not exist to validate.", !coll->isDropped());

        ValidateOptions options;
        options.full = cmd.getFull();
        options.checkBSONConformance = cmd.getCheckBSONConformance();
        options.enforceFastCount = cmd.getEnforceFastCount() || cmd.getFull();
        if (nss.isTimeseriesBucketsCollection()) {
            if (auto tsOptions = timeseries::getBucketsTimeseriesOptions(*coll)) {
                const StringComparator* strings = coll->getDefaultCollator();
                options.recordCheck = [tsOptions, strings](const BSONObj& bucket) {
                    return timeseries::validateBucket(bucket, *tsOptions, strings);
                };
                options.recordCheckWarning =
                    std::string(timeseries::kTimeseriesValidationInconsistencyWarning);
            }
        }
        LOGV2(20514, "validate starting", BSON("ns" << nss.ns() << "full" << options.full));
        result.append("ns", nss.ns());
        BSONElement uuid = coll->options()["uuid"];
        if (uuid.type() == BSONType::kBinData)
            result.appendAs(uuid, "uuid");
        const bool valid = validateCollection(opCtx, *coll, options, &result);
        if (!valid)
            result.append("advice",
                          "A corrupt namespace has been detected. See "
                          "http://dochub.mongodb.org/core/data-recovery for recovery steps.");
    }

private:
    static void checkOptions(const ValidateCommand& cmd) {
        uassert(ErrorCodes::CommandNotSupported,
                "validate with { repair: true } is not supported by this server", !cmd.getRepair());
        uassert(ErrorCodes::CommandNotSupported,
                "validate with { metadata: true } is not supported by this server",
                !cmd.getMetadata());
        uassert(ErrorCodes::CommandNotSupported,
                "validate with { fixMultikey: true } is not supported by this server",
                !cmd.getFixMultikey());
        // Every validation reads one storage snapshot without blocking writers, which is
        // what background validation asks for; its option conflicts are upstream's.
        uassert(ErrorCodes::InvalidOptions,
                "Running the validate command with both { background: true } and { full: true }"
                " is not supported.",
                !(cmd.getBackground() && cmd.getFull()));
        uassert(ErrorCodes::InvalidOptions,
                "Running the validate command with both { background: true } and "
                "{ enforceFastCount: true } is not supported.",
                !(cmd.getBackground() && cmd.getEnforceFastCount()));
    }
};
MONGO_REGISTER_COMMAND(ValidateCmd)

class CompactCmd : public Command {
public:
    CompactCmd() : Command("compact") {}

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = CompactCommand::parse(req.body);
        // WiredTiger 3.2's compact has neither an estimate-only mode nor a free-space target.
        uassert(ErrorCodes::CommandNotSupported,
                "compact with { dryRun: true } is not supported by this server's storage engine",
                !cmd.getDryRun());
        uassert(ErrorCodes::CommandNotSupported,
                "compact with freeSpaceTargetMB is not supported by this server's storage engine",
                !cmd.getFreeSpaceTargetMB());
        const NamespaceString nss =
            resolveTimeseries(opCtx, NamespaceString(req.dbName, cmd.getCollectionName()));
        auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
        uassert(ErrorCodes::CommandNotSupportedOnView, "can't compact a view",
                coll || !isView(opCtx, nss));
        uassert(ErrorCodes::NamespaceNotFound, "collection does not exist", coll);
        std::shared_lock lk(coll->lock());  // no drop or index change meanwhile
        uassert(ErrorCodes::NamespaceNotFound, "collection does not exist", !coll->isDropped());

        KVEngine* engine = opCtx->getServiceContext()->storageEngine;
        RecoveryUnit* ru = opCtx->recoveryUnit();
        auto totalSize = [&] {
            long long bytes = coll->recordStore()->storageSize(ru);
            for (const auto& idx : coll->indexes())
                bytes += idx->sdi->storageSize(ru);
            return bytes;
        };
        LOGV2(20284, "Compact begin", BSON("namespace" << nss.ns()));
        const long long before = totalSize();
        ru->abandonSnapshot();  // WiredTiger compacts from its own session, outside any snapshot
        uassertStatusOK(engine->compact(coll->recordStore()->ident()));
        for (const auto& idx : coll->indexes()) {
            opCtx->checkForInterrupt();
            uassertStatusOK(engine->compact(idx->ident));
        }
        const long long after = totalSize();
        LOGV2(7386700, "Compact end",
              BSON("namespace" << nss.ns() << "bytesBefore" << before << "bytesAfter" << after));
        // Like upstream, may be negative: compaction can grow a file with little free space.
        result.appendNumber("bytesFreed", before - after);
    }
};
MONGO_REGISTER_COMMAND(CompactCmd)

}  // namespace
}  // namespace mongo
