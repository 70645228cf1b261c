// DurableCatalog: the on-disk list of collections and their indexes, one BSON
// document per collection in the `_mdb_catalog` record store (shape in README.md):
//   {ns, ident, idxIdent: {<indexName>: <ident>},
//    md: {ns, options: {uuid: UUID, ...}, indexes: [{spec, ready, multikey, multikeyPaths?}]}}
// Databases are the distinct prefixes of the namespaces. Every change is a write to
// `_mdb_catalog` inside the caller's WriteUnitOfWork: tables are created eagerly and
// dropped if the unit rolls back; dropped tables go away only after commit. Tables
// orphaned by a crash between those steps are dropped by open().
//
// Thread safety: methods may be called concurrently (WiredTiger serialises
// conflicting catalog writes with WriteConflictException).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/storage/kv_engine.h"

namespace mongo {

class DurableCatalog {
public:
    static constexpr StringData kCatalogIdent = "_mdb_catalog";
    /**
     * md flag of a time-series buckets collection whose RecordIds come from its _id times
     * (RecordStore::insertRecordForTime; Collection::recordIdsFromIdTime). Set at creation.
     */
    static constexpr StringData kRecordIdsFromIdTime = "recordIdsFromIdTime";

    struct Entry {
        RecordId catalogId;
        std::string ns;
        std::string ident;
        BSONObj md;        // {ns, options, indexes: [...]}
        BSONObj idxIdent;  // {<indexName>: <ident>}

        /** options.uuid as 16 raw bytes (empty if absent). */
        std::string uuid() const;
        /** The md.indexes entry named `name` (EOO-like empty object if absent). */
        BSONObj indexEntry(StringData name) const;
        std::string indexIdent(StringData name) const;
    };

    /**
     * Opens the catalog of `engine` (creating `_mdb_catalog` if needed) and drops
     * collection-* / index-* idents that no entry references. `engine` must outlive it.
     */
    static StatusWith<std::unique_ptr<DurableCatalog>> open(KVEngine* engine);

    std::vector<Entry> getAllEntries(RecoveryUnit* ru) const;
    std::optional<Entry> getEntry(RecoveryUnit* ru, RecordId catalogId) const;
    std::optional<Entry> findByNs(RecoveryUnit* ru, StringData ns) const;
    /** Distinct database names (the part of ns before the first '.'), sorted. */
    std::vector<std::string> getDatabaseNames(RecoveryUnit* ru) const;

    /**
     * Creates the collection `ns` ("db.coll") with its table. `options` are the create
     * options; a `uuid` (BinData subtype 4) is generated unless present.
     * NamespaceExists (48) if `ns` exists. REQUIRES: in a unit of work.
     */
    StatusWith<Entry> addCollection(RecoveryUnit* ru, StringData ns, const BSONObj& options);

    /** Replaces md (its `ns` must equal the entry's). NamespaceNotFound if the id is unknown. */
    Status putMetaData(RecoveryUnit* ru, RecordId catalogId, const BSONObj& md);

    /**
     * Adds index `spec` ({v, key, name, unique?, ...}) with ready/multikey state and
     * creates its table; returns the index ident. IndexAlreadyExists (68) if the name
     * is taken; NamespaceNotFound (26). REQUIRES: in a unit of work.
     */
    StatusWith<std::string> addIndex(RecoveryUnit* ru, RecordId catalogId, const BSONObj& spec,
                                     bool ready);
    /** Removes the index and drops its table after commit. IndexNotFound (27). */
    Status removeIndex(RecoveryUnit* ru, RecordId catalogId, StringData indexName);
    /** Sets md.indexes[name].ready / multikey (and multikeyPaths when not empty). */
    Status setIndexReady(RecoveryUnit* ru, RecordId catalogId, StringData indexName);
    Status setIndexMultikey(RecoveryUnit* ru, RecordId catalogId, StringData indexName,
                            bool multikey, const BSONObj& multikeyPaths);

    /** Removes the entry; the collection and index tables are dropped after commit. */
    Status dropCollection(RecoveryUnit* ru, RecordId catalogId);
    /** Renames to `toNs`; NamespaceExists if taken, NamespaceNotFound if id unknown. */
    Status renameCollection(RecoveryUnit* ru, RecordId catalogId, StringData toNs);

    /** Record store / index of an entry. */
    std::unique_ptr<RecordStore> getRecordStore(const Entry& entry) const;
    std::unique_ptr<SortedDataInterface> getIndex(const Entry& entry, StringData indexName) const;

    /** The IndexConfig (keyPattern, unique, names) of an index spec in namespace ns. */
    static IndexConfig indexConfigFromSpec(StringData ns, const BSONObj& spec);
    /** True for a unique index spec; the _id index is unique without saying so. */
    static bool isUniqueIndexSpec(const BSONObj& spec);

    /**
     * The table configuration for a new collection `ns` with create `options`: its
     * storageEngine.wiredTiger.configString, with block_compressor=zstd first for a
     * time-series buckets collection ("<db>.system.buckets.<name>") that names no compressor.
     * BadValue / InvalidOptions / TypeMismatch (upstream's) for a malformed storageEngine.
     */
    static StatusWith<std::string> tableConfigString(StringData ns, const BSONObj& options);

    /** A new random version-4 UUID, as 16 raw bytes. */
    static std::string generateUUID();

private:
    DurableCatalog(KVEngine* engine, std::unique_ptr<RecordStore> rs);
    std::string _newIdent(StringData kind);
    Status _writeEntry(RecoveryUnit* ru, const Entry& e);

    KVEngine* _engine;
    std::unique_ptr<RecordStore> _rs;
};

}  // namespace mongo
