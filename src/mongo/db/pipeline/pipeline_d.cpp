#include "mongo/db/pipeline/pipeline_d.h"

#include <shared_mutex>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/catalog/view_catalog.h"
#include "mongo/db/matcher/explain_filter.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/document_source_coll_stats.h"
#include "mongo/db/pipeline/document_source_geo_near.h"
#include "mongo/db/pipeline/document_source_group_by_distinct_scan.h"
#include "mongo/db/pipeline/document_source_internal_bounded_sort.h"
#include "mongo/db/pipeline/document_source_internal_unpack_bucket.h"
#include "mongo/db/pipeline/document_source_match.h"
#include "mongo/db/pipeline/document_source_sort.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/timeseries_geo_near.h"
#include "mongo/db/pipeline/timeseries_sample_stages.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/util/assert_util.h"
#include "mongo/util/time_support.h"

namespace mongo {

void defineLetVariables(ExpressionContext* expCtx, const BSONObj& letVars) {
    for (auto e : letVars) {
        validateVariableName(e.fieldNameStringData());
        auto expr = Expression::parseOperand(expCtx, e, expCtx->makeParseState());
        Value v = expr->evaluate(BSONObj(), &expCtx->variables).getOwned();
        VariableId id = expCtx->topScope().defineVariable(e.fieldNameStringData());
        expCtx->variables.setValue(id, v);
    }
}

namespace {

/**
 * The collator for a pipeline over `nss` (see preparePipeline). `viewCollation` is the
 * requested view's collation ({} simple) when `nss` is a view.
 */
std::unique_ptr<CollatorInterface> resolveCollator(OperationContext* opCtx,
                                                   const NamespaceString& executionNss,
                                                   const std::optional<BSONObj>& viewCollation,
                                                   const AggregationRequestOptions& opts) {
    std::unique_ptr<CollatorInterface> viewDefault;
    if (viewCollation && !viewCollation->isEmpty())
        viewDefault = uassertStatusOK(makeCollator(*viewCollation));
    std::unique_ptr<CollatorInterface> requested;
    bool given = false;
    if (opts.inheritCollation) {
        requested = CollatorInterface::cloneCollator(opts.inheritedCollator);
        given = true;
    } else if (!opts.collation.isEmpty()) {
        requested = uassertStatusOK(makeCollator(opts.collation));
        given = true;
    }
    if (viewCollation) {
        uassert(ErrorCodes::OptionNotSupportedOnView, "Cannot override a view's default collation",
                !given || CollatorInterface::collatorsMatch(requested.get(), viewDefault.get()));
        return viewDefault;
    }
    if (given || opts.collectionless)
        return requested;
    return collectionDefaultCollator(opCtx, executionNss);
}

}  // namespace

std::unique_ptr<CollatorInterface> collectionDefaultCollator(OperationContext* opCtx,
                                                             const NamespaceString& nss) {
    auto coll = opCtx->getServiceContext()->catalog->lookup(nss);
    return coll ? CollatorInterface::cloneCollator(coll->getDefaultCollator()) : nullptr;
}

namespace {

/** `sort` with its last key (control.min.<time>) read from control.max instead; nullopt if none. */
std::optional<BSONObj> onControlMax(const BSONObj& sort) {
    if (sort.isEmpty())
        return std::nullopt;
    BSONObjBuilder b;
    bool swapped = false;
    const int n = sort.nFields();
    int i = 0;
    for (auto e : sort) {
        StringData f = e.fieldNameStringData();
        if (++i == n && f.starts_with(timeseries::kControlMinFieldNamePrefix)) {
            b.appendAs(e, timeseries::controlMaxPath(
                              f.substr(timeseries::kControlMinFieldNamePrefix.size())));
            swapped = true;
        } else {
            b.append(e);
        }
    }
    return swapped ? std::optional(b.obj()) : std::nullopt;
}

void setFindSort(Pipeline* pipeline, FindPlanParams* params, const BSONObj& sort) {
    params->sort = sort;
    params->sortPattern.reset();
    if (!sort.isEmpty()) {
        params->sortPattern =
            std::make_shared<SortPattern>(uassertStatusOK(SortPattern::parse(sort)));
        params->sortPattern->setCollator(pipeline->getExpCtx()->getCollator());
    }
}

/**
 * A $_internalBoundedSort needs its buckets in control.<base>.<time> order (after the meta keys,
 * if any) from the find layer, without a blocking sort of the buckets. It is planned in
 * clustered _id order (time alone) or control.min order; when `*exec` can only give that order
 * by a blocking SORT (a hint to another index, a meta index for meta and time), the orders an
 * index can give are tried: control.min (time alone: an index {meta, t} under a meta equality),
 * then control.max (an index {meta, t: -1}: its buckets key is {meta, control.max.t, ...}),
 * the bounded sort taking bound base "max" for the latter (spec 5.4). When none is served,
 * upstream does not rewrite: the bounded sort becomes the plain $sort it came from (same
 * limit) and the find layer sorts nothing. Replans into `*exec` when it changed anything.
 */
void fitBoundedSortToPlan(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                          Pipeline* pipeline, FindPlanParams* params,
                          std::unique_ptr<PlanExecutor>* exec) {
    auto& stages = pipeline->stages();
    if (stages.size() < 2 || params->sort.isEmpty())
        return;
    auto* unpack = dynamic_cast<DocumentSourceInternalUnpackBucket*>(stages.begin()->get());
    auto* bounded =
        dynamic_cast<DocumentSourceInternalBoundedSort*>(std::next(stages.begin())->get());
    if (!unpack || !bounded || !(*exec)->hasStage("SORT"))
        return;
    const BSONObj planned = params->sort;
    BSONObj minOrder = planned;
    if (planned.nFields() == 1 && planned.firstElementFieldNameStringData() == "_id")
        minOrder = BSON(timeseries::controlMinPath(unpack->bucketSpec().timeField)
                        << planned.firstElement());
    auto served = [&](const BSONObj& sort) -> std::unique_ptr<PlanExecutor> {
        setFindSort(pipeline, params, sort);
        auto candidate = buildFindPlan(opCtx, coll, *params);
        if (candidate->hasStage("SORT"))
            return nullptr;
        return candidate;
    };
    if (minOrder.woCompare(planned) != 0) {
        if (auto e = served(minOrder)) {
            *exec = std::move(e);  // same bound: control.min order either way
            return;
        }
    }
    if (auto maxOrder = onControlMax(minOrder)) {
        if (auto e = served(*maxOrder)) {
            BSONElement time;
            for (auto k : bounded->sortKeySpec())
                time = k;
            const bool ascending = time.numberInt() > 0;
            *std::next(stages.begin()) = std::make_unique<DocumentSourceInternalBoundedSort>(
                pipeline->getExpCtx(), bounded->sortKeySpec(),
                DocumentSourceInternalBoundedSort::BoundBase::kMax,
                ascending ? -static_cast<long long>(unpack->bucketMaxSpanSeconds()) : 0,
                bounded->limit());
            *exec = std::move(e);
            return;
        }
    }
    *std::next(stages.begin()) = std::make_unique<DocumentSourceSort>(
        pipeline->getExpCtx(), bounded->sortKeySpec(), bounded->limit());
    setFindSort(pipeline, params, BSONObj());
    *exec = buildFindPlan(opCtx, coll, *params);
}

/**
 * A bound with an offset (spec 5.4: min order descending, max order ascending) holds only for
 * buckets spanning at most bucketMaxSpanSeconds. As upstream, the buckets are checked before
 * they are unpacked, by a $match planned after the find layer (it shows in explain):
 * {$expr: {$lte: [{$subtract: ["$control.max.<t>", "$control.min.<t>"]}, <span ms>]}}.
 */
void guardInexactBound(Pipeline* pipeline) {
    auto& stages = pipeline->stages();
    if (stages.size() < 2)
        return;
    auto* unpack = dynamic_cast<DocumentSourceInternalUnpackBucket*>(stages.begin()->get());
    auto* bounded =
        dynamic_cast<DocumentSourceInternalBoundedSort*>(std::next(stages.begin())->get());
    if (!unpack || !bounded || bounded->offsetSeconds() == 0)
        return;
    const std::string& time = unpack->bucketSpec().timeField;
    const long long spanMillis = static_cast<long long>(unpack->bucketMaxSpanSeconds()) * 1000;
    BSONObj filter = BSON(
        "$expr" << BSON("$lte" << BSON_ARRAY(BSON("$subtract" << BSON_ARRAY(
                                                      "$" + timeseries::controlMaxPath(time)
                                                      << "$" + timeseries::controlMinPath(time)))
                                             << BSON("$const" << spanMillis))));
    stages.push_front(std::make_unique<DocumentSourceMatch>(pipeline->getExpCtx(), filter));
}

}  // namespace

PreparedPipeline preparePipeline(OperationContext* opCtx, const NamespaceString& nss,
                                 const std::vector<BSONObj>& stages,
                                 const AggregationRequestOptions& opts) {
    PreparedPipeline out;
    out.requestedNss = nss;
    out.executionNss = nss;
    std::vector<BSONObj> all;
    std::optional<BSONObj> viewCollation;  // set when `nss` is a view
    size_t userStagesUsed = 0;             // leading user stages replaced by a rewrite
    std::optional<StatsStageRewrite> statsOnView;
    if (!opts.collectionless)
        statsOnView = rewriteStatsStageOnView(opCtx, nss, stages);
    if (statsOnView) {
        out.executionNss = statsOnView->executionNss;
        out.isView = true;
        all = std::move(statsOnView->stages);
        userStagesUsed = stages.size();
    } else if (!opts.collectionless) {
        auto resolved = uassertStatusOK(resolveView(opCtx, nss));
        out.isView = resolved.nss != nss;
        out.executionNss = resolved.nss;
        all = std::move(resolved.pipeline);
        // A time-series view's queries may use any collation (spec §5.3.1); their default
        // is the buckets collection's, which is the view's.
        const bool timeseriesView = resolved.nss == nss.makeTimeseriesBucketsNamespace();
        if (out.isView && !timeseriesView)
            viewCollation = std::move(resolved.collation);
        if (out.isView && timeseriesView) {
            // minDistance/maxDistance may read `let` variables: they are evaluated here.
            ExpressionContext geoCtx(opCtx, resolved.nss);
            defineLetVariables(&geoCtx, opts.letVars);
            if (auto geo = rewriteTimeseriesGeoNear(&geoCtx, resolved.nss, all, stages)) {
                all = std::move(*geo);
                userStagesUsed = 1;
            }
        }
    }
    all.insert(all.end(), stages.begin() + userStagesUsed, stages.end());

    auto expCtx = std::make_shared<ExpressionContext>(opCtx, out.executionNss);
    expCtx->allowDiskUse = opts.allowDiskUse;
    expCtx->explain = opts.explain;
    expCtx->subPipelineDepth = opts.subPipelineDepth;
    if (opts.now) {
        expCtx->variables.now = *opts.now;
    }
    expCtx->setCollator(resolveCollator(opCtx, out.executionNss, viewCollation, opts));
    uassert(ErrorCodes::MaxSubPipelineDepthExceeded,
            "Maximum number of nested sub-pipelines exceeded. Limit is 20",
            opts.subPipelineDepth <= 20);
    defineLetVariables(expCtx.get(), opts.letVars);

    out.pipeline = Pipeline::parse(all, expCtx);
    if (opts.collectionless)
        out.pipeline->uassertCollectionless();
    out.pipeline->optimize();
    if (out.pipeline->isCollectionless())
        return out;

    out.findParams = out.pipeline->extractFindParams();
    if (!opts.hint.isEmpty()) {
        out.findParams.hint = opts.hint;
        if (opts.hint.firstElementFieldNameStringData() == "$hint")
            out.findParams.hintName = opts.hint.firstElement().str();
    }
    auto coll = opCtx->getServiceContext()->catalog->lookup(out.executionNss);
    std::shared_lock<std::shared_mutex> lk;
    if (coll)
        lk = std::shared_lock<std::shared_mutex>(coll->lock());
    if (coll && coll->isDropped())
        coll.reset();
    auto exec = planGroupByDistinctScan(opCtx, coll, out.pipeline.get(), out.findParams);
    if (!exec)
        exec = planTimeseriesSample(opCtx, coll, out.pipeline.get(), out.findParams);
    if (!exec) {
        exec = buildFindPlan(opCtx, coll, out.findParams);
        fitBoundedSortToPlan(opCtx, coll, out.pipeline.get(), &out.findParams, &exec);
        guardInexactBound(out.pipeline.get());
    }
    out.pipeline->attachExecutor(std::move(exec), out.findParams.sortPattern);
    if (opts.subPipelineDepth == 0 && out.pipeline->executor())
        opCtx->setPlanSummary(out.pipeline->executor()->planSummary());
    return out;
}

namespace {

void appendQueryPlanner(const PreparedPipeline& prepared, BSONObjBuilder* b) {
    Pipeline* p = prepared.pipeline.get();
    BSONObjBuilder qp(b->subobjStart("queryPlanner"));
    qp.append("namespace", prepared.executionNss.ns());
    qp.append("parsedQuery", prepared.findParams.matcher
                                 ? serializeForExplain(*prepared.findParams.matcher)
                                 : BSONObj());
    qp.append("indexFilterSet", false);
    qp.append("winningPlan", p->executor() ? p->executor()->explainPlan(false) : BSONObj());
    qp.append("rejectedPlans", BSONArray());
}

void appendExecutionStats(PlanExecutor* exec, long long nReturned, long long millis,
                          ExplainVerbosity verbosity, BSONObjBuilder* b) {
    StageStats totals = exec->totals();
    BSONObjBuilder es(b->subobjStart("executionStats"));
    es.append("executionSuccess", true);
    es.appendNumber("nReturned", nReturned);
    es.appendNumber("executionTimeMillis", millis);
    es.appendNumber("totalKeysExamined", totals.keysExamined);
    es.appendNumber("totalDocsExamined", totals.docsExamined);
    es.append("executionStages", exec->explainPlan(true));
    if (verbosity == ExplainVerbosity::kAllPlansExecution)
        es.append("allPlansExecution", BSONArray());
}

/** nReturned / executionTimeMillisEstimate of one stage entry (`stats` null: not measured). */
void appendStageStats(const StageExecStats* stats, long long fallbackMicros, BSONObjBuilder* b) {
    if (stats)
        b->appendNumber("nReturned", stats->nReturned);
    b->appendNumber("executionTimeMillisEstimate", (stats ? stats->micros : fallbackMicros) / 1000);
}

}  // namespace

void appendPipelineExplain(OperationContext* opCtx, PreparedPipeline& prepared,
                           BSONObjBuilder& result, ExplainVerbosity verbosity) {
    Pipeline* p = prepared.pipeline.get();
    const bool withStats = verbosity != ExplainVerbosity::kQueryPlanner;
    long long totalMicros = 0;
    if (withStats) {
        p->enableExecutionStats();
        long long start = curTimeMicros64();
        while (p->getNext()) {
        }
        totalMicros = curTimeMicros64() - start;
    }
    result.append("explainVersion", "1");
    if (p->stages().empty() && p->executor()) {
        appendQueryPlanner(prepared, &result);
        if (withStats)
            appendExecutionStats(p->executor(), p->executor()->nReturned(), totalMicros / 1000,
                                 verbosity, &result);
        return;
    }
    // A stage that is not measured itself (read directly by its consumer) gets the time of
    // the first measured stage after it: an upper bound, as that time includes its own.
    const int n = static_cast<int>(p->stages().size());
    std::vector<long long> fallbackMicros(n + 1, totalMicros);  // [i + 1]: stage i
    long long after = totalMicros;
    for (int i = n - 1; i >= -1; --i) {
        fallbackMicros[i + 1] = after;
        if (const StageExecStats* s = p->stageStats(i))
            after = s->micros;
    }
    BSONArrayBuilder stages(result.subarrayStart("stages"));
    if (p->executor()) {
        BSONObjBuilder cursorStage(stages.subobjStart());
        {
            BSONObjBuilder inner(cursorStage.subobjStart("$cursor"));
            appendQueryPlanner(prepared, &inner);
            if (withStats) {
                const StageExecStats* in = p->stageStats(-1);
                appendExecutionStats(p->executor(), p->executor()->nReturned(),
                                     (in ? in->micros : fallbackMicros[0]) / 1000, verbosity,
                                     &inner);
            }
        }
        if (withStats)
            appendStageStats(p->stageStats(-1), fallbackMicros[0], &cursorStage);
    }
    int i = 0;
    for (const auto& st : p->stages()) {
        BSONArrayBuilder one;
        st->serializeExplained(&one);
        for (auto e : one.arr()) {
            if (!withStats) {
                stages.append(e.Obj());
                continue;
            }
            BSONObjBuilder entry(stages.subobjStart());
            entry.appendElements(e.Obj());
            appendStageStats(p->stageStats(i), fallbackMicros[i + 1], &entry);
            st->appendExplainStats(&entry);
        }
        ++i;
    }
}

bool PipelineCursorSource::next(OperationContext* opCtx, BSONObj* out) {
    _pipeline->getExpCtx()->setOperationContext(opCtx);
    auto d = _pipeline->getNext();
    if (!d)
        return false;
    *out = d->isOwned() ? *d : d->getOwned();
    return true;
}

std::vector<BSONObj> findToPipeline(const BSONObj& filter, const BSONObj& sort,
                                    const BSONObj& projection, long long skip, long long limit) {
    std::vector<BSONObj> stages;
    std::string nearPath;
    if (auto geoNear = nearFilterToGeoNear(filter, &nearPath)) {
        // $near / $nearSphere: documents in distance order, the distance field removed.
        stages.push_back(*geoNear);
        stages.push_back(BSON("$project" << BSON(kNearQueryDistanceField << 0)));
    } else if (!filter.isEmpty()) {
        stages.push_back(BSON("$match" << filter));
    }
    if (!sort.isEmpty())
        stages.push_back(BSON("$sort" << sort));
    if (skip > 0)
        stages.push_back(BSON("$skip" << skip));
    if (limit > 0)
        stages.push_back(BSON("$limit" << limit));
    if (!projection.isEmpty())
        stages.push_back(BSON("$project" << projection));
    return stages;
}

std::vector<BSONObj> drainPipeline(Pipeline* p) {
    std::vector<BSONObj> out;
    while (auto d = p->getNext())
        out.push_back(d->getOwned());
    return out;
}

}  // namespace mongo
