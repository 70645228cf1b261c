#include "mongo/db/commands/storage_stats.h"

#include <shared_mutex>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_coll_stats.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/timeseries/timeseries_index_schema_conversion_functions.h"
#include "mongo/idl/document_source_coll_stats_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

void appendCollectionStorageStats(OperationContext* opCtx, const NamespaceString& nss,
                                  const StorageStatsSpec& spec, BSONObjBuilder* result) {
    const long long scale = spec.getScale().value_or(1);
    auto* catalog = opCtx->getServiceContext()->catalog;
    // A time-series collection is reported from its buckets, named by either half.
    const NamespaceString bucketsNss =
        nss.isTimeseriesBucketsCollection() ? nss : nss.makeTimeseriesBucketsNamespace();
    auto buckets = catalog->lookup(bucketsNss);
    std::optional<timeseries::TimeseriesCollection> ts;
    if (buckets && (nss.isTimeseriesBucketsCollection() || !catalog->lookup(nss))) {
        if (auto options = timeseries::getBucketsTimeseriesOptions(*buckets))
            ts = timeseries::TimeseriesCollection{bucketsNss.getTimeseriesViewNamespace(),
                                                  bucketsNss, buckets, *options};
    }
    auto coll = ts ? buckets : catalog->lookup(nss);
    uassert(ErrorCodes::CommandNotSupportedOnView,
            "Namespace " + nss.ns() + " is a view, not a collection", coll || !isView(opCtx, nss));
    uassert(ErrorCodes::NamespaceNotFound, "Collection [" + nss.ns() + "] not found.", coll);

    std::shared_lock lk(coll->lock());
    RecoveryUnit* ru = opCtx->recoveryUnit();
    const long long count = coll->numRecords(opCtx);
    const long long size = coll->dataSize(opCtx);
    result->appendNumber("size", size / scale);
    if (ts) {
        timeseries::appendTimeseriesStatsSection(opCtx, *ts, *result);
    } else {
        result->appendNumber("count", count);
        if (count > 0)
            result->appendNumber("avgObjSize", size / count);
    }
    result->appendNumber("numOrphanDocs", 0);  // not sharded: never any orphans
    // A clustered collection (time-series buckets) keeps its _id order in an index marked
    // `clustered`; upstream's clustered table holds both, so its bytes count as the
    // collection's storage and it is not reported among the indexes.
    auto isClustered = [](const IndexEntry& idx) { return idx.desc.spec["clustered"].trueValue(); };
    long long storageSize = coll->recordStore()->storageSize(ru);
    int nindexes = 0;
    for (const auto& idx : coll->indexes()) {
        if (isClustered(*idx))
            storageSize += idx->sdi->storageSize(ru);
        else
            ++nindexes;
    }
    result->appendNumber("storageSize", storageSize / scale);
    result->append("capped", coll->isCapped());
    if (coll->isCapped()) {
        result->appendNumber("max", coll->options()["max"].numberLong());
        result->appendNumber("maxSize", coll->options()["size"].numberLong() / scale);
    }
    // The table's identity and creation config; numericOnly asks for numbers only, and we
    // report no WiredTiger statistics beyond the sizes above.
    const bool numericOnly = spec.getNumericOnly();
    KVEngine* engine = opCtx->getServiceContext()->storageEngine;
    auto tableDetails = [numericOnly, engine](const std::string& ident) {
        if (numericOnly)
            return BSONObj();
        BSONObjBuilder b;
        b.append("type", "file");
        b.append("uri", "statistics:table:" + ident);
        if (engine)
            b.append("creationString", engine->getCreationString(ident));
        return b.obj();
    };
    result->append("wiredTiger", tableDetails(coll->recordStore()->ident()));
    result->append("nindexes", nindexes);
    BSONObjBuilder details, sizes;
    long long totalIndexSize = 0;
    for (const auto& idx : coll->indexes()) {
        if (isClustered(*idx))
            continue;
        const long long s = idx->sdi->storageSize(ru);
        totalIndexSize += s;
        sizes.appendNumber(idx->desc.name, s / scale);
        details.append(idx->desc.name, tableDetails(idx->ident));
    }
    result->append("indexDetails", details.obj());
    result->append("indexBuilds", BSONArray());  // builds finish inside createIndexes
    result->appendNumber("totalIndexSize", totalIndexSize / scale);
    result->append("indexSizes", sizes.obj());
    result->appendNumber("totalSize", (storageSize + totalIndexSize) / scale);
    result->append("scaleFactor", static_cast<int>(scale));
}

namespace {

std::optional<BSONObj> bucketsIndexSpecToTimeseries(const BSONObj& unpackSpec,
                                                    const BSONObj& bucketsSpec) {
    if (unpackSpec["timeField"].type() != BSONType::kString)
        return std::nullopt;
    TimeseriesOptions options;
    options.setTimeField(unpackSpec["timeField"].str());
    if (unpackSpec["metaField"].type() == BSONType::kString)
        options.setMetaField(unpackSpec["metaField"].str());
    return timeseries::createTimeseriesIndexFromBucketsIndex(options, bucketsSpec);
}

const bool kHooksInstalled = [] {
    setStorageStatsAppender(appendCollectionStorageStats);
    setBucketsIndexSpecConverter(bucketsIndexSpecToTimeseries);
    return true;
}();

}  // namespace
}  // namespace mongo
