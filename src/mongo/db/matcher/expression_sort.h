#pragma once
// The canonical order of a filter's $and/$or/$nor children, as upstream's query normalisation
// sorts them. It never changes what matches; it decides which child an $and evaluates last, and
// so which array's position a positional `$` update or projection sees when the query walks two
// arrays: {tag: {$gt: 2}, f: {$gt: 2}} sets the position from `tag` (evaluated after `f`).
//
//   auto m = uassertStatusOK(parseMatchExpression(filter));
//   sortMatchExpressionTree(m.get());  // before the tree is shared

#include "mongo/db/matcher/expression.h"

namespace mongo {

/**
 * <0, 0 or >0 as `a` sorts before, with or after `b`: by kind (upstream's order: logical,
 * array, comparison and other leaf kinds, negations, special ones), then path (bytewise), then
 * number of children, then the children in turn.
 */
int compareMatchExpressions(const MatchExpression& a, const MatchExpression& b);

/** Sorts the children of every $and/$or/$nor of `root` (also under $not), stably. */
void sortMatchExpressionTree(MatchExpression* root);

}  // namespace mongo
