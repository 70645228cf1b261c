#pragma once
// Multikey paths of an index: per key field, the path components where some document has an
// array. The catalog keeps them (md.indexes[].multikeyPaths, one byte per component, upstream's
// layout) and explain shows them (IXSCAN multiKeyPaths: {"a.b": ["a"]}).

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/index_key_generator.h"

namespace mongo {

/** False for the index kinds upstream keeps no multikey paths for ("2d", "text", "$**"). */
bool indexTracksMultikeyPaths(const BSONObj& keyPattern);

/** Adds `more` to `*paths` (sized like `more` first if empty); true when something was new. */
bool mergeMultikeyPaths(MultikeyPaths* paths, const MultikeyPaths& more);

/** {field: BinData(0, one byte per component, 1 where multikey)} for the durable catalog. */
BSONObj multikeyPathsToCatalog(const BSONObj& keyPattern, const MultikeyPaths& paths);

/** The inverse of multikeyPathsToCatalog(); fields missing or malformed read as not multikey. */
MultikeyPaths multikeyPathsFromCatalog(const BSONObj& keyPattern, const BSONObj& stored);

/** explain's form: {field: [the dotted prefix ending at each multikey component]}. */
BSONObj multikeyPathsForExplain(const BSONObj& keyPattern, const MultikeyPaths& paths);

}  // namespace mongo
