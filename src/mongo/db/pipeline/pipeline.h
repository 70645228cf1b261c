// Pipeline: a parsed, optimised list of stages and its execution.
//
//   auto expCtx = std::make_shared<ExpressionContext>(opCtx, nss);
//   auto pipeline = Pipeline::parse(stageObjs, expCtx);   // throws on parse errors
//   pipeline->optimize();
//   FindPlanParams params = pipeline->extractFindParams();  // leading $match/$sort/...
//   pipeline->attachExecutor(buildFindPlan(opCtx, coll, params));
//   while (auto doc = pipeline->getNext()) ...
//
// Optimisation: adjacent $match merge, $match moved before $addFields/$set/$unset/
// exclusion $project when it does not read their fields, $sort+$limit top-k, adjacent
// $skip/$limit coalescing; then the leading $match, $sort, $skip and $limit move into
// the find layer (planner.h) so that indexes serve them.
#pragma once

#include <memory>
#include <vector>

#include "mongo/db/exec/plan_stage.h"
#include "mongo/db/exec/planner.h"
#include "mongo/db/pipeline/document_source.h"

namespace mongo {

/** Run statistics of one stage, collected when explaining with executionStats. */
struct StageExecStats {
    long long nReturned = 0;
    long long micros = 0;  // time inside getNext(), including the stages it pulls from
};

class Pipeline {
public:
    /**
     * Parses `stages`. Errors: 40323/40324 (bad stage objects), stage parse errors,
     * 40601 ($out/$merge not last), 40602 (stage that must be first is not).
     */
    static std::unique_ptr<Pipeline> parse(const std::vector<BSONObj>& stages,
                                           std::shared_ptr<ExpressionContext> expCtx);

    void optimize();
    /** Removes the leading stages the find layer can run and returns them as params. */
    FindPlanParams extractFindParams();
    /**
     * Feeds the pipeline from `exec` (the output of the find layer), whose documents come in
     * the order of `order` when given (their sortKey metadata).
     */
    void attachExecutor(std::unique_ptr<PlanExecutor> exec,
                        std::shared_ptr<const SortPattern> order = nullptr);
    /** Feeds the pipeline from `source` (a $queue, a sub-pipeline...). */
    void attachSource(StagePtr source);

    /** True when the first stage produces its own input ($documents...). */
    bool isCollectionless() const;
    /** Throws InvalidNamespace ("{aggregate: 1} is not valid for ...") unless collectionless. */
    void uassertCollectionless() const;

    std::optional<BSONObj> getNext();

    /**
     * Explain with executionStats: counts and times each stage's getNext() through a proxy
     * placed between it and its consumer. Call before the first getNext(). A stage read
     * directly by its consumer ($_internalUnpackBucket, whose consumers may read whole
     * buckets from it) is not proxied and reports its own counts (appendExplainStats).
     */
    void enableExecutionStats() {
        _collectStats = true;
    }
    /** The stats of stage `i` of stages() (-1: the input), or nullptr when not measured. */
    const StageExecStats* stageStats(int i) const;

    /** The stages as {$stage: spec} objects (for explain and views). */
    std::vector<BSONObj> serialize() const;
    StageList& stages() {
        return _stages;
    }
    const std::shared_ptr<ExpressionContext>& getExpCtx() const {
        return _expCtx;
    }
    PlanExecutor* executor() const {
        return _exec;
    }

private:
    /** extractFindParams() but for needsTextScore. */
    FindPlanParams _takeFindStages();
    /** Moves a leading {$skip: s} below the extracted limit into `params` (s < limit). */
    void takeSkipWithinLimit(FindPlanParams* params);
    explicit Pipeline(std::shared_ptr<ExpressionContext> expCtx) : _expCtx(std::move(expCtx)) {}
    void stitch();

    std::shared_ptr<ExpressionContext> _expCtx;
    StageList _stages;
    StagePtr _input;  // the cursor stage (not part of _stages)
    PlanExecutor* _exec = nullptr;
    bool _stitched = false;
    DocumentSource* _output = nullptr;  // what getNext() reads (the last stage or its proxy)
    bool _collectStats = false;
    StageExecStats _inputStats;
    std::vector<StageExecStats> _stats;  // per stage of _stages
    std::vector<bool> _measured;         // per stage: read through a proxy
    bool _inputMeasured = false;
    std::vector<StagePtr> _proxies;
};

/** A DocumentSource over a PlanExecutor (the find layer's output). */
class DocumentSourceCursor final : public DocumentSource {
public:
    /** `order`: the sort of `exec`'s output (null: none), for sortKey metadata. */
    DocumentSourceCursor(std::shared_ptr<ExpressionContext> expCtx,
                         std::unique_ptr<PlanExecutor> exec,
                         std::shared_ptr<const SortPattern> order = nullptr)
        : DocumentSource(std::move(expCtx)), _exec(std::move(exec)), _order(std::move(order)) {}
    std::optional<BSONObj> getNext() override;
    const char* getSourceName() const override {
        return "$cursor";
    }
    void serialize(BSONArrayBuilder* out) const override {}
    PlanExecutor* executor() const {
        return _exec.get();
    }

private:
    std::unique_ptr<PlanExecutor> _exec;
    std::shared_ptr<const SortPattern> _order;
};

}  // namespace mongo
