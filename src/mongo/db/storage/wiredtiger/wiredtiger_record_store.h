// WiredTigerRecordStore: a RecordStore over table `table:<ident>` with
// key_format=q (the RecordId) and value_format=u (the BSON bytes). Counters
// (next id, count, data size) live in a RecordStoreCounters shared by every
// RecordStore object of the ident; they change when a unit of work commits.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "mongo/db/storage/record_store.h"
#include "mongo/db/storage/storage_options.h"
#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

namespace mongo {

struct RecordStoreCounters {
    std::atomic<std::int64_t> nextId{1};
    std::atomic<std::int64_t> timeSeq{1};  // insertRecordForTime()'s next n (wraps)
    std::atomic<long long> numRecords{0};
    std::atomic<long long> dataSize{0};
};

class WiredTigerRecordStore : public RecordStore {
public:
    WiredTigerRecordStore(std::string ident, std::string dbpath,
                          std::shared_ptr<RecordStoreCounters> counters);

    /**
     * The WT_SESSION::create config of a collection table: the engine's defaults, then
     * `configString` (a collection's storageEngine.wiredTiger.configString; later keys win),
     * then the key and value formats, which it cannot change.
     */
    static std::string tableConfig(const StorageEngineOptions& options,
                                   StringData configString = {});
    /** Fills `counters` by scanning the table (O(n), done once per ident and process). */
    static Status loadCounters(WT_SESSION* s, StringData ident, RecordStoreCounters* counters);

    const std::string& ident() const override {
        return _ident;
    }
    StatusWith<RecordId> insertRecord(RecoveryUnit* ru, const char* data, int len) override;
    Status insertRecordWithId(RecoveryUnit* ru, RecordId id, const char* data, int len) override;
    StatusWith<RecordId> insertRecordForTime(RecoveryUnit* ru, uint32_t seconds, const char* data,
                                             int len) override;
    Status updateRecord(RecoveryUnit* ru, RecordId id, const char* data, int len) override;
    void deleteRecord(RecoveryUnit* ru, RecordId id) override;
    bool findRecord(RecoveryUnit* ru, RecordId id, BSONObj* out) const override;
    std::optional<Record> randomRecord(RecoveryUnit* ru) const override;
    bool findRecordIf(RecoveryUnit* ru, RecordId id,
                      const std::function<bool(const BSONObj&)>& keep, BSONObj* out,
                      bool* kept) const override;
    std::unique_ptr<RecordCursor> getCursor(RecoveryUnit* ru, bool forward) const override;
    long long numRecords(RecoveryUnit* ru) const override;
    long long dataSize(RecoveryUnit* ru) const override;
    long long storageSize(RecoveryUnit* ru) const override;
    void updateStatsAfterRepair(long long numRecords, long long dataSize) override;
    Status truncate(RecoveryUnit* ru) override;

private:
    Status _insert(RecoveryUnit* ru, RecordId id, const char* data, int len, bool overwrite);

    std::string _ident;
    std::string _uri;
    std::string _path;  // the table's .wt file
    std::shared_ptr<RecordStoreCounters> _counters;
};

/** Size in bytes of `dbpath/<ident>.wt` (0 if missing). */
long long identFileSize(const std::string& path);

}  // namespace mongo
