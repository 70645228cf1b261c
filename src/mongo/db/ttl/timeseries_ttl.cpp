// TTL of time-series collections (spec timeseries-semantics.md §7): the TTL monitor hands
// every system.buckets.* collection to this handler, which deletes whole buckets.
//  * collection-level expireAfterSeconds: buckets whose _id (bucket start, seconds) is at
//    or before now - expireAfterSeconds - bucketMaxSpanSeconds, so that every measurement
//    of a deleted bucket is past its expiry (a clustered range scan on _id);
//  * partial TTL indexes {control.min.<time>: 1} (created through the view with a
//    meta-only partialFilterExpression): buckets whose key is at or before the same
//    bound and that match the index's partial filter.
// Deleted buckets are direct writes for the bucket catalog: the TimeseriesOpObserver
// (timeseries_op_observer.h) drops their in-memory copies.
#include <shared_mutex>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/db/timeseries/rollups/rollup_maintenance.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/db/timeseries/timeseries_options.h"
#include "mongo/db/ttl/ttl_monitor.h"

namespace mongo {
namespace {

/**
 * Deletes the buckets matching `filter`, in batches. The TimeseriesOpObserver drops each
 * deleted bucket from the bucket catalog; the rollup levels keep its measurements.
 */
long long deleteBuckets(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                        const BSONObj& filter) {
    // Expired raw data stays in the rollup levels, which have their own retention.
    timeseries::rollups::RawExpiryScope rawExpiry;
    return deleteMatchingInBatches(opCtx, coll, filter);
}

std::optional<long long> expireTimeseriesBuckets(OperationContext* opCtx,
                                                 const std::shared_ptr<Collection>& coll,
                                                 Date_t now) {
    if (!coll->ns().isTimeseriesBucketsCollection())
        return std::nullopt;
    std::optional<TimeseriesOptions> options;
    BSONObj collOptions;
    std::vector<BSONObj> ttlIndexes;
    {
        std::shared_lock<std::shared_mutex> lk(coll->lock());
        options = timeseries::getBucketsTimeseriesOptions(*coll);
        if (!options)
            return std::nullopt;  // a plain collection that happens to have a buckets name
        collOptions = coll->options().getOwned();
        for (const auto& idx : coll->indexes())
            if (idx->desc.expireAfterSeconds && idx->desc.keyPattern.nFields() == 1)
                ttlIndexes.push_back(idx->desc.spec.getOwned());
    }
    const long long span = timeseries::getMaxSpanSeconds(*options);
    const long long nowSecs = now.toMillisSinceEpoch() / 1000;
    long long deleted = 0;
    if (collOptions["expireAfterSeconds"].isNumber()) {
        const long long cutoff = nowSecs - collOptions["expireAfterSeconds"].numberLong() - span;
        if (cutoff >= 0)
            deleted +=
                deleteBuckets(opCtx, coll, BSON("_id" << BSON("$lte" << maxOidForSeconds(cutoff))));
    }
    for (const auto& spec : ttlIndexes) {
        BSONElement keyField = spec["key"].Obj().firstElement();
        const long long eas = spec["expireAfterSeconds"].numberLong();
        Date_t cutoff = now - std::chrono::seconds(eas + span);
        BSONArrayBuilder ands;
        ands.append(BSON(keyField.fieldNameStringData() << BSON("$lte" << cutoff)));
        if (spec["partialFilterExpression"].type() == BSONType::kObject)
            ands.append(spec["partialFilterExpression"].Obj());
        deleted += deleteBuckets(opCtx, coll, BSON("$and" << ands.arr()));
    }
    return deleted;
}

const bool kRegistered = [] {
    registerTTLCollectionHandler(expireTimeseriesBuckets);
    return true;
}();

}  // namespace
}  // namespace mongo
