// Options of the storage engine, filled from the command line / YAML config by
// mongod_main (names follow upstream's --wiredTiger* options).
#pragma once

#include <string>

namespace mongo {

struct StorageEngineOptions {
    std::string dbpath;
    /** WiredTiger cache; 0 means the small default of 256 MB. */
    double cacheSizeGB = 0;
    /** none | snappy | zlib | zstd (--wiredTigerCollectionBlockCompressor). */
    std::string collectionBlockCompressor = "snappy";
    /** --wiredTigerIndexPrefixCompression. */
    bool indexPrefixCompression = true;
    /** none | snappy | zlib (zstd falls back to snappy: WT needs a .so for log compressors). */
    std::string journalCompressor = "snappy";
    /** Seconds between checkpoints (--syncdelay); 0 disables the periodic checkpoint. */
    int syncdelaySecs = 60;
    /** Milliseconds between background journal flushes (--journalCommitInterval). */
    int journalCommitIntervalMs = 100;
    /** Max size of one journal file, in MB (kept small: no preallocation). */
    int journalFileMaxMB = 16;
    /** Accepted for compatibility; ignored. */
    bool directoryPerDB = false;
    /** Extra wiredtiger_open config appended verbatim (--wiredTigerEngineConfigString). */
    std::string engineConfigString;
};

}  // namespace mongo
