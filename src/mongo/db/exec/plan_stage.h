// Execution stages for find-style reads: a pull-based tree of PlanStages
// (COLLSCAN, IXSCAN+FETCH, filter, SORT, SKIP, LIMIT, PROJECTION) driven by a
// PlanExecutor. Each stage reports its upstream name and counters for explain.
//
// A stage tree is used by one thread at a time. Between getMore batches the tree
// is saved (storage cursors released) and restored on the next batch.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/record_id.h"

namespace mongo {

class OperationContext;

/** One result flowing through the tree: a document and, when it came from storage, its id. */
struct WorkingMember {
    RecordId id;
    BSONObj doc;
    /** The index key the record was found at, under the key pattern's names (returnKey only). */
    BSONObj indexKey;
    /** The document's score for the query's $text ({$meta: "textScore"}), set by TEXT_OR. */
    std::optional<double> textScore;
};

/**
 * A find projection: the result document made from a member (its document, and its metadata
 * such as the text score that {$meta: "textScore"} reads).
 */
using ProjectionFn = std::function<BSONObj(const WorkingMember&)>;

struct StageStats {
    long long works = 0;
    long long advanced = 0;
    long long keysExamined = 0;
    long long docsExamined = 0;
};

class PlanStage {
public:
    virtual ~PlanStage() = default;
    /** The next result, or nullopt at the end. May throw (interrupts, errors). */
    virtual std::optional<WorkingMember> next(OperationContext* opCtx) = 0;
    virtual void save() {
        for (auto& c : _children)
            c->save();
    }
    virtual void restore(OperationContext* opCtx) {
        for (auto& c : _children)
            c->restore(opCtx);
    }
    /** Upstream stage name: COLLSCAN, IXSCAN, FETCH, SORT, LIMIT, SKIP, PROJECTION_DEFAULT... */
    virtual std::string stageName() const = 0;
    /** Stage-specific explain fields (filter, keyPattern, bounds, ...). */
    virtual void appendExplainInfo(BSONObjBuilder* bob) const {}
    /** Stage-specific executionStats fields (explain with stats only). */
    virtual void appendExecutionStats(BSONObjBuilder* bob) const {}
    const StageStats& stats() const {
        return _stats;
    }
    const std::vector<std::unique_ptr<PlanStage>>& children() const {
        return _children;
    }

protected:
    StageStats _stats;
    std::vector<std::unique_ptr<PlanStage>> _children;
};

/**
 * serverStatus metrics.queryExecutor: keys (`scanned`) and documents (`scannedObjects`)
 * examined by every plan run so far, added when the plan is destroyed.
 */
struct QueryExecutorCounters {
    std::atomic<long long> scanned{0};
    std::atomic<long long> scannedObjects{0};
};
QueryExecutorCounters& queryExecutorCounters();

/** Drives a stage tree. */
class PlanExecutor {
public:
    explicit PlanExecutor(std::unique_ptr<PlanStage> root) : _root(std::move(root)) {}
    /** Adds the tree's keys and documents examined to queryExecutorCounters(). */
    ~PlanExecutor();
    PlanExecutor(const PlanExecutor&) = delete;
    PlanExecutor& operator=(const PlanExecutor&) = delete;
    /**
     * A plan to run instead when the first one fails with QueryExceededMemoryLimitNoDiskUseAllowed
     * (its blocking SORT outgrew its memory) before returning anything: upstream's multi-planner
     * drops a plan that fails that way and runs another.
     */
    void setBackupPlan(std::function<std::unique_ptr<PlanStage>()> makeBackup) {
        _makeBackup = std::move(makeBackup);
    }
    /** Next document, or false at the end. */
    bool getNext(OperationContext* opCtx, BSONObj* out, RecordId* id = nullptr);
    /** The text score of the document getNext() returned last (a $text plan's), if any. */
    std::optional<double> lastTextScore() const {
        return _lastTextScore;
    }
    bool isEOF() const {
        return _eof;
    }
    void save() {
        _root->save();
    }
    void restore(OperationContext* opCtx) {
        _root->restore(opCtx);
    }
    PlanStage* root() const {
        return _root.get();
    }
    /** {stage, ...info, inputStage(s)} for explain's winningPlan (optionally with stats). */
    BSONObj explainPlan(bool withStats) const;
    /** Whether a stage named `name` ("SORT", ...) is in the plan. */
    bool hasStage(StringData name) const;
    /** Totals over the tree: keys and documents examined. */
    StageStats totals() const;
    /**
     * Upstream's planSummary: the leaf stages, e.g. "COLLSCAN" or "IXSCAN { a: 1 }"
     * (distinct ones joined by ", "). O(size of the plan).
     */
    std::string planSummary() const;
    long long nReturned() const {
        return _nReturned;
    }

private:
    std::unique_ptr<PlanStage> _root;
    std::function<std::unique_ptr<PlanStage>()> _makeBackup;  // built only when used
    bool _eof = false;
    long long _nReturned = 0;
    std::optional<double> _lastTextScore;
};

}  // namespace mongo
