// Index key generation for ascending/descending (btree) indexes: the keys a
// document contributes to an index with a given key pattern. A path that reaches
// an array makes the index multikey (one key per element); two array paths in one
// compound key are refused (CannotIndexParallelArrays 171). Missing fields index
// as null, empty arrays as undefined; sparse indexes skip documents that lack
// every key field.
#pragma once

#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

struct IndexKeys {
    std::vector<BSONObj> keys;  // {"": v1, "": v2 ...}, sorted, distinct
    bool multikey = false;
};

/**
 * Computes the keys of `doc` for `keyPattern`. With `sparse`, a document where every
 * key field is missing yields no keys. Returns CannotIndexParallelArrays when two
 * fields of a compound key are arrays.
 */
Status getIndexKeys(const BSONObj& keyPattern, const BSONObj& doc, bool sparse, IndexKeys* out);

/** The values at dotted `path` in `doc`, expanding arrays; sets `*arrayOnPath`. */
void getValuesAtPath(const BSONObj& doc, StringData path, std::vector<BSONElement>* out,
                     bool* arrayOnPath);

}  // namespace mongo
