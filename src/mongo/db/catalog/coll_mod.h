// collMod of a collection (upstream 8.0 behaviour): the request is validated against the
// collection first (upstream's order and codes), then applied through the CollectionCatalog.
// Views are modified by the command (commands/ddl_cmds.cpp); time-series views by
// timeseries/timeseries_commands.cpp, which shares the index part (resolve + validate + apply).
// Thread safety: as the catalog functions called; the request objects are per operation.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"
#include "mongo/idl/ddl_commands_gen.h"

namespace mongo {

class Collection;
class CollectionCatalog;
struct IndexEntry;
class OperationContext;

/** What a collMod `index` sub-document changes on one index, after validation. */
struct CollModIndexChange {
    std::string indexName;
    std::optional<long long> expireAfterSeconds;
    std::optional<bool> hidden;         // set only when it differs from the index
    bool makeUnique = false;            // unique: true on a non-unique index
    std::optional<bool> prepareUnique;  // set only when it differs (and not unique)
    bool makeNonUnique = false;         // forceNonUnique: true on a unique index
    int numModifications = 0;           // options named in the request, no-ops included
    // The index as validated (for the reply).
    std::optional<long long> oldExpireAfterSeconds;
    bool oldHidden = false;
    bool oldPrepareUnique = false;

    bool empty() const {
        return !expireAfterSeconds && !hidden && !makeUnique && !prepareUnique && !makeNonUnique;
    }
};

/** What kind of collection an index request is checked for. */
enum class CollModTarget { kCollection, kTimeseries };

/**
 * Checks the shape of `request` (name xor keyPattern, at least one option, no unique with
 * forceNonUnique): InvalidOptions otherwise, upstream's messages.
 */
void checkCollModIndexShape(const CollModIndex& request);

/**
 * The index of `coll` named by `request.name`, or whose key pattern is `keyPattern`:
 * IndexNotFound, AmbiguousIndexKeyPattern (several indexes share the key pattern).
 */
IndexEntry* resolveCollModIndex(const Collection& coll, const CollModIndex& request,
                                const BSONObj& keyPattern);

/**
 * Validates `request` on `index` of `coll` (upstream's rules, codes InvalidOptions, BadValue,
 * 6011800) and returns the changes that are not no-ops.
 */
CollModIndexChange validateCollModIndex(const Collection& coll, const IndexEntry& index,
                                        const CollModIndex& request, CollModTarget target);

/**
 * Applies `change` to index change.indexName of `nss` and appends upstream's reply fields
 * (expireAfterSeconds_old/_new, hidden_old/_new, unique_new, prepareUnique_old/_new,
 * forceNonUnique_new). Throws the catalog's errors; CannotConvertIndexToUnique 359 with
 * `violations` when converting an index holding duplicate keys.
 */
void applyCollModIndex(OperationContext* opCtx, const NamespaceString& nss,
                       const CollModIndexChange& change, BSONObjBuilder* result);

/**
 * collMod on a collection that is neither a view nor a time-series view. `coll` may be null
 * (then NamespaceNotFound). Throws with upstream's codes; `result` gets the reply fields.
 */
void collModCollection(OperationContext* opCtx, const NamespaceString& nss,
                       const std::shared_ptr<Collection>& coll, const CollModCommand& cmd,
                       BSONObjBuilder* result);

/**
 * A command's `collectionUUID`: OK when `nss` is a collection with that UUID. Otherwise
 * CollectionUUIDMismatch 361 with {db, collectionUUID, expectedCollection,
 * actualCollection} (the collection of the same database holding the UUID, or null);
 * TypeMismatch when it is not a UUID.
 */
void checkCollectionUUIDMismatch(OperationContext* opCtx, const NamespaceString& nss,
                                 const BSONElement& uuid);

/**
 * A collection-level TTL (clustered collections, time-series buckets): TypeMismatch if not a
 * number, InvalidOptions when NaN, negative or above INT32_MAX.
 */
Status validateClusteredExpireAfterSeconds(const BSONElement& value);

}  // namespace mongo
