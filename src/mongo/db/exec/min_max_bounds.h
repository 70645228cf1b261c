// The index bounds of a find's `min` / `max` options: the hinted index scanned from the key
// `min` (inclusive) to the key `max` (exclusive), in the index's own order.
#pragma once

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/stages.h"

namespace mongo {

struct IndexEntry;

/**
 * Checks `min` and `max` (either may be empty: unbounded on that side) against the hinted
 * `index` and returns the scan's bounds. Errors, as upstream: 51176 (min and max name other
 * fields), 51174 (their fields are not the index's key fields in order, or the index is a
 * wildcard, text or geo index), 51175 (min is not before max in the index's order).
 */
IndexBounds minMaxBounds(const IndexEntry& index, const BSONObj& min, const BSONObj& max);

}  // namespace mongo
