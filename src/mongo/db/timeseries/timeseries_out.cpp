// $out into a time-series collection (MongoDB 7.0.3+ behaviour), installed as the pipeline's
// TimeseriesOutWriter (pipeline/document_source_out.h) because the pipeline sits below the
// write path:
//   - a target that is a time-series collection stays one: its options, TTL, collation and
//     secondary indexes are kept, its contents replaced;
//   - with `timeseries` options, a missing target is created time-series; the options must
//     match an existing time-series target (7406103); a target that exists as a plain
//     collection or a view is refused (7268700); the options are parsed as create's (40415...).
// The documents are inserted as measurements into a temporary time-series collection
// (tmp.agg_out.*, through the bucket catalog), whose buckets collection then replaces the
// target's buckets (rename, dropTarget) before the view is made again over them.
#include <atomic>
#include <shared_mutex>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_out.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/timeseries/timeseries_insert.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/time_support.h"

namespace mongo::timeseries {
namespace {

constexpr size_t kBatch = 1000;

bool sameBucketing(const TimeseriesOptions& a, const TimeseriesOptions& b) {
    return a.getTimeField() == b.getTimeField() && a.getMetaField() == b.getMetaField() &&
           a.getGranularity() == b.getGranularity() &&
           a.getBucketMaxSpanSeconds() == b.getBucketMaxSpanSeconds() &&
           a.getBucketRoundingSeconds() == b.getBucketRoundingSeconds();
}

/** {create: <coll>, timeseries, expireAfterSeconds?, collation?} for a pair named `coll`. */
BSONObj createCommand(StringData coll, const TimeseriesOptions& options,
                      const BSONObj& existingBucketsOptions) {
    BSONObjBuilder b;
    b.append("create", coll);
    b.append("timeseries", options.toBSON());
    if (BSONElement ttl = existingBucketsOptions["expireAfterSeconds"]; ttl.isNumber())
        b.append(ttl);
    if (BSONElement collation = existingBucketsOptions["collation"];
        collation.type() == BSONType::kObject)
        b.append(collation);
    return b.obj();
}

void dropPair(OperationContext* opCtx, const NamespaceString& viewNss) {
    BSONObjBuilder ignored;
    try {
        dropTimeseriesCollection(opCtx, viewNss, ignored);
    } catch (const DBException&) {
        // Best effort: a leftover tmp.agg_out.* pair is harmless and dropped by name later.
    }
}

/**
 * The writes run in an operation of their own: the time-series insert path ends its storage
 * transactions with abandonSnapshot(), which would reset the read cursors of the pipeline that
 * feeds `next` (same recovery unit) and make it read documents again. Interrupts of the
 * aggregate reach the writes through `next` and the checks between batches.
 */
bool writeTimeseriesOut(OperationContext* aggOpCtx, const NamespaceString& target,
                        const std::optional<BSONObj>& requested,
                        const std::function<std::optional<BSONObj>()>& next) {
    static std::atomic<long long> internalOpId{-(1LL << 40)};
    ServiceContext* service = aggOpCtx->getServiceContext();
    OperationContext writeCtx(service, nullptr, internalOpId.fetch_sub(1));
    writeCtx.swapRecoveryUnit(service->storageEngine->newRecoveryUnit());
    OperationContext* opCtx = &writeCtx;
    auto* catalog = service->catalog;
    auto existing = lookupTimeseriesCollection(opCtx, target);
    if (!requested && !existing)
        return false;
    TimeseriesOptions options;
    if (requested) {
        options = TimeseriesOptions::parse(*requested, "timeseries");
        uassertStatusOK(validateTimeAndMetaFields(target.ns(), options));
        uassertStatusOK(validateAndSetBucketingParameters(options));
        if (existing) {
            uassert(7406103,
                    "Time-series options given to $out do not match those of the existing "
                    "time-series collection " +
                        target.ns(),
                    sameBucketing(options, existing->options));
        } else {
            uassert(7268700,
                    "Cannot create a time-series collection from a non time-series collection "
                    "or view: " +
                        target.ns(),
                    !catalog->lookup(target) && !lookupView(opCtx, target));
        }
    } else {
        options = existing->options;
    }
    const BSONObj existingOptions =
        existing && existing->buckets ? existing->buckets->options() : BSONObj();

    static std::atomic<long long> counter{0};
    const NamespaceString tmp(target.db(), "tmp.agg_out." +
                                               std::to_string(Date_t::now().toMillisSinceEpoch()) +
                                               "_" + std::to_string(counter.fetch_add(1)));
    createTimeseriesCollection(opCtx, tmp, createCommand(tmp.coll(), options, existingOptions));
    try {
        auto ts = lookupTimeseriesCollection(opCtx, tmp);
        uassert(ErrorCodes::NamespaceNotFound, "$out's temporary collection disappeared",
                ts && ts->buckets);
        if (existing && existing->buckets) {
            // The target's secondary indexes, on the buckets as they are stored.
            std::vector<BSONObj> specs;
            for (const auto& idx : existing->buckets->indexes()) {
                const std::string name = idx->desc.spec["name"].str();
                bool present = false;
                for (const auto& have : ts->buckets->indexes())
                    present = present || have->desc.spec["name"].str() == name;
                if (!present && !idx->desc.isIdIndex())
                    specs.push_back(idx->desc.spec.getOwned());
            }
            if (!specs.empty())
                uassertStatusOK(catalog->createIndexes(opCtx, ts->bucketsNss, specs).getStatus());
        }
        std::vector<BSONObj> batch;
        auto flush = [&] {
            std::shared_lock<std::shared_mutex> lk(ts->buckets->lock());
            auto res = performTimeseriesInserts(opCtx, *ts, batch, /*ordered*/ true);
            if (!res.errors.empty())
                uassertStatusOK(res.errors.front().status);
            batch.clear();
        };
        while (auto doc = next()) {
            batch.push_back(std::move(*doc));
            if (batch.size() >= kBatch) {
                aggOpCtx->checkForInterrupt();
                flush();
            }
        }
        if (!batch.empty())
            flush();

        // Replace: the target's view goes, the buckets are renamed over the target's, the view
        // is made again over them (with the same options, TTL and collation). The bucket
        // catalog forgets both buckets collections' open buckets when the rename (and the drop
        // of the target's buckets in it) commits (TimeseriesOpObserver).
        ts.reset();
        if (existing)
            dropView(opCtx, target);
        uassertStatusOK(catalog->renameCollection(opCtx, tmp.makeTimeseriesBucketsNamespace(),
                                                  target.makeTimeseriesBucketsNamespace(),
                                                  /*dropTarget*/ true));
        dropView(opCtx, tmp);
        createTimeseriesCollection(opCtx, target,
                                   createCommand(target.coll(), options, existingOptions));
    } catch (...) {
        dropPair(opCtx, tmp);
        throw;
    }
    return true;
}

const bool kRegistered = [] {
    setTimeseriesOutWriter(writeTimeseriesOut);
    return true;
}();

}  // namespace
}  // namespace mongo::timeseries
