// dbHash: MD5 fingerprints of collections and databases, used to prove that two
// nodes hold the same data (the oplog replay test). A collection's hash is the
// MD5 of its documents' BSON bytes in _id order (natural order when it has no
// _id index); a database's hash is the MD5 of "<name><collection hash>" over its
// hashed collections in name order.
#pragma once

#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

class Collection;
class OperationContext;

namespace repl {

/** 32 hex digits. Reads at the operation's current snapshot. Cost: O(data). */
std::string hashCollection(OperationContext* opCtx, Collection* coll);

/**
 * Appends the dbHash reply body for `db`: {host, collections: {name: md5},
 * capped: [...], uuids: {name: UUID}, md5, timeMillis}. `only` restricts the
 * collections (empty: all but system.profile). `host` is this node's name.
 */
void appendDbHash(OperationContext* opCtx, StringData db, const std::vector<std::string>& only,
                  const std::string& host, BSONObjBuilder* result);

}  // namespace repl
}  // namespace mongo
