// count and distinct.
#include <set>

#include "mongo/bson/bson_comparator.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/coll_mod.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/commands.h"
#include "mongo/db/commands/find_helpers.h"
#include "mongo/db/db_raii.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/document_source_geo_near.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/db/query/collation/collator_interface.h"
#include "mongo/db/service_context.h"
#include "mongo/idl/count_command_gen.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

class CountCmd : public Command {
public:
    CountCmd() : Command("count") {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kRead;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = CountCommandRequest::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        long long limit = cmd.getLimit().value_or(0);
        const long long skip = cmd.getSkip().value_or(0);
        limit = limit < 0 ? -limit : limit;  // negative limits count like positive ones
        // $near / $nearSphere: counted through the $geoNear pipeline, as find runs them (a
        // view refuses them in its $match: 5626500).
        const bool view = isView(opCtx, nss);
        if (view)
            uassertStatusOK(checkNoNearPredicate(cmd.getQuery()));
        std::string nearPath;
        auto geoNear = view ? std::nullopt : nearFilterToGeoNear(cmd.getQuery(), &nearPath);
        if (geoNear)
            uassertNearQueryIndexed(opCtx, nss, *geoNear, nearPath);
        if (view || geoNear) {
            auto stages = findToPipeline(cmd.getQuery(), BSONObj(), BSONObj(), skip, limit);
            AggregationRequestOptions opts;
            opts.collation = cmd.getCollation().value_or(BSONObj());
            PreparedPipeline prepared = preparePipeline(opCtx, nss, stages, opts);
            long long n = 0;
            while (prepared.pipeline->getNext())
                ++n;
            result.appendNumber("n", n);
            return;
        }
        auto collator = resolveCollator(opCtx, nss, cmd.getCollation());
        FindPlanParams params = makeFindParams(cmd.getQuery(), BSONObj(), BSONObj(), cmd.getHint(),
                                               FindExpressionContext{opCtx, nss, {}, collator});
        params.skip = skip;
        params.limit = limit;
        AutoGetCollection coll(opCtx, nss, AutoGetCollection::Mode::kRead);
        long long n = 0;
        if (coll && cmd.getQuery().isEmpty() && params.skip == 0 && params.limit == 0 &&
            params.hint.isEmpty()) {
            n = coll->numRecords(opCtx);
        } else {
            auto exec = buildFindPlan(opCtx, coll.getCollection(), params);
            BSONObj doc;
            while (exec->getNext(opCtx, &doc))
                ++n;
        }
        result.appendNumber("n", n);
    }
};
MONGO_REGISTER_COMMAND(CountCmd)

class DistinctCmd : public Command {
public:
    DistinctCmd() : Command("distinct") {}
    ReadWriteType getReadWriteType() const override {
        return ReadWriteType::kRead;
    }

    void run(OperationContext* opCtx, const CommandRequest& req, BSONObjBuilder& result) override {
        auto cmd = DistinctCommandRequest::parse(req.body);
        NamespaceString nss(req.dbName, cmd.getCollectionName());
        uassertStatusOK(nss.validateCollectionName());
        if (const auto& uuid = cmd.getCollectionUUID())
            checkCollectionUUIDMismatch(opCtx, nss, uuid->getElement());
        const std::string& key = cmd.getKey();
        uassert(ErrorCodes::BadValue, "key cannot be empty", !key.empty());
        uassert(31032, "Key field cannot contain an embedded null byte",
                key.find('\0') == std::string::npos);
        auto collator = resolveCollator(opCtx, nss, cmd.getCollation());
        FindPlanParams params =
            makeFindParams(cmd.getQuery().value_or(BSONObj()), BSONObj(), BSONObj(), cmd.getHint(),
                           FindExpressionContext{opCtx, nss, {}, collator});
        const StringComparator* strings = collator.get();  // de-duplication
        std::function<bool(BSONObj*)> nextDoc;
        std::unique_ptr<PlanExecutor> exec;
        PreparedPipeline prepared;
        std::optional<AutoGetCollection> coll;
        if (isView(opCtx, nss)) {
            AggregationRequestOptions opts;
            opts.collation = cmd.getCollation().value_or(BSONObj());
            prepared = preparePipeline(
                opCtx, nss,
                findToPipeline(cmd.getQuery().value_or(BSONObj()), BSONObj(), BSONObj(), 0, 0),
                opts);
            strings = prepared.pipeline->getExpCtx()->getCollator();
            nextDoc = [&](BSONObj* out) {
                auto d = prepared.pipeline->getNext();
                if (d)
                    *out = *d;
                return d.has_value();
            };
        } else {
            coll.emplace(opCtx, nss, AutoGetCollection::Mode::kRead);
            // One document per distinct indexed value when an index serves it (DISTINCT_SCAN).
            exec = buildDistinctPlan(opCtx, coll->getCollection(), key, params,
                                     FindExpressionContext{opCtx, nss, {}, collator});
            nextDoc = [&](BSONObj* out) { return exec->getNext(opCtx, out); };
        }
        // Values equal under the collation collapse to the first one seen.
        auto less = [strings](const BSONObj& a, const BSONObj& b) {
            return compareObjects(a, b, ComparisonRules::kIgnoreFieldName, strings) < 0;
        };
        std::set<BSONObj, decltype(less)> values(less);
        // The collection path caps the values at 16 MB (17217). A view's distinct is upstream's
        // aggregation ending in {$group: {_id: null, distinct: {$addToSet: <key>}}}: the set
        // counts against internalQueryMaxAddToSetBytes (146), and the reply may take the
        // internal size (16 MB + 16 KB), as an aggregate's documents may.
        const bool viaView = static_cast<bool>(prepared.pipeline);
        size_t bytes = 0;
        BSONObj doc;
        while (nextDoc(&doc)) {
            std::vector<BSONElement> vals;
            bool arrayOnPath = false;
            getValuesAtPath(doc, key, &vals, &arrayOnPath);
            for (const auto& v : vals) {
                BSONObjBuilder b;
                b.appendAs(v, "");
                BSONObj wrapped = b.obj();
                if (values.insert(wrapped).second)
                    bytes += static_cast<size_t>(wrapped.objsize());
                if (viaView)
                    uassertAccumulatorMemory("$addToSet", bytes,
                                             gInternalQueryMaxAddToSetBytes.load());
                else
                    uassert(17217, "distinct too big, 16mb cap", bytes < BSONObjMaxUserSize);
            }
        }
        uassert(ErrorCodes::BSONObjectTooLarge,
                "distinct reply too large: " + std::to_string(bytes) + " bytes of values",
                bytes < static_cast<size_t>(BSONObjMaxInternalSize));
        BSONArrayBuilder arr(result.subarrayStart("values"));
        for (const auto& v : values)
            arr.append(v.firstElement());
    }
};
MONGO_REGISTER_COMMAND(DistinctCmd)

}  // namespace
}  // namespace mongo
