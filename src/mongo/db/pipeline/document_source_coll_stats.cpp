// $collStats, $indexStats and $_internalConvertBucketIndexStats (document_source_coll_stats.h).
#include "mongo/db/pipeline/document_source_coll_stats.h"

#include <unistd.h>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/service_context.h"
#include "mongo/db/stats/top.h"
#include "mongo/idl/document_source_coll_stats_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

constexpr StringData kCollStats = "$collStats";
constexpr StringData kIndexStats = "$indexStats";
constexpr StringData kConvertBucketIndexStats = "$_internalConvertBucketIndexStats";
constexpr StringData kUnpackBucket = "$_internalUnpackBucket";

StorageStatsAppender& storageStatsAppender() {
    static StorageStatsAppender fn;
    return fn;
}

BucketsIndexSpecConverter& bucketsIndexSpecConverter() {
    static BucketsIndexSpecConverter fn;
    return fn;
}

/** A source stage that computes its documents when first pulled. */
class DocumentSourceComputed final : public DocumentSourceMaterialized {
public:
    using Fn = std::function<std::vector<BSONObj>(ExpressionContext*)>;
    DocumentSourceComputed(std::shared_ptr<ExpressionContext> expCtx, StringData name, BSONObj spec,
                           Fn fn)
        : DocumentSourceMaterialized(std::move(expCtx)),
          _name(name),
          _spec(spec.getOwned()),
          _fn(std::move(fn)) {}
    std::vector<BSONObj> materialize() override {
        return _fn(_expCtx.get());
    }
    const char* getSourceName() const override {
        return _name.c_str();
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append(_name, _spec);
    }
    StageConstraints constraints() const override {
        return StageConstraints::leadingSource();
    }

private:
    std::string _name;
    BSONObj _spec;
    Fn _fn;
};

/**
 * The collection `nss` for a statistic that needs one: CommandNotSupportedOnView on a view,
 * NamespaceNotFound when absent (both as `what`'s context).
 */
std::shared_ptr<Collection> collectionForStat(OperationContext* opCtx, const NamespaceString& nss,
                                              StringData what) {
    const std::string context = "Unable to retrieve " + std::string(what) + " in $collStats stage";
    auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
    if (!coll && isView(opCtx, nss))
        uassertStatusOK(Status(ErrorCodes::CommandNotSupportedOnView,
                               "Namespace " + nss.ns() + " is a view, not a collection")
                            .withContext(context));
    if (!coll)
        uassertStatusOK(
            Status(ErrorCodes::NamespaceNotFound, "Collection [" + nss.ns() + "] not found.")
                .withContext(context));
    return coll;
}

BSONObj collStats(ExpressionContext* expCtx, const DocumentSourceCollStatsSpec& spec) {
    OperationContext* opCtx = expCtx->opCtx;
    const NamespaceString& nss = expCtx->ns;
    BSONObjBuilder b;
    b.append("ns", nss.ns());
    b.append("host", hostAndPortForStats());
    b.append("localTime", Date_t::now());
    if (const auto& latency = spec.getLatencyStats()) {
        // On a time-series view the stage runs on the buckets; latencies are the view's.
        const NamespaceString latencyNss =
            spec.getRequestOnTimeseriesView() && nss.isTimeseriesBucketsCollection()
                ? nss.getTimeseriesViewNamespace()
                : nss;
        Top::get().appendLatencyStats(latencyNss, latency->getHistograms(), &b);
    }
    if (const auto& storage = spec.getStorageStats()) {
        uassert(ErrorCodes::InternalError, "no storage statistics provider installed",
                static_cast<bool>(storageStatsAppender()));
        BSONObjBuilder s(b.subobjStart("storageStats"));
        try {
            storageStatsAppender()(opCtx, nss, *storage, &s);
        } catch (const DBException& ex) {
            uassertStatusOK(
                ex.toStatus().withContext("Unable to retrieve storageStats in $collStats stage"));
        }
    }
    if (spec.getCount()) {
        auto coll = collectionForStat(opCtx, nss, "count");
        b.append("count", coll->numRecords(opCtx));
    }
    if (spec.getQueryExecStats()) {
        collectionForStat(opCtx, nss, "queryExecStats");
        Top::get().appendQueryExecStats(nss, &b);
    }
    return b.obj();
}

std::vector<BSONObj> indexStats(ExpressionContext* expCtx) {
    auto coll = expCtx->opCtx->getServiceContext()->catalog->lookup(expCtx->ns);
    std::vector<BSONObj> out;
    if (!coll)
        return out;
    std::shared_lock lk(coll->lock());
    const std::string host = hostAndPortForStats();
    for (const auto& idx : coll->indexes()) {
        // A buckets collection's clustered _id key is no index to report (as listIndexes).
        if (idx->desc.spec["clustered"].trueValue() && coll->ns().isTimeseriesBucketsCollection())
            continue;
        BSONObjBuilder b;
        b.append("name", idx->desc.name);
        b.append("key", idx->desc.keyPattern);
        b.append("host", host);
        b.append("accesses", BSON("ops" << idx->accessOps.load() << "since" << idx->accessesSince));
        b.append("spec", idx->desc.spec);
        out.push_back(b.obj());
    }
    return out;
}

/** Replaces the buckets index keys of $indexStats entries by the time-series ones. */
class DocumentSourceConvertBucketIndexStats final : public DocumentSource {
public:
    DocumentSourceConvertBucketIndexStats(std::shared_ptr<ExpressionContext> expCtx,
                                          BSONObj unpackSpec)
        : DocumentSource(std::move(expCtx)), _unpackSpec(unpackSpec.getOwned()) {}

    std::optional<BSONObj> getNext() override {
        while (auto in = _source->getNext()) {
            if (auto converted = convert(*in))
                return converted;
        }
        return std::nullopt;
    }
    const char* getSourceName() const override {
        return kConvertBucketIndexStats.data();
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append(kConvertBucketIndexStats, _unpackSpec);
    }

private:
    /** The entry with `spec` and `key` in the user's schema; nullopt to leave it out. */
    std::optional<BSONObj> convert(const BSONObj& entry) const {
        BSONObjBuilder b;
        for (auto e : entry) {
            StringData f = e.fieldNameStringData();
            if (f == "key")
                continue;  // re-appended after `spec`, from the converted spec
            if (f == "spec" && e.type() == BSONType::kObject) {
                auto spec = bucketsIndexSpecConverter()
                                ? bucketsIndexSpecConverter()(_unpackSpec, e.Obj())
                                : std::nullopt;
                if (!spec)
                    return std::nullopt;
                b.append("spec", *spec);
                b.append("key", (*spec)["key"].type() == BSONType::kObject ? (*spec)["key"].Obj()
                                                                           : BSONObj());
                continue;
            }
            b.append(e);
        }
        return b.obj();
    }

    BSONObj _unpackSpec;
};

const bool kRegistered = [] {
    registerDocumentSource(
        kCollStats, [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(40166, "$collStats must take a nested object but found: " + e.toString(),
                    e.type() == BSONType::kObject);
            auto spec = DocumentSourceCollStatsSpec::parse(e.Obj(), kCollStats);
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceComputed>(
                expCtx, kCollStats, e.Obj(),
                [spec](ExpressionContext* c) { return std::vector<BSONObj>{collStats(c, spec)}; }));
            return out;
        });
    registerDocumentSource(
        kIndexStats,
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(28803, "The $indexStats stage specification must be an empty object",
                    e.type() == BSONType::kObject && e.Obj().isEmpty());
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceComputed>(expCtx, kIndexStats, BSONObj(),
                                                                   indexStats));
            return out;
        },
        StageStability::kNotInAPIVersion1);
    registerDocumentSource(
        kConvertBucketIndexStats,
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(5480000, "$_internalConvertBucketIndexStats specification must be an object",
                    e.type() == BSONType::kObject);
            for (auto f : e.Obj()) {
                StringData n = f.fieldNameStringData();
                uassert(5480003,
                        "unrecognized parameter to $_internalConvertBucketIndexStats: " +
                            std::string(n),
                        n == "timeField" || n == "metaField");
                uassert(n == "timeField" ? 5480001 : 5480002,
                        std::string(n) + " field must be a string", f.type() == BSONType::kString);
            }
            uassert(5480004,
                    "The $_internalConvertBucketIndexStats stage requires a timeField parameter",
                    e.Obj().hasField("timeField"));
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceConvertBucketIndexStats>(expCtx, e.Obj()));
            return out;
        });
    return true;
}();

}  // namespace

void setStorageStatsAppender(StorageStatsAppender fn) {
    storageStatsAppender() = std::move(fn);
}

void setBucketsIndexSpecConverter(BucketsIndexSpecConverter fn) {
    bucketsIndexSpecConverter() = std::move(fn);
}

std::string hostAndPortForStats() {
    char host[256] = {0};
    ::gethostname(host, sizeof(host) - 1);
    const ServiceContext* sc = ServiceContext::get();
    return std::string(host) + ":" + std::to_string(sc ? sc->options.port : 27017);
}

std::optional<StatsStageRewrite> rewriteStatsStageOnView(OperationContext* opCtx,
                                                         const NamespaceString& nss,
                                                         const std::vector<BSONObj>& stages) {
    if (stages.empty())
        return std::nullopt;
    const StringData first = stages.front().firstElementFieldNameStringData();
    if (first != kCollStats && first != kIndexStats)
        return std::nullopt;
    auto view = lookupView(opCtx, nss);
    if (!view)
        return std::nullopt;
    const bool timeseries =
        view->viewOn == nss.makeTimeseriesBucketsNamespace() && !view->pipeline.empty() &&
        view->pipeline.front().firstElementFieldNameStringData() == kUnpackBucket &&
        view->pipeline.front().firstElement().type() == BSONType::kObject;
    if (!timeseries) {
        if (first == kIndexStats)
            return std::nullopt;
        return StatsStageRewrite{nss, stages};
    }
    StatsStageRewrite out{view->viewOn, {}};
    if (first == kCollStats) {
        if (stages.front().firstElement().type() == BSONType::kObject) {
            BSONObjBuilder spec;
            spec.appendElements(stages.front().firstElement().Obj());
            spec.append("$_requestOnTimeseriesView", true);
            out.stages.push_back(BSON(kCollStats << spec.obj()));
        } else {
            out.stages.push_back(stages.front());  // the stage parser rejects it (40166)
        }
    } else {
        BSONObjBuilder convert;
        for (auto e : view->pipeline.front().firstElement().Obj())
            if (e.fieldNameStringData() == "timeField" || e.fieldNameStringData() == "metaField")
                convert.append(e);
        out.stages.push_back(stages.front());
        out.stages.push_back(BSON(kConvertBucketIndexStats << convert.obj()));
    }
    out.stages.insert(out.stages.end(), stages.begin() + 1, stages.end());
    return out;
}

}  // namespace mongo
