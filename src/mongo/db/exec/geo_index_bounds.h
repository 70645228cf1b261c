// Index bounds for geo predicates on 2dsphere (and time-series 2dsphere_bucket) indexes.
//
// A 2dsphere key is the NumberLong id of an S2 cell of the stored geometry's covering
// (levels 0..kS2IndexFinestLevel, see db/geo/README.md). A stored geometry meets a query
// region only if one of its cells meets one cell of the region's covering, and two S2 cells
// meet only when one contains the other. So the keys to read, for each query cell C, are
// C's ancestors (exact points) and every cell inside C (the id range
// [C.range_min(), C.range_max()]). The scan returns a superset; FETCH applies the predicate.
//
// The planner (planner.cpp) uses these for $geoWithin/$geoIntersects (on "2dsphere" fields)
// and $_internalBucketGeoWithin (on "data.<f>" "2dsphere_bucket" fields), found at the top
// level of the filter or inside a top-level $and.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/stages.h"

class S2CellId;

namespace mongo {

class GeoQueryRegion;
class MatchExpression;
struct IndexEntry;

namespace geo_index_bounds {

/** A closed interval of cell ids, in signed NumberLong order (the order of index keys). */
struct CellInterval {
    long long low;
    long long high;
};

/**
 * The key intervals for a query covering `cells` (any levels): for each cell its ancestors
 * and its descendant range, sorted, merged when they overlap or touch. O(n log n).
 */
std::vector<CellInterval> intervalsForCovering(const std::vector<S2CellId>& cells);

/**
 * The key intervals that hold every key of every stored geometry that can satisfy `region`
 * (a $geometry or $centerSphere region); nullopt for planar shapes ($box, $center, $polygon),
 * which match legacy points outside the sphere's range that a 2dsphere index does not hold.
 */
std::optional<std::vector<CellInterval>> intervalsForRegion(const GeoQueryRegion& region);

/** Explain form of one interval: "[low, high]". */
std::string toString(const CellInterval& interval);

/** A geo predicate an index may bound: the index key field and the region. */
struct GeoPredicate {
    std::string keyField;                    // "loc" (2dsphere) or "data.loc" (2dsphere_bucket)
    bool bucket = false;                     // from $_internalBucketGeoWithin
    const GeoQueryRegion* region = nullptr;  // owned by the match expression
};

/** The geo predicates of `filter` (may be null) at its top level or in a top-level $and. */
std::vector<GeoPredicate> findGeoPredicates(const MatchExpression* filter);

/**
 * The multi-interval bounds of `index` for the first predicate of `preds` on one of its geo
 * key fields, or nullopt when none applies. Key fields before the geo field must each be
 * bound to one value by `equalityFor(field)` (a key-form {"": v}, nullopt: no equality);
 * fields after it are unbounded.
 */
std::optional<IndexBounds> boundsForIndex(
    const IndexEntry& index, const std::vector<GeoPredicate>& preds,
    const std::function<std::optional<BSONObj>(const std::string&)>& equalityFor);

}  // namespace geo_index_bounds
}  // namespace mongo
