// SpillFile: an anonymous temporary file of records [tag: int64][a: BSON][b: BSON], the
// one on-disk format of everything the query layer spills (ExternalSorter's sorted runs,
// $setWindowFields' partition cache). Records are appended; they are read back in order
// (readNext) or at the offset append() returned (readAt). The file is deleted when closed.
//
// Thread safety: none; one operation owns a SpillFile.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

/** The counters upstream reports for a stage that spills (explain executionStats). */
struct SpillingStats {
    long long spills = 0;                  // times memory was written out
    long long spilledBytes = 0;            // record bytes written
    long long spilledRecords = 0;          // records written
    long long spilledDataStorageSize = 0;  // peak bytes on disk

    void add(const SpillingStats& o) {
        spills += o.spills;
        spilledBytes += o.spilledBytes;
        spilledRecords += o.spilledRecords;
        spilledDataStorageSize += o.spilledDataStorageSize;
    }

    /** Appends usedDisk, spills, spilledDataStorageSize, spilledBytes, spilledRecords. */
    void appendTo(BSONObjBuilder* b) const;
};

class SpillFile {
public:
    struct Record {
        std::int64_t tag = 0;
        BSONObj a;
        BSONObj b;
    };

    /** Creates the file. Throws InternalError 1 when the system cannot create one. */
    SpillFile();
    ~SpillFile();
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;

    /** Appends a record; returns its offset. Throws InternalError on a failed write. */
    std::int64_t append(std::int64_t tag, const BSONObj& a, const BSONObj& b);
    /** The record at `offset` (an append() result). Throws InternalError if corrupt. */
    Record readAt(std::int64_t offset);
    /** From the start after rewind(): the next record, or nullopt at the end. */
    std::optional<Record> readNext();
    /** Ends appending and positions readNext() at the first record. */
    void rewind();
    /** Empties the file (appending starts again at offset 0). */
    void truncate();
    /** Bytes in the file. */
    std::int64_t size() const {
        return _size;
    }

private:
    /** `n` bytes at `pos`, through the read block (loaded from the file as needed). */
    const char* bytesAt(std::int64_t pos, size_t n);

    std::FILE* _file = nullptr;
    // Reads go through one block of the file (records are mostly read in order or near each
    // other): a read inside it costs no system call.
    std::vector<char> _block;
    std::int64_t _blockStart = 0;
    std::int64_t _size = 0;
    std::int64_t _readPos = 0;
    bool _dirty = false;  // appended since the last flush
};

}  // namespace mongo
