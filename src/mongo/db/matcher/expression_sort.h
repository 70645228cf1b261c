#pragma once
// The canonical form of a filter, as upstream's query normalisation makes it: an $and inside an
// $and (an $or inside an $or) is flattened into it, an $and/$or of one child is that child, and
// the children of every $and/$or/$nor are sorted. It never changes what matches; it decides
// which child an $and evaluates last, and so which array's position a positional `$` update or
// projection sees when the filter walks two arrays: {tag: {$gt: 2}, f: {$gt: 2}} and
// {f: {$gt: 2}, $and: [{tag: {$gt: 2}}]} both take the position from `tag` (read after `f`).
//
//   auto m = canonicalizeMatchExpression(uassertStatusOK(parseMatchExpression(filter)));
//   m->setCollator(collator);  // then share it

#include <memory>

#include "mongo/db/matcher/expression.h"

namespace mongo {

/**
 * <0, 0 or >0 as `a` sorts before, with or after `b`: by kind (upstream's order: logical,
 * array, comparison and other leaf kinds, negations, special ones), then path (bytewise), then
 * number of children, then the children in turn.
 */
int compareMatchExpressions(const MatchExpression& a, const MatchExpression& b);

/** The canonical form of `root` (above). Cost: O(n log n) in the number of nodes. */
std::unique_ptr<MatchExpression> canonicalizeMatchExpression(std::unique_ptr<MatchExpression> root);

}  // namespace mongo
