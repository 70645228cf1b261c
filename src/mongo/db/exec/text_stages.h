// The stages of a $text plan (upstream's classic TEXT_MATCH <- TEXT_OR <- IXSCAN...):
//   TEXT_OR    reads one index scan per query term (keys {prefix.., term, score, suffix..};
//              fts/README.md), adds up each record's scores, then loads each record and keeps
//              those the query's filter matches (its $text node is true for every candidate);
//   TEXT_MATCH drops candidates that fail the query's negations, phrases or case/diacritic
//              sensitivity (fts::FTSMatcher), which the index cannot tell.
// Each result carries its score (WorkingMember::textScore) for {$meta: "textScore"}.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
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
 * `text`, from the collection's text index; binds `text` to that index. `filterSpec` is the
 * filter as given, `preds` its field predicates (the prefix fields of a compound text index need
 * equalities). Errors: IndexNotFound 27 "text index required for $text query" (no usable text
 * index), NoQueryExecutionPlans 291 (a prefix field without an equality), BadValue 2 (an
 * unsupported $language).
 */
std::unique_ptr<PlanStage> buildTextPlan(const std::shared_ptr<Collection>& coll,
                                         const TextMatchExpression& text,
                                         const std::shared_ptr<MatchExpression>& filter,
                                         const BSONObj& filterSpec,
                                         const std::map<std::string, FieldPredicate>& preds,
                                         bool apiStrict, bool needsScore = true);

/**
 * OR of index scans (a $text plan whose scores nobody reads): each record id once, in the
 * order the scans find them (the scans one after the other); no document.
 */
class IndexUnionStage : public PlanStage {
public:
    explicit IndexUnionStage(std::vector<std::unique_ptr<PlanStage>> scans);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "OR";
    }
    void appendExecutionStats(BSONObjBuilder* bob) const override;

private:
    size_t _current = 0;
    absl::flat_hash_set<RecordId> _seen;
    long long _dupsTested = 0;
    long long _dupsDropped = 0;
};

/**
 * The plan of a filter whose $text is a clause of an $or (at the root or in the root $and):
 * OR <- [the TEXT plan of `text` alone, COLLSCAN of the whole filter] (TextUnionStage). As
 * upstream requires, every other clause of that $or must be able to use an index, else
 * NoQueryExecutionPlans 291; a $text anywhere else is 291 too. buildTextPlan()'s errors.
 */
std::unique_ptr<PlanStage> buildTextUnderOrPlan(const std::shared_ptr<Collection>& coll,
                                                const TextMatchExpression& text,
                                                const std::shared_ptr<MatchExpression>& filter,
                                                const BSONObj& filterSpec,
                                                const std::map<std::string, FieldPredicate>& preds,
                                                bool apiStrict);

/**
 * OR for a $text under $or: reads its TEXT child to the end first (the documents $text matches
 * and their scores; binds the $text node to them), then returns what its collection scan
 * child returns (the documents the whole filter matches), each with its text score when $text
 * matched it.
 */
class TextUnionStage : public PlanStage {
public:
    TextUnionStage(std::unique_ptr<PlanStage> text, std::unique_ptr<PlanStage> scan,
                   const TextMatchExpression& node);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "OR";
    }

private:
    const TextMatchExpression& _node;
    bool _collected = false;
    absl::flat_hash_map<RecordId, double> _scores;
};

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
