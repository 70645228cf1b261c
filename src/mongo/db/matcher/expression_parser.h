// Parses a query filter document into a MatchExpression tree.
//
// Errors (all returned, never thrown) carry upstream's codes: BadValue (2) for
// unknown operators ("unknown operator: $foo", "unknown top level operator: $foo")
// and malformed operands, TypeMismatch (14) for a bad $type operand, 51108 for an
// unknown regex flag, 51091 for an invalid pattern, 51075 for regex options given
// twice.
#pragma once

#include <functional>
#include <memory>

#include "mongo/base/status.h"
#include "mongo/db/matcher/expression.h"

namespace mongo {

/** Parses `filter`. The tree copies what it needs; `filter` may die afterwards. */
StatusWith<std::unique_ptr<MatchExpression>> parseMatchExpression(const BSONObj& filter);

/** $near, $nearSphere or $geoNear: predicates that order by distance (no matcher of their own). */
bool isNearOperator(StringData name);

/**
 * Whether `filter` holds a near predicate in an operator position ($and/$or/$nor, a field's
 * operators, under $elemMatch and $not); literal values are not looked into.
 */
bool containsNearPredicate(const BSONObj& filter);

/**
 * OK, or upstream's 5626500 when `filter` holds a near predicate: a filter that only filters
 * ($match, a find on a view) cannot order by distance.
 */
Status checkNoNearPredicate(const BSONObj& filter);

/**
 * Parses path-less operators ({$gt: 1, $lt: 5}, as in a value $elemMatch or a
 * $pull condition). The result tests values with matchesSingleElement().
 */
StatusWith<std::unique_ptr<MatchExpression>> parseValueMatchExpression(const BSONObj& operators);

/**
 * Hook for $expr, installed by the aggregation layer (which sits above this one).
 * Receives the `$expr` element. Without a hook $expr is rejected with BadValue.
 */
using ExprMatchParser =
    std::function<StatusWith<std::unique_ptr<MatchExpression>>(const BSONElement& exprElem)>;
void setExprMatchParser(ExprMatchParser parser);
/** The installed hook (empty if none). */
ExprMatchParser getExprMatchParser();

/**
 * Top-level operators of the layers above (e.g. the time-series bucket predicate
 * $_internalBucketGeoWithin), registered from static initialisers before any query runs.
 * The parser hands the operator's element to `parser`; a name not registered is unknown.
 * Inside $elemMatch such an operator is refused with QueryFeatureNotAllowed (upstream's).
 */
void registerTopLevelMatchOperator(StringData name, ExprMatchParser parser);

/** Maps a $type alias ("string", "objectId", ...) to its type; false if unknown. */
bool typeFromAlias(StringData alias, BSONType* out);

}  // namespace mongo
