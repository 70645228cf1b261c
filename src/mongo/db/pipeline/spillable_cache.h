// SpillableCache: the documents of the $setWindowFields partition being output, addressed
// by their index in the partition. Rows live in memory until their bytes reach the stage's
// limit; then, with allowDiskUse, every row in memory is appended to a SpillFile and only
// its offset is kept; without, the add fails with 5643011 (as upstream).
//
// Thread safety: none; owned by one stage.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/exec/spill_file.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {

/** One input document of a partition, with its (collated) sortBy key. */
struct WindowRow {
    BSONObj doc;
    BSONObj sortKey;  // empty without sortBy
    /** The first sortBy value (range windows, $derivative...), a copy of sortKey's first element.
     */
    Value sortValue() const {
        return sortKey.isEmpty() ? Value() : Value::copyOf(sortKey.firstElement());
    }
};

class SpillableCache {
public:
    SpillableCache(long long maxMemoryBytes, bool allowDiskUse)
        : _maxMemoryBytes(maxMemoryBytes), _allowDiskUse(allowDiskUse) {}

    /**
     * Appends `row` as index size(). When the rows in memory reach the limit they are spilled
     * (allowDiskUse) or the call throws 5643011. Throws InternalError if the disk write fails.
     */
    void add(WindowRow row);
    /** Row `i` (< size()); read back from disk for a spilled row (costs a read). */
    WindowRow at(size_t i);
    size_t size() const {
        return _spilledOffsets.size() + _memory.size();
    }
    /** Writes the rows in memory to disk. Requires allowDiskUse. */
    void spillToDisk();
    /** Forgets every row (the next partition starts at index 0). */
    void clear();
    /** Bytes held in memory (rows and spilled rows' offsets). */
    size_t memoryBytes() const {
        return _memoryBytes + _spilledOffsets.size() * sizeof(std::int64_t);
    }
    bool usedDisk() const {
        return _stats.spills > 0;
    }
    const SpillingStats& spillingStats() const {
        return _stats;
    }

private:
    static size_t rowBytes(const WindowRow& r) {
        return static_cast<size_t>(r.doc.objsize() + r.sortKey.objsize()) + sizeof(WindowRow);
    }

    long long _maxMemoryBytes;
    bool _allowDiskUse;
    std::vector<std::int64_t> _spilledOffsets;  // rows [0, _spilledOffsets.size()) are on disk
    std::vector<WindowRow> _memory;             // the rows after them
    size_t _memoryBytes = 0;
    std::unique_ptr<SpillFile> _file;
    SpillingStats _stats;
};

}  // namespace mongo
