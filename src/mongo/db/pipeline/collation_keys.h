// Collation-aware sort keys: a collator's comparison keys (string_comparator.h)
// order like the collator itself, so a document whose strings are replaced by their
// keys sorts under the simple binary order exactly as the original sorts under the
// collation. $sort (and its spilling sorter), $sortArray and $top/$bottom use this to
// reuse SortPattern's simple-order machinery unchanged.
#pragma once

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/string_comparator.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {

/**
 * `obj` with every String and Symbol value (also inside nested objects and arrays)
 * replaced by a String holding its comparison key under `strings`. Returns `obj`
 * unchanged when `strings` is null. Cost: copies the whole object.
 */
BSONObj toComparisonKeys(const BSONObj& obj, const StringComparator* strings);

/**
 * pattern.getSortKey(doc) under collation `strings` (null: simple): the values are
 * chosen from arrays with the collation's order, and strings appear as comparison
 * keys, so two such keys compare correctly with pattern.compareSortKeys(). Only the
 * top-level fields the pattern names are converted.
 */
BSONObj getCollatedSortKey(const SortPattern& pattern, const BSONObj& doc,
                           const StringComparator* strings);

/** pattern.compare(a, b) under collation `strings` (null: simple). */
int compareCollated(const SortPattern& pattern, const BSONObj& a, const BSONObj& b,
                    const StringComparator* strings);

}  // namespace mongo
