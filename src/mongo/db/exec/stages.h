// The concrete execution stages. Upstream names are used in explain output.
#pragma once

#include <functional>
#include <memory>
#include <unordered_set>

#include "mongo/db/exec/plan_stage.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {

class Collection;
class ExternalSorter;
struct IndexEntry;
class MatchExpression;
class SortPattern;

/** COLLSCAN: every record in RecordId order (or reverse), optionally filtered. */
class CollectionScanStage : public PlanStage {
public:
    /**
     * With `resumeAfter`, the scan starts after that record ($_resumeAfter); the first
     * next() throws KeyNotFound when the record no longer exists.
     */
    CollectionScanStage(std::shared_ptr<Collection> coll, bool forward,
                        std::shared_ptr<MatchExpression> filter,
                        std::optional<RecordId> resumeAfter = std::nullopt);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    void save() override;
    void restore(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "COLLSCAN";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;

private:
    std::shared_ptr<Collection> _coll;
    bool _forward;
    std::shared_ptr<MatchExpression> _filter;
    std::optional<RecordId> _resumeAfter;
    std::unique_ptr<RecordCursor> _cursor;
};

/** One index interval from `start` to `end` (key prefixes, in index order). */
struct IndexInterval {
    BSONObj start;
    BSONObj end;
    bool startInclusive = true;
    bool endInclusive = true;
};

/** One index interval: [start, end] with inclusivity, over a key prefix. */
struct IndexBounds {
    BSONObj start;  // empty: from the beginning
    bool startInclusive = true;
    BSONObj end;  // empty: to the end
    bool endInclusive = true;
    /**
     * When not empty, the scan reads these intervals instead of [start, end]: in index
     * order, disjoint (geo_index_bounds.h builds them from S2 cell ranges, the planner from
     * `$in` values and regex prefixes). Record ids are then always de-duplicated (a document
     * may have keys in several), and, as upstream's bounds checker does, the key that ends an
     * interval counts as examined (once, also when it lies past the next interval too).
     */
    std::vector<IndexInterval> intervals;
    /** Explain form: {field: ["[1, 1]"]}. */
    BSONObj explain;
};

/** IXSCAN: record ids from an index interval, de-duplicated for multikey indexes. */
class IndexScanStage : public PlanStage {
public:
    IndexScanStage(std::shared_ptr<Collection> coll, IndexEntry* index, IndexBounds bounds,
                   bool forward);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    void save() override;
    void restore(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "IXSCAN";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;
    /**
     * True when this scans the clustered index of a clustered collection over one range:
     * explain then shows it with its FETCH as upstream's CLUSTERED_IXSCAN (a bounded scan of
     * the records themselves, no keys examined).
     */
    bool isClusteredScan() const;
    /** CLUSTERED_IXSCAN's direction, minRecord and maxRecord (bounds other than Min/MaxKey). */
    void appendClusteredScanInfo(BSONObjBuilder* bob) const;
    /** "CLUSTERED_IXSCAN" with a minRecord or maxRecord, else (the whole range) "COLLSCAN". */
    const char* clusteredScanStageName() const;
    /**
     * 1 when the scan ended on an entry past its bound: a clustered scan reads that record to
     * see it is past maxRecord (upstream counts it in docsExamined).
     */
    long long recordsReadPastBound() const {
        return _stoppedAtBound ? 1 : 0;
    }
    /** Set by the FETCH above when it reads the range itself (FetchStage, time-keyed ids). */
    void setStoppedAtBound(bool stopped) {
        _stoppedAtBound = stopped;
    }
    const IndexBounds& bounds() const {
        return _bounds;
    }
    /** Each result carries the key it was found at (WorkingMember::indexKey): find's returnKey. */
    void setReturnKeys(bool returnKeys) {
        _returnKeys = returnKeys;
    }
    /**
     * Keys are matched against `filter` before they are returned, as the document their key
     * fields make (nestDottedFields): for a covered plan, whose filter reads key fields only.
     * Implies returnKeys.
     */
    void setKeyFilter(std::shared_ptr<MatchExpression> filter) {
        _keyFilter = std::move(filter);
        _returnKeys = true;
    }
    bool isForward() const {
        return _forward;
    }

private:
    std::shared_ptr<Collection> _coll;
    IndexEntry* _index;
    IndexBounds _bounds;
    bool _forward;
    /** Positions the cursor on interval `_interval` (multi-interval scans). */
    std::optional<IndexKeyEntry> _seekInterval();

    std::unique_ptr<SortedDataCursor> _cursor;
    bool _started = false;
    bool _stoppedAtBound = false;
    bool _returnKeys = false;
    std::shared_ptr<MatchExpression> _keyFilter;
    size_t _interval = 0;           // current entry of _bounds.intervals (scan order)
    std::string _countedPastBound;  // key bytes of the entry that ended the last interval
    std::unordered_set<RecordId> _seen;
};

/**
 * FETCH: loads the documents of its child's record ids, optionally filtered. Over a
 * clustered scan of a collection whose RecordIds come from its _id times
 * (Collection::recordIdsFromIdTime) with ObjectId (or open) bounds, it reads the RecordId
 * range of those times itself instead: records in order, no index entry and no search per
 * record, each checked against the _id bounds.
 */
class FetchStage : public PlanStage {
public:
    FetchStage(std::shared_ptr<Collection> coll, std::unique_ptr<PlanStage> child,
               std::shared_ptr<MatchExpression> filter);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    void save() override;
    void restore(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "FETCH";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;

private:
    /** Opens `_range` when the child is such a scan (first next()). */
    void _setUpTimeRange(OperationContext* opCtx);
    std::optional<WorkingMember> _nextInTimeRange(OperationContext* opCtx);
    bool _inIdBounds(const BSONObj& doc) const;

    std::shared_ptr<Collection> _coll;
    std::shared_ptr<MatchExpression> _filter;
    bool _rangeChecked = false;
    IndexScanStage* _rangeScan = nullptr;  // the child, when reading the range
    std::unique_ptr<RecordCursor> _range;
    bool _rangeDone = false;
    std::vector<WorkingMember> _pending;  // kept records of one second, in _id order
    size_t _pendingPos = 0;
    std::optional<WorkingMember> _carry;  // the first kept record of the next second
};

/**
 * SORT: buffers its input and returns it ordered by the sort pattern; keeps only
 * the first `limit` documents when limit > 0 (top-k). Exceeding `maxMemoryBytes`
 * without `allowDiskUse` fails with QueryExceededMemoryLimitNoDiskUseAllowed 292;
 * with it, the buffered input moves to an ExternalSorter that spills sorted runs to
 * temporary files (explain executionStats: usedDisk, spills).
 */
class SortStage : public PlanStage {
public:
    SortStage(std::unique_ptr<PlanStage> child, std::shared_ptr<SortPattern> pattern,
              BSONObj patternObj, long long limit, long long maxMemoryBytes, bool allowDiskUse);
    ~SortStage() override;
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "SORT";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;

    void appendExecutionStats(BSONObjBuilder* bob) const override;

private:
    void _load(OperationContext* opCtx);
    void _spill();
    std::shared_ptr<SortPattern> _pattern;
    BSONObj _patternObj;
    long long _limit;
    long long _maxMemory;
    bool _allowDiskUse;
    bool _loaded = false;
    /** A buffered member with its sort key, computed once (keys expand arrays). */
    struct Keyed {
        BSONObj key;
        WorkingMember member;
    };
    std::vector<Keyed> _sorted;
    size_t _pos = 0;
    std::unique_ptr<ExternalSorter> _external;  // set once the input outgrew memory
    long long _returned = 0;
};

/**
 * A document from index key fields named by dotted paths ({"a": 1, "b.c": 2, "b.d": 3} ->
 * {a: 1, b: {c: 2, d: 3}}), in the order the paths first appear; a path that is a prefix of
 * another ({"a.b", "a.b.c"}) keeps the whole value of the shorter one.
 */
BSONObj nestDottedFields(const std::vector<std::pair<StringData, BSONElement>>& fields);

/**
 * PROJECTION_COVERED: each result built from the index key its child found it at
 * (WorkingMember::indexKey, under the key pattern's names): the key fields named by `paths`
 * (dotted paths, in this order, nested by nestDottedFields); no document is read. A path whose
 * value the document lacks has the key's null (upstream's covered projections do the same).
 * explain: transformBy {_id: 0|1, path: 1, ...}.
 */
class ProjectionCoveredStage : public PlanStage {
public:
    ProjectionCoveredStage(std::unique_ptr<PlanStage> child, std::vector<std::string> paths);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "PROJECTION_COVERED";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;

private:
    std::vector<std::string> _paths;
};

/**
 * EXPRESS_IXSCAN (upstream 8.0's express path): the one document of an `_id` point lookup,
 * read by the plan `inner` (IXSCAN + FETCH of the point), which explain does not show; its keys
 * and documents examined are this stage's. explain: keyPattern as a string ("{ _id: 1 }"),
 * indexName.
 */
class ExpressIndexScanStage : public PlanStage {
public:
    ExpressIndexScanStage(std::unique_ptr<PlanStage> inner, std::string keyPattern,
                          std::string indexName);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    void save() override;
    void restore(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "EXPRESS_IXSCAN";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override;

private:
    std::unique_ptr<PlanStage> _inner;
    std::string _keyPattern;
    std::string _indexName;
};

class SkipStage : public PlanStage {
public:
    SkipStage(std::unique_ptr<PlanStage> child, long long skip);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "SKIP";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override {
        bob->append("skipAmount", _skip);
    }

private:
    long long _skip;
    long long _skipped = 0;
};

class LimitStage : public PlanStage {
public:
    LimitStage(std::unique_ptr<PlanStage> child, long long limit);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "LIMIT";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override {
        bob->append("limitAmount", _limit);
    }

private:
    long long _limit;
    long long _returned = 0;
};

/** PROJECTION_SIMPLE / PROJECTION_DEFAULT: applies a projection function. */
class ProjectionStage : public PlanStage {
public:
    ProjectionStage(std::unique_ptr<PlanStage> child, ProjectionFn fn, BSONObj spec, bool simple);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    std::string stageName() const override {
        return _simple ? "PROJECTION_SIMPLE" : "PROJECTION_DEFAULT";
    }
    void appendExplainInfo(BSONObjBuilder* bob) const override {
        bob->append("transformBy", _spec);
    }
    /** The result is the member's index key when it has one (returnKey), else _fn(doc). */
    void useIndexKey() {
        _useIndexKey = true;
    }

private:
    bool _useIndexKey = false;
    ProjectionFn _fn;
    BSONObj _spec;
    bool _simple;
};

}  // namespace mongo
