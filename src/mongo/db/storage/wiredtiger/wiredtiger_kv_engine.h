// WiredTigerKVEngine: the WiredTiger connection (journal on, snapshot isolation),
// the session cache, the background thread that flushes the journal every
// journalCommitIntervalMs and checkpoints every syncdelaySecs, and the factories
// for record stores and indexes. Table configs and layout: ../README.md.
//
// Thread safety: all public methods may be called concurrently.
#pragma once

#include <memory>

#include "mongo/db/storage/kv_engine.h"
#include "mongo/db/storage/storage_options.h"

namespace mongo {

class WiredTigerKVEngine : public KVEngine {
public:
    /**
     * Opens (creating if needed) the database in options.dbpath, which must exist.
     * BadValue for an unknown compressor; DBPathInUse if another process holds it;
     * other WiredTiger failures as UnknownError/InternalError.
     */
    static StatusWith<std::unique_ptr<WiredTigerKVEngine>> open(
        const StorageEngineOptions& options);

    ~WiredTigerKVEngine() override;  // cleanShutdown() if not done yet

    std::unique_ptr<RecoveryUnit> newRecoveryUnit() override;
    Status createRecordStore(StringData ident, StringData configString = {}) override;
    std::string getCreationString(StringData ident) override;
    std::unique_ptr<RecordStore> getRecordStore(StringData ident) override;
    Status createSortedDataInterface(StringData ident, const IndexConfig& config) override;
    std::unique_ptr<SortedDataInterface> getSortedDataInterface(StringData ident,
                                                                const IndexConfig& config) override;
    Status dropIdent(StringData ident) override;
    bool hasIdent(StringData ident) override;
    std::vector<std::string> getAllIdents() override;
    Status compact(StringData ident) override;
    Status checkpoint() override;
    void cleanShutdown() override;

    const StorageEngineOptions& options() const;

    /** Tables whose counters were loaded by scanning them (no size storer entry). */
    long long tablesCountedByScan() const;
    /** Writes changed counters to the size storer now (checkpoints and shutdown do too). */
    Status flushSizeStorer();

    class Impl;

private:
    explicit WiredTigerKVEngine(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> _impl;
};

}  // namespace mongo
