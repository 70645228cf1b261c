// $listCatalog: the durable catalog entries, as upstream shows them to tests and tools. On a
// collection: that collection's entry; with {aggregate: 1} against admin: every collection and
// view of every database. Entry: {db, name, type, md: {ns, options, indexes, <time-series flags>}}
// for collections; {db, name, type: "view"|"timeseries", viewOn, pipeline} for views.
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/service_context.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

BSONObj collectionEntry(const Collection& coll) {
    BSONObjBuilder b;
    b.append("db", coll.ns().db());
    b.append("name", coll.ns().coll());
    b.append("type", "collection");
    {
        BSONObjBuilder md(b.subobjStart("md"));
        md.append("ns", coll.ns().ns());
        md.append("options", coll.options());
        {
            BSONArrayBuilder idx(md.subarrayStart("indexes"));
            for (const auto& i : coll.indexes()) {
                BSONObjBuilder one(idx.subobjStart());
                one.append("spec", i->desc.spec);
                one.append("ready", true);
                one.append("multikey", i->multikey);
            }
        }
        if (coll.ns().isTimeseriesBucketsCollection()) {
            const auto& f = coll.timeseriesFlags();
            md.append(CollectionCatalog::kMixedSchemaFlag, f.mayHaveMixedSchemaData.load());
            if (f.requiresExtendedRangeSupport.load())
                md.append(CollectionCatalog::kExtendedRangeFlag, true);
            if (f.bucketingParametersHaveChanged.load())
                md.append(CollectionCatalog::kParametersChangedFlag, true);
        }
    }
    return b.obj();
}

BSONObj viewEntry(const ViewDefinition& v) {
    BSONObjBuilder b;
    b.append("db", v.name.db());
    b.append("name", v.name.coll());
    b.append("type", v.viewOn.isTimeseriesBucketsCollection() &&
                             v.viewOn.getTimeseriesViewNamespace().ns() == v.name.ns()
                         ? "timeseries"
                         : "view");
    b.append("viewOn", v.viewOn.coll());
    BSONArrayBuilder p(b.subarrayStart("pipeline"));
    for (const auto& st : v.pipeline)
        p.append(st);
    p.done();
    return b.obj();
}

class DocumentSourceListCatalog final : public DocumentSourceMaterialized {
public:
    using DocumentSourceMaterialized::DocumentSourceMaterialized;
    std::vector<BSONObj> materialize() override {
        auto* opCtx = _expCtx->opCtx;
        auto* catalog = opCtx->getServiceContext()->catalog;
        std::vector<BSONObj> out;
        const NamespaceString& ns = _expCtx->ns;
        if (ns.coll() != "$cmd.aggregate") {
            if (auto coll = catalog->lookup(ns))
                out.push_back(collectionEntry(*coll));
            else if (auto view = lookupView(opCtx, ns))
                out.push_back(viewEntry(*view));
            return out;
        }
        for (const auto& db : catalog->databaseNames()) {
            for (const auto& coll : catalog->collectionsInDb(db)) {
                _expCtx->checkForInterrupt();
                out.push_back(collectionEntry(*coll));
            }
            for (const auto& view : viewsInDb(opCtx, db))
                out.push_back(viewEntry(view));
        }
        return out;
    }
    const char* getSourceName() const override {
        return "$listCatalog";
    }
    void serialize(BSONArrayBuilder* out) const override {
        BSONObjBuilder b(out->subobjStart());
        b.append("$listCatalog", BSONObj());
    }
    StageConstraints constraints() const override {
        return StageConstraints::leadingSource();
    }
};

const bool kRegistered = [] {
    registerDocumentSource(
        "$listCatalog",
        [](const BSONElement& e, const std::shared_ptr<ExpressionContext>& expCtx) {
            uassert(ErrorCodes::FailedToParse,
                    "$listCatalog must be an object, but found: " + std::string(typeName(e.type())),
                    e.type() == BSONType::kObject);
            uassert(ErrorCodes::InvalidNamespace,
                    "Collectionless $listCatalog must be run against the 'admin' database with "
                    "{aggregate: 1}",
                    expCtx->ns.coll() != "$cmd.aggregate" || expCtx->ns.db() == "admin");
            std::vector<StagePtr> out;
            out.push_back(std::make_unique<DocumentSourceListCatalog>(expCtx));
            return out;
        },
        StageStability::kNotInAPIVersion1);
    return true;
}();

}  // namespace
}  // namespace mongo
