// $collStats and $indexStats (statistics of the pipeline's collection).
#include <unistd.h>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/sorted_data_interface.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

std::string hostName() {
    char host[256] = {0};
    gethostname(host, sizeof(host) - 1);
    return std::string(host) + ":27017";
}

/** A source that computes its documents when first pulled. */
class DocumentSourceComputed final : public DocumentSourceMaterialized {
public:
    using Fn = std::function<std::vector<BSONObj>(ExpressionContext*)>;
    DocumentSourceComputed(std::shared_ptr<ExpressionContext> expCtx, std::string name,
                           BSONObj spec, Fn fn)
        : DocumentSourceMaterialized(std::move(expCtx)),
          _name(std::move(name)),
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
        StageConstraints c;
        c.requiresFirst = true;
        c.needsInput = false;
        c.allowedInFacet = false;
        return c;
    }

private:
    std::string _name;
    BSONObj _spec;
    Fn _fn;
};

std::vector<BSONObj> collStats(ExpressionContext* expCtx, const BSONObj& spec) {
    auto* opCtx = expCtx->opCtx;
    auto coll = opCtx->getServiceContext()->catalog->lookup(expCtx->ns);
    BSONObjBuilder b;
    b.append("ns", expCtx->ns.ns());
    b.append("host", hostName());
    b.append("localTime", Date_t::now());
    auto* ru = opCtx->recoveryUnit();
    long long count = coll ? coll->recordStore()->numRecords(ru) : 0;
    long long size = coll ? coll->recordStore()->dataSize(ru) : 0;
    if (spec.hasField("latencyStats"))
        b.append("latencyStats", BSON("reads" << BSON("latency" << 0LL << "ops" << 0LL)
                                              << "writes" << BSON("latency" << 0LL << "ops" << 0LL)
                                              << "commands" << BSON("latency" << 0LL << "ops" << 0LL)));
    if (spec.hasField("storageStats")) {
        BSONObjBuilder s(b.subobjStart("storageStats"));
        s.append("size", size);
        s.append("count", count);
        s.append("avgObjSize", count ? size / count : 0LL);
        s.append("storageSize", coll ? coll->recordStore()->storageSize(ru) : 0LL);
        s.append("nindexes", coll ? static_cast<int>(coll->indexes().size()) : 0);
        long long total = 0;
        BSONObjBuilder sizes;
        if (coll)
            for (const auto& idx : coll->indexes()) {
                long long sz = idx->sdi->storageSize(ru);
                total += sz;
                sizes.append(idx->desc.name, sz);
            }
        s.append("totalIndexSize", total);
        s.append("indexSizes", sizes.obj());
        s.append("capped", coll ? coll->isCapped() : false);
    }
    if (spec.hasField("count"))
        b.append("count", count);
    if (spec.hasField("queryExecStats"))
        b.append("queryExecStats", BSON("collectionScans" << BSON("total" << 0LL << "nonTailable" << 0LL)));
    uassert(ErrorCodes::NamespaceNotFound,
            "Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [" +
                expCtx->ns.ns() + "] not found.",
            coll || !spec.hasField("storageStats"));
    return {b.obj()};
}

std::vector<BSONObj> indexStats(ExpressionContext* expCtx) {
    auto coll = expCtx->opCtx->getServiceContext()->catalog->lookup(expCtx->ns);
    std::vector<BSONObj> out;
    if (!coll)
        return out;
    for (const auto& idx : coll->indexes()) {
        out.push_back(BSON("name" << idx->desc.name << "key" << idx->desc.keyPattern << "host"
                                  << hostName() << "accesses"
                                  << BSON("ops" << 0LL << "since" << Date_t::now()) << "spec"
                                  << idx->desc.spec));
    }
    return out;
}

const bool kRegistered = [] {
    registerDocumentSource("$collStats", [](const BSONElement& e,
                                            const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(40166, "$collStats must take a nested object but found: " + e.toString(),
                e.type() == BSONType::kObject);
        for (auto f : e.Obj()) {
            StringData n = f.fieldNameStringData();
            uassert(40168, "unrecognized option to $collStats: " + std::string(n),
                    n == "latencyStats" || n == "storageStats" || n == "count" ||
                        n == "queryExecStats");
            uassert(40167, std::string(n) + " argument must be an object, but got " +
                               f.toString(false),
                    f.type() == BSONType::kObject);
        }
        BSONObj spec = e.Obj().getOwned();
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceComputed>(
            expCtx, "$collStats", spec, [spec](ExpressionContext* c) { return collStats(c, spec); }));
        return out;
    });
    registerDocumentSource("$indexStats", [](const BSONElement& e,
                                             const std::shared_ptr<ExpressionContext>& expCtx) {
        uassert(28803, "The $indexStats stage specification must be an empty object",
                e.type() == BSONType::kObject && e.Obj().isEmpty());
        std::vector<StagePtr> out;
        out.push_back(std::make_unique<DocumentSourceComputed>(expCtx, "$indexStats", BSONObj(),
                                                               indexStats));
        return out;
    });
    return true;
}();

}  // namespace
}  // namespace mongo
