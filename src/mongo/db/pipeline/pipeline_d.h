// The bridge between a pipeline and the collections it reads: resolves views,
// parses and optimises the (view + user) pipeline, pushes its leading stages into
// the find layer and attaches the resulting executor. Used by aggregate, and by
// find/count/distinct on views.
#pragma once

#include <memory>
#include <vector>

#include "mongo/db/cursor_manager.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/query/collation/collator_interface.h"

namespace mongo {

class OperationContext;

struct AggregationRequestOptions {
    bool allowDiskUse = false;
    BSONObj letVars;  // `let`: name -> expression (evaluated once)
    bool explain = false;
    bool collectionless = false;  // aggregate: 1
    int subPipelineDepth = 0;     // nesting of $lookup/$unionWith/$facet sub-pipelines
    /** The request's `collation` (empty: none given). */
    BSONObj collation;
    /**
     * Sub-pipelines: the collation in force is the parent's, `inheritedCollator` (null:
     * simple), instead of the request's or the collection's default.
     */
    bool inheritCollation = false;
    const CollatorInterface* inheritedCollator = nullptr;
    /**
     * The request's `hint` in the form of the collection actually read: {$hint: name},
     * a key pattern or {$natural: 1|-1} (empty: none). A time-series view's hint is
     * translated to its buckets collection by the caller.
     */
    BSONObj hint;
    /** $$NOW (and $$CLUSTER_TIME's seconds) when the request fixes it (runtimeConstants). */
    std::optional<Date_t> now;
};

/**
 * Defines the variables of a `let` (name -> expression, each evaluated once, in order, so a
 * later one may read an earlier one) in `expCtx`'s top scope. Throws the name errors of
 * validateVariableName() and the expressions' parse and evaluation errors.
 */
void defineLetVariables(ExpressionContext* expCtx, const BSONObj& letVars);

struct PreparedPipeline {
    NamespaceString requestedNss;  // as given (may be a view)
    NamespaceString executionNss;  // the collection actually read
    std::unique_ptr<Pipeline> pipeline;
    FindPlanParams findParams;  // what moved into the find layer
    bool isView = false;
};

/**
 * Resolves `nss` (views included), parses `stages` after the view's stages,
 * optimises, and attaches the input. Throws parse errors (40323, 40324...),
 * ViewDepthLimitExceeded 165, and the find layer's errors. A missing collection
 * yields an empty input.
 * The collation in force (ExpressionContext::getCollator()) is opts.collation when
 * given, else the view's or the collection's default, else simple; a sub-pipeline's is
 * its parent's. Collation parse errors (BadValue 2, FailedToParse 9, TypeMismatch 14);
 * OptionNotSupportedOnView 167 when it differs from the default of the view read.
 */
PreparedPipeline preparePipeline(OperationContext* opCtx, const NamespaceString& nss,
                                 const std::vector<BSONObj>& stages,
                                 const AggregationRequestOptions& opts);

enum class ExplainVerbosity { kQueryPlanner, kExecutionStats, kAllPlansExecution };

/**
 * Appends aggregate's explain output: the find layer's queryPlanner when the whole
 * pipeline moved into it, else {explainVersion: "1", stages: [{$cursor: {queryPlanner}},
 * ...]}. With kExecutionStats/kAllPlansExecution the pipeline is first run to the end
 * (its results discarded): the $cursor stage gains `executionStats` (nReturned,
 * executionTimeMillis, totalKeysExamined, totalDocsExamined, executionStages) and every
 * stage entry `nReturned` and `executionTimeMillisEstimate` (plus the stage's own
 * counters, e.g. $_internalUnpackBucket's nBucketsUnpacked). Throws what the pipeline throws.
 */
void appendPipelineExplain(OperationContext* opCtx, PreparedPipeline& prepared,
                           BSONObjBuilder& result,
                           ExplainVerbosity verbosity = ExplainVerbosity::kQueryPlanner);

/** A cursor source over a pipeline (keeps the pipeline and its input alive). */
class PipelineCursorSource : public CursorSource {
public:
    explicit PipelineCursorSource(std::unique_ptr<Pipeline> p) : _pipeline(std::move(p)) {}
    bool next(OperationContext* opCtx, BSONObj* out) override;

private:
    std::unique_ptr<Pipeline> _pipeline;
};

/**
 * A copy of the default collator of collection `nss` (null: simple, or no such collection):
 * the collation in force when a statement gives none.
 */
std::unique_ptr<CollatorInterface> collectionDefaultCollator(OperationContext* opCtx,
                                                             const NamespaceString& nss);

/**
 * The aggregate stages equivalent to a find on a view: $match, $sort, $skip,
 * $limit, $project (each only when given).
 */
std::vector<BSONObj> findToPipeline(const BSONObj& filter, const BSONObj& sort,
                                    const BSONObj& projection, long long skip, long long limit);

/** Collects all documents of a pipeline (sub-pipelines, $facet, $lookup). */
std::vector<BSONObj> drainPipeline(Pipeline* p);

}  // namespace mongo
