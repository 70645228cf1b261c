#include "mongo/db/commands/find_helpers.h"

#include <algorithm>

#include "absl/cleanup/cleanup.h"

#include "mongo/db/pipeline/pipeline_d.h"

#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/collection_catalog.h"
#include "mongo/db/exec/distinct_scan.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/expression_sort.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/query/collation/collator_factory.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/db/service_context.h"
#include "mongo/db/timeseries/rollups/rollup_rewrite.h"
#include "mongo/db/timeseries/timeseries_commands.h"
#include "mongo/db/timeseries/timeseries_update_delete_util.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace {

/** A computed field evaluated by the aggregation engine; shares one context per projection. */
class AggregationProjectionExpression final : public ProjectionExpression {
public:
    AggregationProjectionExpression(std::shared_ptr<ExpressionContext> expCtx, ExprPtr expr)
        : _expCtx(std::move(expCtx)), _expr(std::move(expr)) {}

    void appendValue(const BSONObj& root, StringData name, BSONObjBuilder* out) const override {
        Value v = _expr->evaluate(root, &_expCtx->variables);
        if (!v.missing())
            v.addToBsonObj(out, name);
    }

private:
    std::shared_ptr<ExpressionContext> _expCtx;
    ExprPtr _expr;
};

/** Shares ownership of `value` and of the collator it was given, so both die together. */
template <typename T>
std::shared_ptr<T> withCollator(std::unique_ptr<T> value,
                                std::shared_ptr<const CollatorInterface> collator) {
    struct Holder {
        std::shared_ptr<const CollatorInterface> collator;
        std::unique_ptr<T> value;
    };
    auto holder = std::make_shared<Holder>(Holder{std::move(collator), std::move(value)});
    T* raw = holder->value.get();
    return std::shared_ptr<T>(std::move(holder), raw);
}

std::shared_ptr<ExpressionContext> makeExpressionContext(const FindExpressionContext& ctx) {
    auto expCtx = std::make_shared<ExpressionContext>(ctx.opCtx, ctx.nss);
    if (ctx.collator)
        expCtx->setCollator(ctx.collator->clone());
    defineLetVariables(expCtx.get(), ctx.letVars);
    return expCtx;
}

}  // namespace

LetVariablesScope::LetVariablesScope(OperationContext* opCtx, const NamespaceString& nss,
                                     const BSONObj& letVars) {
    if (!letVars.isEmpty())
        _guard = std::make_unique<ExprParseContextGuard>(
            makeExpressionContext(FindExpressionContext{opCtx, nss, letVars, nullptr}));
}

LetVariablesScope::~LetVariablesScope() = default;

Projection parseFindProjection(const BSONObj& spec, const FindExpressionContext& exprCtx,
                               std::shared_ptr<ExpressionContext>* expCtxOut) {
    std::shared_ptr<ExpressionContext> expCtx;  // made on the first computed field
    ProjectionExpressionParser parser =
        [&](const BSONElement& e) -> StatusWith<std::unique_ptr<ProjectionExpression>> {
        try {
            if (!expCtx)
                expCtx = makeExpressionContext(exprCtx);
            auto expr =
                Expression::parseProjectedOperand(expCtx.get(), e, expCtx->makeParseState());
            return std::unique_ptr<ProjectionExpression>(
                std::make_unique<AggregationProjectionExpression>(expCtx, std::move(expr)));
        } catch (const DBException& ex) {
            return ex.toStatus();
        }
    };
    Projection p = uassertStatusOK(Projection::parse(spec, parser));
    if (expCtxOut)
        *expCtxOut = expCtx;
    return p;
}

std::shared_ptr<const CollatorInterface> resolveCollator(OperationContext* opCtx,
                                                         const NamespaceString& nss,
                                                         const std::optional<BSONObj>& collation) {
    // An empty collation is none given, as upstream's.
    if (collation && !collation->isEmpty())
        return std::shared_ptr<const CollatorInterface>(uassertStatusOK(makeCollator(*collation)));
    if (!opCtx)
        return nullptr;
    return collectionDefaultCollator(opCtx, nss);
}

BSONObj hintForExecution(OperationContext* opCtx, const NamespaceString& nss, const HintArg& hint) {
    if (!hint)
        return BSONObj();
    BSONObj h = std::holds_alternative<std::string>(*hint)
                    ? BSON("$hint" << std::get<std::string>(*hint))
                    : std::get<BSONObj>(*hint).getOwned();
    if (h.isEmpty())
        return h;
    if (auto ts = timeseries::lookupTimeseriesCollection(opCtx, nss))
        return uassertStatusOK(timeseries::translateTimeseriesHint(ts->options, h));
    return h;
}

AggregationRequestOptions aggregationOptions(OperationContext* opCtx, const NamespaceString& nss,
                                             const AggregateCommandRequest& cmd,
                                             bool collectionless, bool explain) {
    AggregationRequestOptions opts;
    opts.allowDiskUse = cmd.getAllowDiskUse().value_or(gAllowDiskUseByDefault.load());
    opts.letVars = cmd.getLet().value_or(BSONObj());
    opts.collation = cmd.getCollation().value_or(BSONObj());
    opts.explain = explain;
    opts.collectionless = collectionless;
    if (!collectionless)
        opts.hint = hintForExecution(opCtx, nss, cmd.getHint());
    if (const auto& rc = cmd.getRuntimeConstants()) {
        BSONElement localNow = (*rc)["localNow"];
        uassert(ErrorCodes::TypeMismatch, "runtimeConstants.localNow must be a date",
                localNow.eoo() || localNow.type() == BSONType::kDate);
        if (!localNow.eoo())
            opts.now = localNow.date();
    }
    return opts;
}

FindPlanParams makeFindParams(const BSONObj& filter, const BSONObj& sort, const BSONObj& projection,
                              const HintArg& hint, const FindExpressionContext& exprCtx) {
    FindPlanParams params;
    const auto& collator = exprCtx.collator;
    params.collator = collator.get();
    params.filter = filter.getOwned();
    if (!filter.isEmpty()) {
        LetVariablesScope letScope(exprCtx.opCtx, exprCtx.nss, exprCtx.letVars);
        auto m = uassertStatusOK(parseMatchExpression(params.filter));
        m->setCollator(collator.get());
        params.matcher = withCollator(std::move(m), collator);
    }
    params.sort = sort.getOwned();
    if (!sort.isEmpty() && sort.firstElementFieldNameStringData() != "$natural") {
        auto pattern =
            std::make_unique<SortPattern>(uassertStatusOK(SortPattern::parse(params.sort)));
        pattern->setCollator(collator.get());
        params.sortPattern = withCollator(std::move(pattern), collator);
    }
    if (!projection.isEmpty()) {
        std::shared_ptr<ExpressionContext> projCtx;
        auto proj =
            std::make_shared<Projection>(parseFindProjection(projection, exprCtx, &projCtx));
        // {$meta: "sortKey"} reads the document's key under the find's sort.
        std::shared_ptr<const SortPattern> order =
            projCtx && projCtx->needsSortKeyMetadata ? params.sortPattern : nullptr;
        // A positional projection reads the filter in canonical order (expression_sort.h).
        std::shared_ptr<MatchExpression> matcher = params.matcher;
        if (proj->requiresMatchDetails() && params.matcher) {
            auto canonical =
                canonicalizeMatchExpression(uassertStatusOK(parseMatchExpression(params.filter)));
            canonical->setCollator(collator.get());
            matcher = withCollator(std::move(canonical), collator);
        }
        params.projectionSpec = projection.getOwned();
        params.simpleProjection = true;
        for (auto e : projection) {
            if (e.fieldNameStringData().find('.') != StringData::npos ||
                (!e.isNumber() && !e.isBoolean()))
                params.simpleProjection = false;
        }
        params.projection = [proj, matcher, projCtx, order](const WorkingMember& member) {
            const BSONObj& doc = member.doc;
            DocumentMetadata metadata;
            if (order)
                metadata.sortKey = makeSortKeyMetadata(*order, doc);
            metadata.textScore = member.textScore;
            if (projCtx && (order || member.textScore))
                projCtx->variables.metadata = &metadata;
            absl::Cleanup noMetadata = [&] {
                if (projCtx)
                    projCtx->variables.metadata = nullptr;
            };
            if (proj->requiresMatchDetails() && matcher) {
                MatchDetails details;
                details.requestElemMatchKey();
                matcher->matchesBSON(doc, &details);
                return uassertStatusOK(proj->apply(doc, &details));
            }
            return uassertStatusOK(proj->apply(doc));
        };
    }
    if (hint) {
        if (const std::string* name = std::get_if<std::string>(&*hint)) {
            params.hintName = *name;
            params.hint = BSON("$hint" << *name);
        } else {
            params.hint = std::get<BSONObj>(*hint).getOwned();
        }
    }
    return params;
}

std::unique_ptr<PlanExecutor> buildDistinctPlan(OperationContext* opCtx,
                                                const std::shared_ptr<Collection>& coll,
                                                StringData key, const FindPlanParams& params,
                                                const FindExpressionContext& exprCtx) {
    if (auto exec = buildDistinctScanPlan(coll, key, params))
        return exec;
    // A numeric component ("a.0") means an array position to distinct, a field to a find
    // projection: no projection then.
    bool plainPath = coll && !key.empty() && !key.starts_with("$");
    for (size_t start = 0; plainPath && start <= key.size();) {
        size_t dot = key.find('.', start);
        StringData part =
            key.substr(start, dot == StringData::npos ? key.size() - start : dot - start);
        plainPath = !part.empty() && !std::all_of(part.begin(), part.end(),
                                                  [](char c) { return c >= '0' && c <= '9'; });
        start = dot == StringData::npos ? key.size() + 1 : dot + 1;
    }
    if (plainPath) {
        BSONObjBuilder projection;
        if (key != "_id" && !key.starts_with("_id."))
            projection.append("_id", 0);
        projection.append(key, 1);
        try {
            FindPlanParams projected =
                makeFindParams(params.filter, BSONObj(), projection.obj(), HintArg(), exprCtx);
            projected.hint = params.hint;
            projected.hintName = params.hintName;
            auto exec = buildFindPlan(opCtx, coll, projected);
            if (exec->hasStage("PROJECTION_COVERED"))
                return exec;
        } catch (const DBException&) {
            // A key no projection can name ("a..b"): the query's own plan answers it.
        }
    }
    return buildFindPlan(opCtx, coll, params);
}

}  // namespace mongo

namespace mongo {

PreparedPipeline prepareAggregatePipeline(OperationContext* opCtx, const NamespaceString& nss,
                                          const AggregateCommandRequest& cmd,
                                          const std::vector<BSONObj>& stages,
                                          const AggregationRequestOptions& opts,
                                          BSONObj* rollupsExplain) {
    *rollupsExplain = BSONObj();
    const bool simpleCollation =
        opts.collation.isEmpty() ||
        (opts.collation.nFields() == 1 && opts.collation["locale"].type() == BSONType::kString &&
         opts.collation["locale"].valueStringData() == "simple");
    if (!opts.collectionless && opts.hint.isEmpty() && cmd.getInternalRollups().value_or(true)) {
        if (auto rewrite =
                timeseries::rollups::rewriteForRollups(opCtx, nss, stages, simpleCollation)) {
            *rollupsExplain = rewrite->explain;
            return preparePipeline(opCtx, rewrite->levelNss, rewrite->stages, opts);
        }
    }
    if (opts.explain && !opts.collectionless && timeseries::rollups::hasRollups(opCtx, nss))
        *rollupsExplain = BSON("rawPath" << true);
    return preparePipeline(opCtx, nss, stages, opts);
}

}  // namespace mongo
