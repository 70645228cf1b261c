// A small query planner: picks an index from the filter's top-level equality and
// range predicates (or the hint), and builds the stage tree for a find:
// (COLLSCAN | IXSCAN+FETCH) -> SORT -> SKIP -> LIMIT -> PROJECTION.
// Index bounds may be wider than the predicates; FETCH re-applies the whole
// filter, so results are always exact.
#pragma once

#include <memory>
#include <optional>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/plan_stage.h"

namespace mongo {

class Collection;
class MatchExpression;
class SortPattern;
class OperationContext;

struct FindPlanParams {
    BSONObj filter;
    std::shared_ptr<MatchExpression> matcher;  // parsed filter (null: match all)
    BSONObj sort;                              // empty: none ({$natural: ±1} allowed)
    std::shared_ptr<SortPattern> sortPattern;  // parsed sort, null if none
    std::function<BSONObj(const BSONObj&)> projection;  // null: none
    BSONObj projectionSpec;
    bool simpleProjection = false;
    long long skip = 0;
    long long limit = 0;  // 0: none
    BSONObj hint;         // {} none; {$natural: 1}; key pattern; {"$hint": "name"}
    std::string hintName;
    bool allowDiskUse = false;
    long long maxSortMemoryBytes = 100LL * 1024 * 1024;
};

/**
 * Builds the executor for `params` over `coll` (which may be null: an empty result).
 * BadValue 2 when the hint names no index.
 */
std::unique_ptr<PlanExecutor> buildFindPlan(OperationContext* opCtx,
                                            std::shared_ptr<Collection> coll,
                                            const FindPlanParams& params);

}  // namespace mongo
