// Index key generation for ascending/descending (btree) indexes: the keys a
// document contributes to an index with a given key pattern. A path that reaches
// an array makes the index multikey (one key per element); two array paths in one
// compound key are refused (CannotIndexParallelArrays 171). Missing fields index
// as null, empty arrays as undefined; sparse indexes skip documents that lack
// every key field. In an index with a collation, every String/Symbol value (also
// inside objects and arrays) is stored as its collation comparison key (a String),
// so the key order is the collation's order (upstream stores ICU sort keys alike).
// A "hashed" field contributes the digest of its value (missing: of null); an array on
// its path is refused (Location16766). Geo fields ("2dsphere", "2d") are sparse: a document
// without a location there has no key in the index.
#pragma once

#include <set>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

/**
 * The grid of a "2d" index (spec fields `bits`, `min`, `max`; defaults 26, -180, 180): each
 * legacy point [x, y] in [min, max) x [min, max) is keyed by its cell, 2^bits per axis.
 */
struct TwoDGrid {
    int bits = 26;
    double min = -180;
    double max = 180;

    /** From an index spec: 16803 unless 0 < bits <= 32; BadValue unless min < max, finite. */
    static StatusWith<TwoDGrid> fromSpec(const BSONObj& spec);
    /**
     * The key of the point (x, y): the cells' coordinates interleaved (Morton order, so nearby
     * points share key prefixes), as a NumberLong. 13027 when a coordinate is outside
     * [min, max).
     */
    StatusWith<long long> cellOf(double x, double y) const;
};

class BSONObjBuilder;
class StringComparator;

/** The 0-based components of one key field's path where a document has arrays. */
using MultikeyComponents = std::set<size_t>;
/** One MultikeyComponents per key field (upstream's multikey paths). */
using MultikeyPaths = std::vector<MultikeyComponents>;

struct IndexKeys {
    std::vector<BSONObj> keys;  // {"": v1, "": v2 ...}, sorted, distinct
    bool multikey = false;
    /** Per key field, where this document made the index multikey (a geo field: also its own
     * component when its geometry needs several cells). */
    MultikeyPaths multikeyPaths;
};

/**
 * Computes the keys of `doc` for `keyPattern`. With `sparse`, a document where every
 * key field is missing yields no keys. Returns CannotIndexParallelArrays when two
 * fields of a compound key are arrays. With a `collator` (the index's; null: simple),
 * strings are replaced by their comparison keys (appendCollationAwareElement).
 */
Status getIndexKeys(const BSONObj& keyPattern, const BSONObj& doc, bool sparse, IndexKeys* out,
                    const StringComparator* collator = nullptr, const TwoDGrid& grid = TwoDGrid());

/**
 * Appends `e` to `b` under `name`; with a `collator`, every String or Symbol value, at
 * any depth of objects and arrays, becomes a String holding collator->comparisonKey().
 * Other values are appended as they are. Cost: O(size of e).
 */
void appendCollationAwareElement(BSONObjBuilder* b, const BSONElement& e, StringData name,
                                 const StringComparator* collator);

/** `key` with each element translated by appendCollationAwareElement (names kept). */
BSONObj collationAwareKey(const BSONObj& key, const StringComparator* collator);

/** True when `e` is a String or Symbol, or an object/array (their contents may be). */
bool isCollatableType(const BSONElement& e);

/**
 * The index key values of a geo key field (`type` "2dsphere", or "2dsphere_bucket" on a
 * time-series buckets collection's `data.<f>` column): the S2 cell ids (NumberLong) covering
 * each geometry at `path`; for "2d", the `grid` cell of each legacy point at `path` (a point,
 * or an array of points). Missing/null/empty contributes nothing (geo fields are sparse).
 * A value that is not valid geo: Location16755 "Can't extract geo keys: <doc>  <reason>"
 * (measurements of a bucket that are not geo are skipped).
 */
Status getGeoKeyCells(StringData path, StringData type, const BSONObj& doc,
                      std::vector<long long>* cells, const TwoDGrid& grid = TwoDGrid());

/**
 * The legacy point at `e` (an array or object whose first two values are numbers): 16804
 * "location object expected, location array not in correct format" when it is an array or
 * object that is not one, 13026 when a coordinate is not a number.
 */
Status parseLegacyPoint2d(const BSONElement& e, double* x, double* y);

/** True for an index key type this file computes specially ("2dsphere", "2dsphere_bucket", "2d").
 */
bool isGeoKeyType(const BSONElement& keyPatternField);

/** True for a "hashed" key field. */
bool isHashedKeyType(const BSONElement& keyPatternField);

/**
 * The key of `e` in a hashed index field: a stable 64-bit digest, equal for values that
 * compare equal, numbers truncated to a 64-bit integer first. `e` must already be in the
 * index's key form (collationAwareKey when the index has a collation).
 */
long long hashIndexValue(const BSONElement& e);

/** The values at dotted `path` in `doc`, expanding arrays; sets `*arrayOnPath`. */
void getValuesAtPath(const BSONObj& doc, StringData path, std::vector<BSONElement>* out,
                     bool* arrayOnPath);

}  // namespace mongo
