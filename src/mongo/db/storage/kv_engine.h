// KVEngine: the storage engine seen by the catalog. It owns the tables ("idents")
// and hands out RecoveryUnits, RecordStores and SortedDataInterfaces over them.
// The only implementation is WiredTigerKVEngine (wiredtiger/wiredtiger_kv_engine.h).
//
// Thread safety: all methods may be called concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/db/storage/sorted_data_interface.h"

namespace mongo {

class KVEngine {
public:
    virtual ~KVEngine() = default;

    /** A new RecoveryUnit; every one must be destroyed before cleanShutdown(). */
    virtual std::unique_ptr<RecoveryUnit> newRecoveryUnit() = 0;

    /**
     * Creates the collection table `ident` (not transactional). OK if it exists.
     * `configString` (a collection's storageEngine.wiredTiger.configString) overrides the
     * engine's defaults, e.g. "block_compressor=zstd"; BadValue if WiredTiger rejects it.
     */
    virtual Status createRecordStore(StringData ident, StringData configString = {}) = 0;
    /**
     * The configuration the table `ident` was created with, as WiredTiger keeps it (upstream's
     * collStats `wiredTiger.creationString`); empty if there is no such table.
     */
    virtual std::string getCreationString(StringData ident) = 0;
    /** The record store over an existing ident; nullptr if the table does not exist. */
    virtual std::unique_ptr<RecordStore> getRecordStore(StringData ident) = 0;

    /** Creates the index table `ident` (not transactional). OK if it exists. */
    virtual Status createSortedDataInterface(StringData ident, const IndexConfig& config) = 0;
    virtual std::unique_ptr<SortedDataInterface> getSortedDataInterface(
        StringData ident, const IndexConfig& config) = 0;

    /**
     * Drops the table. If it stays busy (open cursors elsewhere) after retries, the
     * drop is queued and retried by the background thread; OK is returned then too.
     */
    virtual Status dropIdent(StringData ident) = 0;
    virtual bool hasIdent(StringData ident) = 0;
    virtual std::vector<std::string> getAllIdents() = 0;

    /**
     * Compacts the table `ident` online (WT_SESSION::compact: moves data to the start of the
     * file and returns the freed space to the filesystem). Interrupted (11601) when WiredTiger
     * gives up (e.g. cache pressure); other failures as the storage error. Cost: rewrites up to
     * the whole table.
     */
    virtual Status compact(StringData ident) = 0;

    /** Writes a checkpoint now. */
    virtual Status checkpoint() = 0;
    /** Stops background threads, writes a final checkpoint and closes. Idempotent. */
    virtual void cleanShutdown() = 0;
};

}  // namespace mongo
