#pragma once
// How explain prints a filter (queryPlanner.parsedQuery, a stage's `filter`): upstream prints
// the optimised tree, so an $and or $or with one child is that child and nested $and/$or are
// flattened into their parent. Matching is unaffected; stored filters keep their own form.
//
//   serializeForExplain(*parse({$and: [{a: 1}]}))  ->  {a: {$eq: 1}}

#include "mongo/bson/bsonobj.h"

namespace mongo {

class MatchExpression;

BSONObj serializeForExplain(const MatchExpression& expr);

/** The same normalisation over an already serialised filter. */
BSONObj normalizeFilterForExplain(const BSONObj& filter);

}  // namespace mongo
