// The stages of a $text plan (upstream's classic TEXT_MATCH <- TEXT_OR <- IXSCAN...):
//   TEXT_OR    reads one index scan per query term (keys {prefix.., term, score, suffix..};
//              fts/README.md), adds up each record's scores, then loads each record and keeps
//              those the query's filter matches (its $text node is true for every candidate);
//   TEXT_MATCH drops candidates that fail the query's negations, phrases or case/diacritic
//              sensitivity (fts::FTSMatcher), which the index cannot tell.
// Each result carries its score (WorkingMember::textScore) for {$meta: "textScore"}.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "mongo/db/exec/field_predicates.h"
#include "mongo/db/exec/plan_stage.h"

namespace mongo {

class Collection;
class IndexScanStage;
class MatchExpression;
class TextMatchExpression;
struct IndexEntry;

namespace fts {
class FTSMatcher;
}  // namespace fts

/**
 * The TEXT_MATCH <- TEXT_OR <- IXSCAN... tree that answers `filter`, whose top-level $text is
 * `text`, from the collection's text index; binds `text` to that index. `preds` are the
 * filter's field predicates (the prefix fields of a compound text index need equalities).
 * Errors: IndexNotFound 27 "text index required for $text query" (no usable text index),
 * NoQueryExecutionPlans 291 (a prefix field without an equality), BadValue 2 (an unsupported
 * $language).
 */
std::unique_ptr<PlanStage> buildTextPlan(const std::shared_ptr<Collection>& coll,
                                         const TextMatchExpression& text,
                                         const std::shared_ptr<MatchExpression>& filter,
                                         const std::map<std::string, FieldPredicate>& preds,
                                         bool apiStrict);

class TextOrStage : public PlanStage {
public:
    /** `scans`: one per term, each returning keys (IndexScanStage::setReturnKeys). */
    TextOrStage(std::shared_ptr<Collection> coll, std::vector<std::unique_ptr<PlanStage>> scans,
                std::shared_ptr<MatchExpression> filter);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "TEXT_OR";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;

private:
    /** Reads every scan to its end, adding up scores per record (first call). */
    void _scoreAll(OperationContext* opCtx);

    std::shared_ptr<Collection> _coll;
    std::shared_ptr<MatchExpression> _filter;
    bool _scored = false;
    std::vector<std::pair<RecordId, double>> _scores;  // in first-seen order
    size_t _pos = 0;
};

class TextMatchStage : public PlanStage {
public:
    /**
     * `indexPrefix`: the prefix fields' equality values ({} without prefix), for explain.
     * `needsCheck`: whether the FTS matcher can reject what the index found.
     */
    TextMatchStage(std::unique_ptr<PlanStage> child, std::shared_ptr<const fts::FTSMatcher> matcher,
                   bool needsCheck, std::string indexName, BSONObj indexPrefix);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "TEXT_MATCH";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;
    void appendExecutionStats(BSONObjBuilder* bob) const override;

private:
    std::shared_ptr<const fts::FTSMatcher> _matcher;
    bool _needsCheck;
    std::string _indexName;
    BSONObj _indexPrefix;
    long long _docsRejected = 0;
};

}  // namespace mongo
