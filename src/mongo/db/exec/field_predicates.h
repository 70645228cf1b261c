// The predicates of a find filter that can bound an index, field by field: equalities,
// ranges, $in values and regexes, $or of equalities on one field (as $in), from the top level
// and nested $and. The planner (planner.cpp) turns them into index bounds; whatever they do not
// capture stays in the filter the plan applies.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

/** An interval of values of one key field ({"": v} each end). */
struct ValueInterval {
    BSONObj low;
    bool lowInclusive = true;
    BSONObj high;
    bool highInclusive = true;

    bool isPoint() const {
        return lowInclusive && highInclusive && low.binaryEqual(high);
    }
};

/** The predicates on one field usable for index bounds. */
struct FieldPredicate {
    std::optional<BSONObj> eq;  // {"": v}
    std::optional<BSONObj> low;
    bool lowInclusive = true;
    std::optional<BSONObj> high;
    bool highInclusive = true;
    // The end came from a $_internalExpr comparison (the bucket predicates of time-series
    // queries), which also matches any array on its path: a multikey index cannot bound it.
    bool lowFromExpr = false;
    bool highFromExpr = false;
    /**
     * A union of values and regexes (`$in`, a regex): `inValues` ({"": v}, v neither an array
     * nor a regex) and `regexes` ({"": /pattern/flags}). Unset when the union cannot bound the
     * index (an array among the values, an empty `$in`).
     */
    std::optional<std::vector<BSONObj>> inValues;
    std::vector<BSONObj> regexes;
    /** After predicateForIndex: the union as sorted, disjoint intervals in key form. */
    std::optional<std::vector<ValueInterval>> intervals;

    bool hasUnion() const {
        return inValues.has_value();
    }
};

/**
 * Adds to `out` the predicates of `filter` that bound an index on their field (the planner
 * then picks among them per index). Never throws for a valid filter; predicates it does not
 * understand are left out (the plan's filter still applies them).
 */
void analyzeFieldPredicates(const BSONObj& filter, std::map<std::string, FieldPredicate>* out);

}  // namespace mongo
