// CollectionCatalog: the in-memory map of open collections, loaded from the
// durable catalog at start-up and kept in step with it by every DDL operation
// (create, drop, rename, dropDatabase, index builds and drops). Databases exist
// while they hold a collection ("appear on first write").
//
// Thread safety: all methods may be called concurrently. DDL is serialised by
// one catalog-wide mutex; a DDL operation on a collection also holds that
// collection's lock exclusively (see Collection).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class DurableCatalog;
class KVEngine;
class OperationContext;

class CollectionCatalog {
public:
    CollectionCatalog(KVEngine* engine, DurableCatalog* durable);

    /** Opens every collection of the durable catalog. */
    Status init(OperationContext* opCtx);

    std::shared_ptr<Collection> lookup(const NamespaceString& nss) const;
    std::vector<std::shared_ptr<Collection>> collectionsInDb(StringData db) const;
    std::vector<std::string> databaseNames() const;

    /**
     * Creates `nss` with `options` (create-command options, validated by the caller)
     * and its _id index unless the options say otherwise. NamespaceExists 48 if it exists.
     */
    StatusWith<std::shared_ptr<Collection>> createCollection(OperationContext* opCtx,
                                                             const NamespaceString& nss,
                                                             const BSONObj& options);
    /** The collection, created with default options when missing (implicit creation). */
    std::shared_ptr<Collection> getOrCreateCollection(OperationContext* opCtx,
                                                      const NamespaceString& nss);
    /** NamespaceNotFound 26 if absent. Kills the collection's cursors first. */
    Status dropCollection(OperationContext* opCtx, const NamespaceString& nss);
    /** Drops every collection of `db` (OK if none). */
    Status dropDatabase(OperationContext* opCtx, StringData db);
    /** NamespaceNotFound / NamespaceExists (unless dropTarget) as upstream. */
    Status renameCollection(OperationContext* opCtx, const NamespaceString& from,
                            const NamespaceString& to, bool dropTarget);

    /**
     * Builds the indexes of `specs` (validated, normalised specs) on `nss`, creating the
     * collection if needed. Specs identical to an existing index are skipped. Returns the
     * number of indexes before and after; `createdCollection` tells if nss was created.
     */
    struct CreateIndexesResult {
        int numIndexesBefore = 0;
        int numIndexesAfter = 0;
        bool createdCollection = false;
        bool allExisted = false;
    };
    StatusWith<CreateIndexesResult> createIndexes(OperationContext* opCtx,
                                                  const NamespaceString& nss,
                                                  const std::vector<BSONObj>& specs);
    /** Drops one index by name. IndexNotFound 27; the _id index: InvalidOptions 72. */
    Status dropIndex(OperationContext* opCtx, const NamespaceString& nss, StringData name);
    /** Changes an index option (hidden, expireAfterSeconds) in the catalog and in memory. */
    Status updateIndexSpec(OperationContext* opCtx, const NamespaceString& nss, StringData name,
                           const BSONObj& newSpec);
    /**
     * collMod of one index: sets `hidden` and/or `expireAfterSeconds` (either may be
     * EOO) and appends {hidden_old, hidden_new, expireAfterSeconds_old/new} to `result`.
     * BadValue hiding the _id index; InvalidOptions changing the TTL of a non-TTL index.
     */
    Status modifyIndexOptions(OperationContext* opCtx, const NamespaceString& nss,
                              const IndexEntry& index, const BSONElement& hidden,
                              const BSONElement& expireAfterSeconds, BSONObjBuilder* result);
    /** Catalog-entry names of the time-series flags (Collection::TimeseriesFlags). */
    static constexpr StringData kMixedSchemaFlag = "timeseriesBucketsMayHaveMixedSchemaData";
    static constexpr StringData kExtendedRangeFlag = "requiresTimeseriesExtendedRangeSupport";
    static constexpr StringData kParametersChangedFlag = "timeseriesBucketingParametersHaveChanged";

    /**
     * Sets one time-series flag (a k...Flag name) of `coll` in its durable catalog entry and
     * in memory. Writes nothing when the flag already has that value.
     */
    Status setTimeseriesFlag(OperationContext* opCtx, const std::shared_ptr<Collection>& coll,
                             StringData flag, bool value);

    /**
     * collMod {index: {unique: true}} / {forceNonUnique: true}: rebuilds index `name` of `nss`
     * as a unique (or non-unique) index in one unit of work, under the collection's exclusive
     * lock (the table format follows uniqueness, storage/README.md), and clears prepareUnique.
     * Converting to unique first scans the index: when keys are shared, returns
     * CannotConvertIndexToUnique 359 and sets `*violations` to [{ids: [<_id>...]}, ...]
     * (at most ~8 MB of _ids). `dryRun`: only the scan. Cost: O(index) + O(collection).
     * NamespaceNotFound, IndexNotFound.
     */
    Status convertIndexUniqueness(OperationContext* opCtx, const NamespaceString& nss,
                                  StringData name, bool unique, bool dryRun, BSONObj* violations);

    /** Replaces the stored options of a collection (collMod); its uuid is kept. */
    Status updateCollectionOptions(OperationContext* opCtx, const NamespaceString& nss,
                                   const BSONObj& newOptions);

    std::mutex& ddlMutex() {
        return _ddlMutex;
    }

private:
    std::shared_ptr<Collection> _open(OperationContext* opCtx, const NamespaceString& nss,
                                      RecordId catalogId);
    Status _buildIndex(OperationContext* opCtx, Collection* coll, const BSONObj& spec);
    Status _dropCollectionLocked(OperationContext* opCtx, const NamespaceString& nss);

    KVEngine* _engine;
    DurableCatalog* _durable;
    mutable std::mutex _mapMutex;  // guards _collections
    std::map<NamespaceString, std::shared_ptr<Collection>> _collections;
    std::mutex _ddlMutex;
};

/** Cursors registered on `nss` are killed when it is dropped or renamed. */
void setCursorKillerForNamespace(std::function<void(const NamespaceString&)> killer);

}  // namespace mongo
