// WiredTigerIndex: a SortedDataInterface over table `table:<ident>` with
// key_format=u,value_format=u holding KeyString bytes (../README.md):
//   unique:     KeyString(key)            -> RecordId(8) + TypeBits
//   non-unique: KeyString(key)+RecordId(8) -> TypeBits
#pragma once

#include <string>

#include "mongo/db/storage/sorted_data_interface.h"
#include "mongo/db/storage/storage_options.h"

namespace mongo {

class WiredTigerIndex : public SortedDataInterface {
public:
    WiredTigerIndex(std::string ident, std::string dbpath, IndexConfig config);

    /** The WT_SESSION::create config of an index table. */
    static std::string tableConfig(const StorageEngineOptions& options, const IndexConfig& config);

    const std::string& ident() const override {
        return _ident;
    }
    const IndexConfig& config() const override {
        return _config;
    }
    Status insert(RecoveryUnit* ru, const BSONObj& key, RecordId loc, bool dupsAllowed) override;
    void unindex(RecoveryUnit* ru, const BSONObj& key, RecordId loc) override;
    Status dupKeyCheck(RecoveryUnit* ru, const BSONObj& key, RecordId loc) override;
    std::unique_ptr<SortedDataCursor> newCursor(RecoveryUnit* ru, bool forward) const override;
    long long numEntries(RecoveryUnit* ru) const override;
    long long storageSize(RecoveryUnit* ru) const override;
    bool isEmpty(RecoveryUnit* ru) const override;
    Status truncate(RecoveryUnit* ru) override;

private:
    std::string _ident;
    std::string _uri;
    std::string _path;
    IndexConfig _config;
    Ordering _ordering;
};

}  // namespace mongo
