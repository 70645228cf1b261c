// Turning the query arguments shared by find, count, distinct, delete, update and
// findAndModify (filter, sort, projection, hint) into planner parameters, with
// the parse errors of each part.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/pipeline/pipeline_d.h"
#include "mongo/db/query/projection.h"
#include "mongo/idl/aggregate_command_gen.h"

namespace mongo {

class CollatorInterface;
class ExprParseContextGuard;
class OperationContext;

using HintArg = std::optional<std::variant<std::string, BSONObj>>;

/**
 * What the query sees besides its arguments: the operation, namespace, `let` (for the
 * aggregation expressions of a projection) and the collation in force.
 */
struct FindExpressionContext {
    OperationContext* opCtx = nullptr;
    NamespaceString nss;
    BSONObj letVars;  // the command's `let`: name -> expression, evaluated once
    /** The collation in force (null: simple); see resolveCollator(). */
    std::shared_ptr<const CollatorInterface> collator;
};

/**
 * While alive, $expr parsed on this thread (filters, upsert seeds, time-series query splits)
 * reads the command's `let` variables, evaluated once here; no effect when `letVars` is empty.
 * Throws the variable name and expression errors (16866..., 17276).
 */
class LetVariablesScope {
public:
    LetVariablesScope(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& letVars);
    ~LetVariablesScope();
    LetVariablesScope(const LetVariablesScope&) = delete;
    LetVariablesScope& operator=(const LetVariablesScope&) = delete;

private:
    std::unique_ptr<ExprParseContextGuard> _guard;
};

/**
 * The collation in force for a statement on `nss`: the statement's `collation` when
 * given and not {} (null for {locale: "simple"}), else a copy of the collection's default, else
 * null (simple). Throws the errors of makeCollator(): BadValue 2, FailedToParse 9,
 * TypeMismatch 14. Does not look at views (their collation is the pipeline's business).
 */
std::shared_ptr<const CollatorInterface> resolveCollator(OperationContext* opCtx,
                                                         const NamespaceString& nss,
                                                         const std::optional<BSONObj>& collation);

/**
 * Throws the parse error (BadValue 2 and friends) of a bad filter, sort or projection.
 * Computed projection fields are aggregation expressions evaluated in `exprCtx`.
 * The matcher, the sort and the planner get `exprCtx.collator`; the matcher and the
 * sort pattern of the result keep it alive (cursors outlive the command).
 */
FindPlanParams makeFindParams(const BSONObj& filter, const BSONObj& sort, const BSONObj& projection,
                              const HintArg& hint, const FindExpressionContext& exprCtx = {});

/**
 * The plan of the distinct command on `key` over `coll` (which may be null): a DISTINCT_SCAN
 * when an index serves it (distinct_scan.h); else, as upstream plans distinct with the
 * projection {_id: 0, key: 1}, a covered index plan when there is one; else the find plan of
 * the query. `params` is the query's (for explain).
 */
std::unique_ptr<PlanExecutor> buildDistinctPlan(OperationContext* opCtx,
                                                const std::shared_ptr<Collection>& coll,
                                                StringData key, const FindPlanParams& params,
                                                const FindExpressionContext& exprCtx);

/**
 * A command's `hint` in the form of the collection its plan reads: {$hint: name}, a key
 * pattern or {$natural: ...}; a time-series view's key pattern becomes its buckets key
 * (BadValue when it maps to none). Empty when no hint is given.
 */
BSONObj hintForExecution(OperationContext* opCtx, const NamespaceString& nss, const HintArg& hint);

/**
 * The options of an aggregate command as preparePipeline() takes them: allowDiskUse (server
 * default when absent), let, collation, the hint for execution; `explain` as given. Used by
 * aggregate and by explain of aggregate, so both plan the same query.
 */
AggregationRequestOptions aggregationOptions(OperationContext* opCtx, const NamespaceString& nss,
                                             const AggregateCommandRequest& cmd,
                                             bool collectionless, bool explain);

/**
 * preparePipeline() of an aggregate on `nss`, over a rollup level of the time-series view
 * `nss` when one answers `stages` exactly (timeseries/rollups/rollup_rewrite.h), unless the
 * request says `$_internalRollups: false`, gives a hint or a collation other than simple.
 * `rollupsExplain` receives explain's `rollups` section ({rawPath: true} when a view with
 * levels took the raw path; empty for collections without levels).
 */
PreparedPipeline prepareAggregatePipeline(OperationContext* opCtx, const NamespaceString& nss,
                                          const AggregateCommandRequest& cmd,
                                          const std::vector<BSONObj>& stages,
                                          const AggregationRequestOptions& opts,
                                          BSONObj* rollupsExplain);

/**
 * Parses a find projection whose computed fields ({x: {$add: ["$a", 1]}}, "$$ROOT",
 * `let` variables, $$NOW) use the aggregation expression engine. Throws the parse
 * errors of Projection::parse, the expression errors (InvalidPipelineOperator 168,
 * 17276 undefined variable...) and those of the `let` variables. `expCtxOut` receives the
 * context its expressions evaluate in (null when it has none): callers set its
 * Variables::metadata for {$meta} fields.
 */
Projection parseFindProjection(const BSONObj& spec, const FindExpressionContext& exprCtx,
                               std::shared_ptr<ExpressionContext>* expCtxOut = nullptr);

}  // namespace mongo
