// DISTINCT_SCAN: an index scan that returns, for each distinct value of the first
// `prefixFields` key fields, only the first entry in scan order, and then skips every
// other entry of that prefix with one seek (the prefix with an exclusive bound: past
// the prefix + MaxKey forward, before prefix + MinKey backward) instead of reading them.
// Used with a FETCH above it ($groupByDistinctScan, document_source_group_by_distinct_scan.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/db/exec/plan_stage.h"
#include "mongo/db/exec/stages.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {

class Collection;
struct IndexEntry;

/**
 * Whether scanning an index gives, per distinct group key, the first document of a $sort.
 * `groupPaths` are the group key's field paths ("meta.a"); `sortSpec` the $sort before the
 * $group ({"meta.a": 1, "control.max.t": -1}). Sort keys on or below a group path are
 * constant inside a group and are ignored; the rest R must follow the group paths in the
 * key pattern, whose first |groupPaths| fields must be exactly the group paths (any order,
 * ascending or descending). Returns the scan direction (true: forward) that visits R in
 * sort order, nullopt when the key pattern cannot serve it (or R is empty). Pure.
 */
std::optional<bool> distinctScanDirection(const BSONObj& keyPattern,
                                          const std::vector<std::string>& groupPaths,
                                          const BSONObj& sortSpec);

class DistinctScanStage : public PlanStage {
public:
    /**
     * kAll: every entry whose prefix holds a null key is returned (null and missing values
     * share that key, so a caller reading the value from the document needs them all).
     */
    enum class NullKeys { kOnePerValue, kAll };

    /**
     * REQUIRES: 0 < prefixFields <= number of key fields; `index` outlives the stage.
     * `bounds` (optional, single interval): the scan stays inside them. `returnKeys`: each
     * result carries its key (WorkingMember::indexKey) for a PROJECTION_COVERED above.
     */
    DistinctScanStage(std::shared_ptr<Collection> coll, IndexEntry* index, int prefixFields,
                      bool forward, NullKeys nullKeys = NullKeys::kOnePerValue,
                      std::optional<IndexBounds> bounds = std::nullopt, bool returnKeys = false);
    std::optional<WorkingMember> next(OperationContext* opCtx) override;
    void save() override;
    void restore(OperationContext* opCtx) override;
    std::string stageName() const override {
        return "DISTINCT_SCAN";
    }
    /** keyPattern, indexName, isMultiKey, ..., direction, indexBounds (whole key range). */
    void appendExplainInfo(BSONObjBuilder* bob) const override;

private:
    std::shared_ptr<Collection> _coll;
    IndexEntry* _index;
    int _prefixFields;
    bool _forward;
    NullKeys _nullKeys;
    std::optional<IndexBounds> _bounds;
    bool _returnKeys;
    bool _lastHasNull = false;  // the last prefix holds a null key
    std::unique_ptr<SortedDataCursor> _cursor;
    bool _started = false;
    bool _eof = false;
    BSONObj _lastPrefix;  // the prefix of the last entry returned
};

struct FindPlanParams;

/**
 * The plan of the distinct command on `key` over `coll` when an index serves it: its first
 * field is `key` (either direction), it is not hidden, sparse, partial or multikey, its
 * collation matches params.collator, and the query has no hint, sort, skip or limit and a
 * filter reading only `key` (a top-level name, no top-level operator), so that it is decided
 * per distinct value. The scan stays inside the filter's bounds (planner.h). When those hold
 * exactly the filter's matches (boundsAreExactFor) and the index keeps no collation keys, the
 * plan is covered, PROJECTION_COVERED + DISTINCT_SCAN: values come from the keys, so a missing
 * field gives null and an empty array undefined, as upstream's covered distinct (SERVER-14832).
 * Otherwise FETCH (with the filter) + DISTINCT_SCAN (NullKeys::kAll): one document per distinct
 * indexed value. nullptr when not applicable.
 */
std::unique_ptr<PlanExecutor> buildDistinctScanPlan(const std::shared_ptr<Collection>& coll,
                                                    StringData key, const FindPlanParams& params);

}  // namespace mongo
